// The start of a reply, as one step under the dialogue's state guard: the turn, its session and
// the session's working window are read at one instant, and the turn is marked as being answered.
// Ingest places messages under the same guard, and the guard is held until the mark is stored,
// so each message either is in this read (it joined the turn, or came before) or comes after the
// mark (it opens the next turn): the prompt holds exactly the turn's messages and what came
// before it (SPEC §4.2). The reply goes on as soon as the read is done; what it shows waits for
// the mark (`marked`). A new chat's reply in the process that placed its message takes the
// documents that ingest stored instead of reading them, when its hold is the next one
// (replyHandoff.ts).
import type { Dialogue, Session, SessionWindow, Turn } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { windowWith } from '../domain/windowRules.js';
import { heardIn } from '../domain/turnRules.js';
import { guardKeys, outsideGuards, type GuardHold } from '../store/stateGuard.js';
import type { ReplyRecord } from '../context/contextReads.js';

export type BegunReply =
  | {
      kind: 'begun';
      /** The turn as marked (its mark may still be being written: see `marked`). */
      turn: Turn;
      dialogue: Dialogue;
      record: ReplyRecord;
      /** The mark stored; nothing of the reply may be shown before (a failure fails the reply). */
      marked: Promise<void>;
    }
  | { kind: 'skipped'; reason: string }
  /** Something must happen before this reply may start (an earlier reply, a room's ask): see `ready`. */
  | { kind: 'first'; turn: Turn; dialogue: Dialogue };

export interface BeginOptions {
  /** The turn and its dialogue as the job names them (the turn's own dialogue is checked against it). */
  turnId: string;
  dialogueId: string;
  /** The turn's session as the job was told it (read beside the turn; checked against it). */
  sessionId?: string;
  at: Date;
  /** What `first` asked for is done: start even if the turn came after another or is a room's ask. */
  ready?: boolean;
  /** Started as soon as the turn is read, outside the guard (the reply message, the context's reads). */
  onRead?: (turn: Turn) => void;
  /**
   * The mark's writes wait for this (bounded by the caller): the context's reads, which the
   * model waits for, then reach the store before writes that only what is shown waits for.
   */
  markAfter?: () => Promise<void>;
}

/** Why a turn is not answered by this reply, if it is not. */
function notAnswerable(turn: Turn | null): string | undefined {
  if (!turn) return 'turn not found';
  if (turn.status !== 'pending') return `turn is ${turn.status}`;
  if (turn.responderRole !== 'ai') return 'the AI is not the responder of this turn';
  return undefined;
}

/** Reads the turn (with its session and window), and starts it when nothing has to come first. */
export function beginReply(store: Store, o: BeginOptions): Promise<BegunReply> {
  return new Promise<BegunReply>((resolve, reject) => {
    // Resolved with the read, before the guarded step ends: the step holds the guard until the
    // mark is stored, while the reply already goes on.
    store.guard
      .run(guardKeys.dialogue(o.dialogueId), (hold) => guardedBegin(store, o, hold, resolve))
      .then(resolve, reject);
  });
}

async function guardedBegin(
  store: Store,
  o: BeginOptions,
  hold: GuardHold,
  begun: (b: BegunReply) => void,
): Promise<BegunReply> {
  const left = hold.reentered ? undefined : store.handoff.take(o.dialogueId, o.turnId, hold.generation);
  const hinted = left?.session._id ?? o.sessionId;
  const [turn, known, hintedSession, hintedWindow] = left
    ? [left.turn, left.dialogue, left.session, left.window]
    : await Promise.all([
        store.turns.get(o.turnId),
        store.dialogues.get(o.dialogueId),
        hinted ? store.sessions.get(hinted) : null,
        hinted ? store.windows.get(hinted) : null,
      ]);
  const reason = notAnswerable(turn);
  if (reason || !turn) return { kind: 'skipped', reason: reason ?? 'turn not found' };
  // A job naming another dialogue than its turn's holds the wrong guard: the turn's is taken instead.
  if (known?._id !== turn.dialogueId) {
    const own = await store.dialogues.get(turn.dialogueId);
    if (!own) return { kind: 'skipped', reason: 'dialogue not found' };
    const { sessionId: _wrong, ...rest } = o;
    return beginReply(store, { ...rest, dialogueId: own._id });
  }
  if (!o.ready && (turn.after || turn.round)) return { kind: 'first', turn, dialogue: known };
  if (o.onRead) outsideGuards(() => o.onRead?.(turn));
  const hint = turn.sessionId === hinted ? { session: hintedSession, window: hintedWindow } : undefined;
  const read = await readRecord(store, turn.sessionId, hint);
  if (!read) return { kind: 'skipped', reason: `session ${turn.sessionId} not found` };
  const record = await withTurnMessages(store, read, turn);
  const writes = (o.markAfter?.() ?? Promise.resolve()).then(() =>
    Promise.all([
      store.turns.markReplyStarted(turn, o.at, heardIn(record.window, turn)),
      store.windows.trim(record.window, o.at),
    ]),
  );
  const marked = writes.then(() => undefined);
  marked.catch(() => undefined); // the reply awaits it; meanwhile a failure is not left unhandled
  const started = { ...turn, replyStartedAt: turn.replyStartedAt ?? o.at };
  const reply: BegunReply = { kind: 'begun', turn: started, dialogue: known, record, marked };
  begun(reply);
  await writes;
  return reply;
}

/**
 * The read with the turn's messages: when the window holds none of a person's turn (their
 * entries were lost with the server), they are read from the record into it, so the prompt and
 * `heard` hold the same messages — a message the reply answered is never placed again (issue 35).
 */
async function withTurnMessages(store: Store, record: ReplyRecord, turn: Turn): Promise<ReplyRecord> {
  if (turn.round || turn.initiatorRole !== 'human' || heardIn(record.window, turn)?.length) return record;
  const own = await store.messages.ofTurn(turn._id);
  return { ...record, window: own.reduce(windowWith, record.window) };
}

/** The session and its window, as read beside the turn when the job named the session. */
async function readRecord(
  store: Store,
  sessionId: string,
  hint: { session: Session | null; window: SessionWindow | null } | undefined,
): Promise<ReplyRecord | undefined> {
  const [session, window] = hint
    ? [hint.session, hint.window]
    : await Promise.all([store.sessions.get(sessionId), store.windows.get(sessionId)]);
  if (!session) return undefined;
  return { session, window: window ?? (await store.history.window(session)) };
}
