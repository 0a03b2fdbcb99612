// One dialogue's data for its page: the dialogue and its sessions, the selected session's turns
// and the messages outside them, kept live (messages update in place as replies stream, anything
// new reloads), the participants' names, and the page's action state (error, notice).
import { useMemo, useState } from 'preact/hooks';
import { errorText } from '../../lib/api.js';
import { graphql, type ResultOf } from '../../lib/graphql.js';
import { useDebounced, useQuery } from '../../lib/hooks.js';
import { useSubscription } from '../../lib/live.js';
import {
  DialogueSummaryFields,
  MessageFields,
  nodes,
  SESSION_TURNS,
  SessionSummaryFields,
  type MessageView,
} from '../../lib/types.js';

const DIALOGUE = graphql(
  `
    query Dialogue($id: ID!) {
      dialogue(id: $id) {
        ...DialogueSummaryFields
        access
        sessions(last: 50) {
          edges {
            node {
              ...SessionSummaryFields
            }
          }
        }
      }
    }
  `,
  [DialogueSummaryFields, SessionSummaryFields],
);

// Messages outside any turn: system messages of the session (an operator's post, a notice) and
// people's refused messages (not let in, blocked, over budget, flagged), so operators see who
// knocked. The API has no filter for refused messages: the session's latest human ones are read
// and the refused kept.
const LOOSE = graphql(
  `
    query SessionLoose($id: ID!, $since: DateTime!) {
      dialogue(id: $id) {
        messages(role: system, since: $since, last: 100) {
          edges {
            node {
              ...MessageFields
              sessionId
            }
          }
        }
        human: messages(role: human, since: $since, last: 100) {
          edges {
            node {
              ...MessageFields
              sessionId
            }
          }
        }
      }
    }
  `,
  [MessageFields],
);

const MESSAGE_UPDATES = graphql(
  `
    subscription Messages($id: ID!) {
      messageUpdates(dialogueId: $id) {
        change
        message {
          ...MessageFields
        }
      }
    }
  `,
  [MessageFields],
);
const TURN_UPDATES = graphql(`
  subscription Turns($id: ID!) {
    turnUpdates(dialogueId: $id) {
      id
      status
    }
  }
`);

export type DialogueView = ResultOf<typeof DIALOGUE>['dialogue'];

/** The dialogue, its sessions newest first, and the one the address selects (else the newest). */
export function useDialogue(id: string, sessionId: string | null) {
  const d = useQuery(DIALOGUE, { id });
  const sessions = nodes(d.data?.dialogue.sessions).slice().reverse(); // newest first
  const selected = sessions.find((s) => s.id === sessionId) ?? sessions[0];
  const content = useSessionContent(id, selected?.id, selected?.startedAt);
  const names = useMemo(() => {
    const n: Record<string, string> = {};
    for (const h of d.data?.dialogue.humans ?? []) n[h.id] = h.displayName;
    for (const a of d.data?.dialogue.agents ?? []) n[a.id] = a.name;
    return n;
  }, [d.data]);
  // At most 300 ms behind even while a reply streams (each chunk is an event).
  const refresh = useDebounced(
    () => {
      void d.reload();
      void content.t.reload();
      void content.l.reload();
    },
    300,
    300,
  );
  const live = useLive(id, content.shown, refresh);
  return { d, sessions, selected, names, refresh, ...content, ...live };
}

/** The selected session's turns and the messages outside any turn (a post, a notice, a refused message). */
function useSessionContent(id: string, sessionId: string | undefined, since: string | undefined) {
  const t = useQuery(SESSION_TURNS, { id, since: since ?? '' }, { skip: !sessionId });
  const session = nodes(t.data?.dialogue.sessions)[0];
  const turns = session && session.id === sessionId ? nodes(session.turns) : [];
  const l = useQuery(LOOSE, { id, since: since ?? '' }, { skip: !sessionId });
  const loose = [
    ...nodes(l.data?.dialogue.messages),
    ...nodes(l.data?.dialogue.human).filter((m) => m.rejectedCode !== null),
  ].filter((m) => m.turnId === null && m.sessionId === sessionId);
  const shown = useMemo(
    () => new Set([...turns.flatMap((x) => nodes(x.messages).map((m) => m.id)), ...loose.map((m) => m.id)]),
    [turns, loose],
  );
  return { t, session, turns, l, loose, shown };
}

/** Streamed messages by id (shown in place at once), and the two subscriptions' states. */
function useLive(id: string, shown: Set<string>, refresh: () => void) {
  const [live, setLive] = useState<Record<string, MessageView>>({});
  const messagesLive = useSubscription(MESSAGE_UPDATES, { id }, ({ messageUpdates: u }) => {
    // A streamed reply updates in place at once; anything new reloads the turn list.
    if (shown.has(u.message.id)) setLive((l) => ({ ...l, [u.message.id]: u.message }));
    if (u.change === 'CREATED' || !shown.has(u.message.id)) refresh();
  });
  const turnsLive = useSubscription(TURN_UPDATES, { id }, refresh);
  return { live, liveState: messagesLive === 'live' && turnsLive === 'live' ? 'live' : messagesLive };
}

/** An action's error and a notice after it, each cleared when the next action starts. */
export function useActionNotice() {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const act = async (what: () => Promise<void>) => {
    setError(null);
    setNotice(null);
    try {
      await what();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return { error, notice, setNotice, act };
}

export type ActionNotice = ReturnType<typeof useActionNotice>;
