// The start of a reply, as one step under the dialogue's state guard: the turn is read and
// checked, marked as being answered, and the session with its working window is read at the
// same instant. Ingest places messages under the same guard, so each message either is in this
// read (it joined the turn, or came before) or comes after the mark (it opens the next turn):
// the prompt holds exactly the turn's messages and what came before it (SPEC §4.2).
import type { Dialogue, Turn } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { guardKeys, outsideGuards } from '../store/stateGuard.js';
import type { ReplyRecord } from '../context/gatherContext.js';

export type BegunReply =
  | { kind: 'begun'; turn: Turn; dialogue: Dialogue; record: ReplyRecord }
  | { kind: 'skipped'; reason: string }
  /** Something must happen before this reply may start (an earlier reply, a room's ask): see `ready`. */
  | { kind: 'first'; turn: Turn; dialogue: Dialogue };

export interface BeginOptions {
  /** The turn and its dialogue as the job names them (the turn's own dialogue is checked against it). */
  turnId: string;
  dialogueId: string;
  at: Date;
  /** What `first` asked for is done: start even if the turn came after another or is a room's ask. */
  ready?: boolean;
  /** Started as soon as the turn is read, outside the guard (the reply message, the context's reads). */
  onRead?: (turn: Turn) => void;
}

/** Why a turn is not answered by this reply, if it is not. */
function notAnswerable(turn: Turn | null): string | undefined {
  if (!turn) return 'turn not found';
  if (turn.status !== 'pending') return `turn is ${turn.status}`;
  if (turn.responderRole !== 'ai') return 'the AI is not the responder of this turn';
  return undefined;
}

/** Reads the turn, and starts it when nothing has to come first: two round trips under the guard. */
export function beginReply(store: Store, o: BeginOptions): Promise<BegunReply> {
  return store.guard.run(guardKeys.dialogue(o.dialogueId), async () => {
    const [turn, known] = await Promise.all([store.turns.get(o.turnId), store.dialogues.get(o.dialogueId)]);
    const reason = notAnswerable(turn);
    if (reason || !turn) return { kind: 'skipped', reason: reason ?? 'turn not found' };
    // A job naming another dialogue than its turn's holds the wrong guard: the turn's is taken instead.
    if (known?._id !== turn.dialogueId) {
      const own = await store.dialogues.get(turn.dialogueId);
      if (!own) return { kind: 'skipped', reason: 'dialogue not found' };
      return beginReply(store, { ...o, dialogueId: own._id });
    }
    if (!o.ready && (turn.after || turn.round)) return { kind: 'first', turn, dialogue: known };
    if (o.onRead) outsideGuards(() => o.onRead?.(turn));
    return start(store, turn, known, o.at);
  });
}

/** Marks the turn (read under the guard just now) and reads its session and window. */
async function start(store: Store, turn: Turn, dialogue: Dialogue, at: Date): Promise<BegunReply> {
  const [marked, session, window] = await Promise.all([
    store.turns.markReplyStarted(turn, at),
    store.sessions.get(turn.sessionId),
    store.windows.get(turn.sessionId),
  ]);
  if (!session) return { kind: 'skipped', reason: `session ${turn.sessionId} not found` };
  const w = window ?? (await store.history.window(session));
  await store.windows.trim(w, at);
  return { kind: 'begun', turn: marked, dialogue, record: { session, window: w } };
}
