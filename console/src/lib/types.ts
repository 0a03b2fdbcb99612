// The selections several views share, as fragments: a view's type is its fragment's result, so
// it follows the schema (lib/graphql.ts). Documents spread them (`...MessageFields`) and pass the
// fragment in their second argument. A turn's type comes from the one query that reads turns.
import { graphql, type FragmentOf, type ResultOf } from './graphql.js';

/** A Relay connection as the console reads it (only its nodes; a query may ask for its pageInfo too). */
export interface Conn<T> {
  edges: ReadonlyArray<{ node: T }>;
}
export const nodes = <T>(c: Conn<T> | undefined | null): T[] => (c?.edges ?? []).map((e) => e.node);

/** An agent as a pick list shows it (MemberOrder). */
export const AgentName = graphql(`
  fragment AgentName on Agent {
    id
    name
  }
`);
export type Named = FragmentOf<typeof AgentName>;

export const DialogueSummaryFields = graphql(`
  fragment DialogueSummaryFields on Dialogue {
    id
    title
    type
    status
    messageCount
    lastActivityAt
    createdAt
    chat {
      platform
      chatId
      threadId
    }
    humans {
      id
      displayName
    }
    agents {
      id
      name
    }
  }
`);
export type DialogueSummary = FragmentOf<typeof DialogueSummaryFields>;

export const SessionSummaryFields = graphql(`
  fragment SessionSummaryFields on Session {
    id
    kind
    status
    startedAt
    endedAt
    closeReason
    summary
    stats {
      messageCount
      turnCount
    }
  }
`);
export type SessionSummary = FragmentOf<typeof SessionSummaryFields>;

export const MessageFields = graphql(`
  fragment MessageFields on Message {
    id
    senderRole
    senderId
    contentType
    content
    createdAt
    visible
    rejectedCode
    rejectedReason
    turnId
    delivery {
      state
      error {
        code
        message
      }
    }
    attachments {
      kind
      state
      fileName
    }
    # Knowledge passages the reply cited as [n].
    sources {
      n
      documentName
      relevanceScore
      content
    }
  }
`);
export type MessageView = FragmentOf<typeof MessageFields>;

/**
 * A session's turns with their messages (the dialogue page, each turn a TurnCard). Written out,
 * not spread: the API's depth limit (14) counts a fragment spread as two levels, and this query
 * is 13 deep. A message here is a MessageView too: TurnCard hands it to MessageBubble.
 */
export const SESSION_TURNS = graphql(`
  query SessionTurns($id: ID!, $since: DateTime!) {
    dialogue(id: $id) {
      sessions(first: 1, since: $since) {
        edges {
          node {
            id
            turns(last: 40) {
              pageInfo {
                hasPreviousPage
              }
              edges {
                node {
                  id
                  kind
                  status
                  outcome
                  startedAt
                  closedAt
                  responseTimeMs
                  initiatorRole
                  initiatorId
                  responderRole
                  responderId
                  messages(first: 50) {
                    edges {
                      node {
                        id
                        senderRole
                        senderId
                        contentType
                        content
                        createdAt
                        visible
                        rejectedCode
                        rejectedReason
                        turnId
                        delivery {
                          state
                          error {
                            code
                            message
                          }
                        }
                        attachments {
                          kind
                          state
                          fileName
                        }
                        sources {
                          n
                          documentName
                          relevanceScore
                          content
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`);
type SessionWithTurns = ResultOf<typeof SESSION_TURNS>['dialogue']['sessions']['edges'][number]['node'];
export type TurnView = SessionWithTurns['turns']['edges'][number]['node'];

export const EventFields = graphql(`
  fragment EventFields on Event {
    id
    kind
    at
    turnId
    messageId
    data
  }
`);
export type EventView = FragmentOf<typeof EventFields>;

/** A dialogue's story (seed 001): its background and that background's plot state here. */
export const StoryFields = graphql(`
  fragment StoryFields on Story {
    background {
      id
      name
      worldSetting
    }
    beats {
      n
      text
      status
    }
    # Replies in a row without progress.
    noUpdateCount
    steps {
      n
      status
      at
      by
      messageIds
    }
  }
`);
export type StoryView = FragmentOf<typeof StoryFields>;

export type BeatStatus = StoryView['beats'][number]['status'];
export const BEAT_STATUSES: readonly BeatStatus[] = ['pending', 'active', 'done', 'skipped'];
