// Respond (SPEC §4.2): answer one pending turn, and close it. Idempotent: a turn that is no longer
// pending is left alone; a reply message left by a crashed attempt is reused, not duplicated, and
// its platform messages are edited rather than sent again. What comes first (an earlier reply cut
// short, a room's ask) is settled here; the AI message itself is produced by produceAiMessage.ts.
import type { Store } from '../store/store.js';
import type { DeliveryState, Dialogue, Message, Turn } from '../domain/model.js';
import { newAiMessage, replyIdOf } from '../domain/aiMessage.js';
import { openAiMessage } from '../store/aiMessages.js';
import {
  contextPartiesOf,
  readContextInputs,
  type ContextParties,
  type ContextInputs,
} from '../context/contextReads.js';
import { readsFirst } from './readsFirst.js';
import { beginReply } from './beginReply.js';
import type { ReplyHints } from '../domain/replyJob.js';
import { guardKeys } from '../store/stateGuard.js';
import { mustAnswerFirst } from '../domain/turnRules.js';
import type { NextAsk } from '../rooms/roomFlow.js';
import type { AfterReply } from './afterReply.js';
import type { RespondDeps } from './respondDeps.js';
import { produceAiMessage } from './produceAiMessage.js';

export type RespondResult =
  | { kind: 'skipped'; reason: string }
  /** `nextAsk`: a room's next ask, queued by the caller once it released the dialogue's lease. */
  | { kind: 'replied'; messageId: string; state: DeliveryState; nextAsk?: NextAsk };

/**
 * Call through `generate` (src/respond/generate.ts), which holds the dialogue's reply lease.
 * `dialogueId`: the job's, read together with the turn (the turn's own is checked against it);
 * `hints`: what ingest knew of the turn, read beside it.
 */
export async function respondToTurn(
  deps: RespondDeps,
  turnId: string,
  dialogueId: string,
  hints?: ReplyHints,
): Promise<RespondResult> {
  const { store } = deps;
  let startedAt = new Date();
  const beside = startBeside(deps, hints);
  const { onRead, markAfter } = beside;
  const sessionHint = hints ? { sessionId: hints.sessionId } : {};
  let begun = await beginReply(store, { turnId, dialogueId, at: startedAt, ...sessionHint, onRead, markAfter });
  if (begun.kind === 'first') {
    const skipped = await comesFirst(deps, begun.turn, begun.dialogue);
    if (skipped) return skipped;
    startedAt = new Date();
    const again = { turnId, dialogueId: begun.dialogue._id, at: startedAt, ready: true, onRead, markAfter };
    begun = await beginReply(store, again);
  }
  if (begun.kind === 'skipped') return begun;
  const side = beside.started();
  if (begun.kind !== 'begun' || !side) throw new Error(`reply to ${turnId} neither began nor was skipped`);
  const { turn, dialogue } = begun;
  const { reply, stored } = await replyMessage(side, begun.marked);
  const inputs = await side.inputs;
  deps.metrics?.replyStage('queue', startedAt.getTime() - turn.startedAt.getTime());
  const { state, ...after } = await produceAiMessage(deps, {
    turn,
    dialogue,
    reply,
    record: begun.record,
    inputs,
    stored,
  });
  const nextAsk = await closeTurn(deps, turn, state, { ...after, dialogueMessages: dialogue.messageCount + 1 });
  return { kind: 'replied', messageId: reply._id, state, ...(nextAsk ? { nextAsk } : {}) };
}

/** What a reply starts beside its guarded start (beginReply): the context's first reads, its message. */
interface Beside {
  turn: Turn;
  inputs: Promise<ContextInputs>;
  readsDone: Promise<void>;
  reply: Promise<Message>;
  readAt: Date;
}

/**
 * The context's first reads go out at once when the job names the turn's parties (else as soon
 * as the turn is read), and the reply message as soon as the turn is read: beside the guarded start.
 */
function startBeside(deps: RespondDeps, hints: ReplyHints | undefined) {
  const early = hints?.agentId ? startInputs(deps, { agentId: hints.agentId, humanId: hints.humanId }) : undefined;
  let side: Beside | undefined;
  const onRead = (turn: Turn) => {
    const parties = contextPartiesOf(turn);
    const same = early && hints?.agentId === parties.agentId && hints.humanId === parties.humanId;
    const inputs = same ? early : startInputs(deps, parties);
    // The reply's two first writes (its message here, its mark in beginReply) wait for one bound.
    const readsDone = readsFirst(inputs);
    // Dated when its prompt's messages are read (under the dialogue's guard, as ingest dates
    // messages): it sorts after all of them and before any placed after the read.
    const readAt = new Date();
    const reply = readsDone.then(() => openAiMessage(deps.store, turn, replyIdOf(turn._id), readAt));
    side = { turn, inputs, readsDone, reply: handled(reply), readAt };
  };
  const markAfter = () => side?.readsDone ?? Promise.resolve();
  return { onRead, markAfter, started: (): Beside | undefined => side };
}

/**
 * Closes the answered turn and starts what follows it (post-turn work, which never fails the
 * reply that has already been delivered); returns a room's next ask.
 */
async function closeTurn(
  deps: RespondDeps,
  turn: Turn,
  state: DeliveryState,
  after: AfterReply,
): Promise<NextAsk | undefined> {
  const at = new Date();
  if (!(await closeAnswered(deps.store, turn, at, state))) return undefined;
  return deps.onReplied?.(turn, at, after).catch((err: unknown) => {
    deps.log.error({ err, turnId: turn._id, dialogueId: turn.dialogueId }, 'post-turn work failed');
    return undefined;
  });
}

/** Reads a context's inputs; awaited later, so a failure meanwhile is not left unhandled. */
function startInputs(deps: RespondDeps, parties: ContextParties): Promise<ContextInputs> {
  return handled(
    readContextInputs(deps.store, parties, {
      ...(deps.recall ? { recall: deps.recall } : {}),
      ...(deps.knowledge ? { knowledge: deps.knowledge } : {}),
    }),
  );
}

function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * The message the reply streams into, and what must be stored before any of it is shown. A
 * first attempt's message is new, so the reply goes on without waiting for its insert; a retried
 * one reuses what the earlier attempt stored (and showed).
 */
async function replyMessage(
  side: { turn: Turn; reply: Promise<Message>; readAt: Date },
  marked: Promise<void>,
): Promise<{ reply: Message; stored: Promise<unknown> }> {
  if (side.turn.replyStartedAt) return { reply: await side.reply, stored: marked };
  const inserted = side.reply.then((m) => {
    // Nothing is shown before a reply's start is stored, so an unmarked turn's reply showed nothing.
    if (m.delivery?.platformMessageIds.length)
      throw new Error(`reply ${m._id} was shown before its turn was marked; retried`);
  });
  return {
    reply: newAiMessage(side.turn, replyIdOf(side.turn._id), side.readAt),
    stored: handled(Promise.all([marked, inserted])),
  };
}

/** What must happen before this turn's reply: an earlier reply finished, a room's ask still open. */
async function comesFirst(deps: RespondDeps, turn: Turn, dialogue: Dialogue): Promise<RespondResult | undefined> {
  if (turn.after) await answerEarlierFirst(deps, turn.after, dialogue._id);
  return turn.round ? roomAskSkipped(deps, turn) : undefined;
}

/**
 * The turn this one came after, if its reply died with its worker (we hold the lease, so nobody
 * else is answering it): finished now, reusing its reply message and platform messages, before
 * this turn's reply starts. Its own retried job later finds it answered.
 */
async function answerEarlierFirst(deps: RespondDeps, earlierId: string, dialogueId: string): Promise<void> {
  const earlier = await deps.store.turns.get(earlierId);
  if (!earlier || !mustAnswerFirst(earlier)) return;
  deps.log.warn({ dialogueId, turnId: earlierId }, 'an earlier reply was interrupted; finishing it first');
  await respondToTurn(deps, earlierId, dialogueId);
}

/**
 * A room's ask that this reply does not answer: superseded by a newer round before the agent
 * spoke (closed unanswered), or asked of an external agent, who answers through its seat.
 */
async function roomAskSkipped(deps: RespondDeps, turn: Turn): Promise<RespondResult | undefined> {
  const [open, agent] = await Promise.all([
    askStillOpen(deps.store, turn),
    deps.store.participants.getAgent(turn.responderId),
  ]);
  if (!open) {
    await deps.store.turns.expire({ ...turn, deadlineAt: new Date() });
    return { kind: 'skipped', reason: 'round superseded' };
  }
  if (!agent?.external) return undefined;
  await deps.notifyExternal?.(agent, turn);
  return { kind: 'skipped', reason: 'asked an external agent' };
}

/** Whether a room's ask is still the one its round waits for. */
async function askStillOpen(store: Store, turn: Turn): Promise<boolean> {
  const round = turn.round ? await store.rooms.getRound(turn.round.roundId) : null;
  return round !== null && !round.completed && round.asks.at(-1)?.turnId === turn._id;
}

/** pending → responded, with the reply counted on the dialogue and session (one guarded step). */
function closeAnswered(store: Store, turn: Turn, at: Date, outcome: DeliveryState): Promise<boolean> {
  return store.guard.run(guardKeys.dialogue(turn.dialogueId), async () => {
    if (!(await store.turns.closeResponded(turn, at, { outcome }))) return false;
    await Promise.all([
      store.dialogues.countMessage(turn.dialogueId, at),
      store.sessions.touch({ _id: turn.sessionId, dialogueId: turn.dialogueId }, at, { messages: 1, turns: 0 }),
    ]);
    return true;
  });
}
