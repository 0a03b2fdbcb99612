// One turn's trace as its page reads it (seed 000's DialogueTurn), and how its recorded events
// sort into the page's panels.
import { graphql, type ResultOf } from './graphql.js';
import { EventFields, MessageFields, type EventView } from './types.js';

export const TRACE = graphql(
  `
    query Trace($id: ID!) {
      turnTrace(turnId: $id) {
        turn {
          id
          kind
          status
          outcome
          startedAt
          closedAt
          deadlineAt
          responseTimeMs
          initiatorRole
          initiatorId
          responderRole
          responderId
          dialogue {
            id
            title
            agents {
              id
              name
            }
            humans {
              id
              displayName
            }
          }
          session {
            id
            turns(last: 30) {
              edges {
                node {
                  id
                  startedAt
                  status
                }
              }
            }
          }
        }
        input {
          ...MessageFields
        }
        response {
          ...MessageFields
        }
        systemActions {
          ...EventFields
        }
        llmCalls {
          id
        }
        toolCalls {
          id
        }
        memoryLinks
      }
    }
  `,
  [MessageFields, EventFields],
);
export const TURN_EVENTS = graphql(`
  subscription TurnEvents($id: ID!) {
    turnEvents(turnId: $id) {
      id
    }
  }
`);

export type TurnTraceView = ResultOf<typeof TRACE>['turnTrace'];
export type TracedTurn = TurnTraceView['turn'];

/** The turn's events by panel: model and tool calls (by id), contexts, deliveries, the rest. */
export function traceParts(tr: TurnTraceView) {
  const events: EventView[] = tr.systemActions;
  const llmIds = new Set(tr.llmCalls.map((e) => e.id));
  const toolIds = new Set(tr.toolCalls.map((e) => e.id));
  const contexts = events.filter((e) => e.kind === 'context_built');
  const deliveries = events.filter((e) => e.kind === 'delivery');
  const rest = events.filter(
    (e) => !llmIds.has(e.id) && !toolIds.has(e.id) && e.kind !== 'context_built' && e.kind !== 'delivery',
  );
  return { events, llmIds, toolIds, contexts, deliveries, rest };
}

/** The participants' names by id, for the messages and the summary. */
export function participantNames(t: TracedTurn): Record<string, string> {
  const names: Record<string, string> = {};
  for (const a of t.dialogue.agents) names[a.id] = a.name;
  for (const h of t.dialogue.humans) names[h.id] = h.displayName;
  return names;
}
