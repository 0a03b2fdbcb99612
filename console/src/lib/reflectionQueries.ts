// The reflections page's GraphQL documents and the shapes read from them: an agent's mood and
// values, its runs, one run's detail with its introspection turns, and the run actions.
import { graphql, type FragmentOf, type ResultOf } from './graphql.js';
export const MoodFields = graphql(`
  fragment MoodFields on AgentMood {
    label
    valence
    arousal
  }
`);
export const RunFields = graphql(`
  fragment RunFields on Reflection {
    id
    status
    trigger
    triggeredBy
    queuedAt
    startedAt
    endedAt
    budget {
      calls
      usedTokens
      maxTokens
      usedMemories
      maxMemories
    }
    budgetHit {
      resource
      used
      limit
      wanted
      step
      when
    }
    failure {
      code
      message
      step
    }
    rollback {
      at
      by
      innerRestored
      removedIds
      restoredIds
    }
  }
`);
export const STATE = graphql(
  `
    query ReflectionState($agent: ID!) {
      reflectionState(agentId: $agent) {
        mood {
          ...MoodFields
        }
        values {
          name
          weight
        }
        valuesSetBy
        lastSlot
        settings {
          enabled
          cron
        }
      }
    }
  `,
  [MoodFields],
);
export const LIST = graphql(
  `
    query Reflections($agent: ID!) {
      reflections(agentId: $agent, first: 50) {
        edges {
          node {
            ...RunFields
          }
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  `,
  [RunFields],
);
export const DETAIL = graphql(
  `
    query Reflection($id: ID!) {
      reflection(id: $id) {
        ...RunFields
        goal
        report
        memoryChanges {
          memoryId
          created
          seq
        }
        turns {
          id
          seq
          step
          purpose
          tool
          status
          durationMs
          tokens
          subject {
            displayName
          }
          generatedMemoryIds
          supersededMemoryIds
          generatedMemories {
            id
            text
          }
          moodShift {
            before {
              ...MoodFields
            }
            after {
              ...MoodFields
            }
          }
          valueImpact {
            changes {
              name
              before
              after
              limited
            }
          }
          notes
          error {
            code
            message
          }
          toolInput
          toolOutput
        }
      }
    }
  `,
  [RunFields, MoodFields],
);
export const TRIGGER = graphql(`
  mutation Reflect($agent: ID!) {
    triggerReflection(agentId: $agent) {
      id
      status
    }
  }
`);
export const ROLLBACK = graphql(`
  mutation RollBack($id: ID!) {
    rollbackReflection(reflectionId: $id) {
      id
      status
    }
  }
`);
export const EVENTS = graphql(`
  subscription ReflectionEvents($agent: ID!) {
    reflectionEvents(agentId: $agent) {
      change
      reflection {
        id
        status
      }
    }
  }
`);

export type Mood = FragmentOf<typeof MoodFields>;
/** One run as the list has it. */
export type RunSummary = FragmentOf<typeof RunFields>;
export type RunDetail = ResultOf<typeof DETAIL>['reflection'];
/** One introspection turn of a run. */
export type TurnView = RunDetail['turns'][number];
/** The agent's mood, values and schedule now. */
export type ReflectionStateView = ResultOf<typeof STATE>['reflectionState'];
