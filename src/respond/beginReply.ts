// The start of a reply, as one step under the dialogue's state guard: the turn is marked as
// being answered and the session with its working window is read at the same instant. Ingest
// places messages under the same guard, so each message either is in this read (it joined the
// turn, or came before) or comes after the mark (it opens the next turn): the prompt holds
// exactly the turn's messages and what came before it (SPEC §4.2).
import type { Turn } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { guardKeys } from '../store/stateGuard.js';
import type { ReplyRecord } from '../context/gatherContext.js';

export type BegunReply = { kind: 'begun'; turn: Turn; record: ReplyRecord } | { kind: 'skipped'; reason: string };

export function beginReply(
  store: Store,
  turn: Pick<Turn, '_id' | 'dialogueId' | 'sessionId'>,
  at: Date,
): Promise<BegunReply> {
  return store.guard.run(guardKeys.dialogue(turn.dialogueId), async () => {
    const [marked, session, window] = await Promise.all([
      store.turns.markReplyStarted(turn, at),
      store.sessions.get(turn.sessionId),
      store.windows.get(turn.sessionId),
    ]);
    if (!marked) return { kind: 'skipped', reason: 'turn not found' };
    if (marked.status !== 'pending') return { kind: 'skipped', reason: `turn is ${marked.status}` };
    if (!session) return { kind: 'skipped', reason: `session ${turn.sessionId} not found` };
    const w = window ?? (await store.history.window(session));
    await store.windows.trim(w, at);
    return { kind: 'begun', turn: marked, record: { session, window: w } };
  });
}
