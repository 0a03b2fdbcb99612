// Why a hook: the page only lays out; this holds the room, its live events and the pause/resume action.
import { useState } from 'preact/hooks';
import { errorText, gql } from '../../lib/api.js';
import { graphql, type ResultOf } from '../../lib/graphql.js';
import { useDebounced, useQuery } from '../../lib/hooks.js';
import { useSubscription } from '../../lib/live.js';
import { RoomSummaryFields } from './roomSummary.js';

const QUERY = graphql(
  `
    query Room($id: ID!) {
      room(id: $id) {
        ...RoomSummaryFields
        description
        announcement
        dialogue {
          id
          title
        }
        rounds(last: 10) {
          id
          seq
          startedAt
          completed
          endedBy
          queue
          askTurnIds
          answers {
            agentId
            at
            messageId
          }
          skips {
            agentId
            at
            reason
          }
        }
      }
    }
  `,
  [RoomSummaryFields],
);
const EVENTS = graphql(`
  subscription RoomEvents($id: ID!) {
    roomEvents(roomId: $id) {
      type
      at
      agentId
      roundId
      message {
        content
        senderRole
      }
    }
  }
`);
const PAUSE = graphql(`
  mutation Pause($id: ID!) {
    pauseRoom(id: $id) {
      id
    }
  }
`);
const RESUME = graphql(`
  mutation Resume($id: ID!) {
    resumeRoom(id: $id) {
      id
    }
  }
`);

export type RoomView = ResultOf<typeof QUERY>['room'];
export type RoomEvent = ResultOf<typeof EVENTS>['roomEvents'];
export type RoundView = RoomView['rounds'][number];

/** The room (reloaded as its events arrive), the latest 50 events, and pause/resume with its error. */
export function useRoom(id: string) {
  const q = useQuery(QUERY, { id });
  const [events, setEvents] = useState<RoomEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useDebounced(() => void q.reload(), 400);
  const live = useSubscription(EVENTS, { id }, ({ roomEvents: e }) => {
    setEvents((list) => [e, ...list].slice(0, 50));
    refresh();
  });
  const act = async (mutation: () => Promise<unknown>) => {
    setError(null);
    try {
      await mutation();
      await q.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const pause = (roomId: string) => act(() => gql(PAUSE, { id: roomId }));
  const resume = (roomId: string) => act(() => gql(RESUME, { id: roomId }));
  return { q, events, error, live, pause, resume };
}
