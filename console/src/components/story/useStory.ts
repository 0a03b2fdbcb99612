// A dialogue's story for its panel: the story and director state, the backgrounds to switch to
// (operators), the latest director event (storyEvents, live), and the operator's actions, each
// followed by a reload; `round` changes after every action so selects show the record again.
import { useState } from 'preact/hooks';
import { gql } from '../../lib/api.js';
import { graphql } from '../../lib/graphql.js';
import { useDebounced, useQuery } from '../../lib/hooks.js';
import { useSubscription } from '../../lib/live.js';
import { useCan } from '../../lib/viewerContext.js';
import { EventFields, StoryFields, type BeatStatus, type EventView } from '../../lib/types.js';

const STORY = graphql(
  `
    query Story($id: ID!) {
      dialogue(id: $id) {
        id
        director
        story {
          ...StoryFields
        }
      }
      config {
        thresholds {
          rag_fallback_threshold
        }
      }
    }
  `,
  [StoryFields],
);
const BACKGROUNDS = graphql(`
  query Backgrounds {
    backgrounds {
      id
      name
    }
  }
`);
const SWITCH = graphql(`
  mutation SwitchBackground($id: ID!, $backgroundId: ID) {
    switchBackground(dialogueId: $id, backgroundId: $backgroundId) {
      noUpdateCount
    }
  }
`);
const SET_BEAT = graphql(`
  mutation SetBeat($id: ID!, $n: Int!, $status: BeatStatus!) {
    setBeatStatus(dialogueId: $id, n: $n, status: $status) {
      noUpdateCount
    }
  }
`);
const DIRECTOR = graphql(`
  mutation SetDirector($id: ID!, $on: Boolean!) {
    setDirector(dialogueId: $id, on: $on)
  }
`);
const EVENTS = graphql(
  `
    subscription StoryEvents($id: ID!) {
      storyEvents(dialogueId: $id) {
        ...EventFields
      }
    }
  `,
  [EventFields],
);

export function useStory(dialogueId: string) {
  const canAct = useCan('operator');
  const q = useQuery(STORY, { id: dialogueId });
  const bgs = useQuery(BACKGROUNDS, {}, { skip: !canAct });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Bumped after every action so selects show the record again, also after a refusal.
  const [round, setRound] = useState(0);
  const [last, setLast] = useState<EventView | null>(null);
  const refresh = useDebounced(() => void q.reload(), 300);
  const live = useSubscription(EVENTS, { id: dialogueId }, ({ storyEvents: e }) => {
    setLast(e);
    refresh();
  });
  const act = async (what: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await what();
    } catch (err) {
      setError(err);
    } finally {
      await q.reload();
      setBusy(false);
      setRound((r) => r + 1);
    }
  };
  const actions = {
    setDirector: (on: boolean) => act(() => gql(DIRECTOR, { id: dialogueId, on })),
    switchBackground: (backgroundId: string | null) => act(() => gql(SWITCH, { id: dialogueId, backgroundId })),
    setBeat: (n: number, status: BeatStatus) => act(() => gql(SET_BEAT, { id: dialogueId, n, status })),
  };
  return { q, bgs, error: error ?? bgs.error, busy, round, last, live, actions };
}

export type StoryActions = ReturnType<typeof useStory>['actions'];
