// The floor of a room at its I/O edge (SPEC §8, seed 002): starts rounds, asks each agent in
// turn by opening a Turn for it (answered through the normal respond pipeline), and moves on
// after an answer, a skip or a timeout. The rules are roundRules.ts; this file reads and writes
// the room, the round and the ask turns by `_id`, under the dialogue's state guard, so one
// decision at a time is taken for a room whichever process takes it.
import type { Logger } from 'pino';
import type { Message, Turn } from '../domain/model.js';
import type { Interrupt } from '../domain/replyJob.js';
import type { Room, RoomRound } from '../domain/room.js';
import { agentMembers, answerDeadlineSeconds, hostOf, roundIdOf } from '../domain/room.js';
import type { Metrics } from '../metrics/metrics.js';
import { answered, nextAsk, skipped, startRound, superseded, type SkipReason } from '../domain/roundRules.js';
import { newTurn } from '../domain/turnRules.js';
import { derivedId, newId } from '../domain/ids.js';
import type { Store } from '../store/store.js';
import { guardKeys } from '../store/stateGuard.js';
import type { Scheduler } from '../lifecycle/scheduler.js';

export interface RoomFlowDeps {
  store: Store;
  enqueueReply(job: { turnId: string; dialogueId: string }): Promise<void>;
  scheduler: Pick<Scheduler, 'roomAnswerDueAt'>;
  responseWindowMs: number;
  log: Logger;
  /** Skips by reason (timeouts among them). */
  metrics?: Metrics;
  /** Stops an ask's reply under way in whichever process generates it (its deadline passed). */
  interrupt?(dialogueId: string, why: Interrupt): Promise<void>;
}

/** What opening an ask needs: the store, the deadline scheduler and the answer window. */
type AskDeps = Pick<RoomFlowDeps, 'store' | 'scheduler' | 'responseWindowMs'>;

/** An ask opened: its turn and the writes that store it (sent with the caller's own writes). */
export interface OpenedAsk {
  turn: Turn;
  round: RoomRound;
  writes: Array<() => Promise<unknown>>;
}

/**
 * A message that addresses the room starts a round (an unfinished one is superseded, kept in
 * history). Returns the first ask, whose turn the message belongs to; undefined when nobody is
 * asked (host mode without a mention). The caller holds the dialogue's guard, stores the
 * writes with the message, then queues the ask's reply.
 */
export async function startRoomRound(
  deps: AskDeps,
  o: {
    room: Room;
    sessionId: string;
    trigger: { messageId: string; senderId: string; senderRole?: 'human' | 'ai' };
    mentions: readonly string[];
    now: Date;
    /** The agents' own round after a human's message (default 1: the human's). */
    chainRound?: number;
    /** Tokens the chain's earlier rounds spent. */
    chainTokens?: number;
    /** The room's current round when the caller has it already. */
    previous?: RoomRound | null;
  },
): Promise<OpenedAsk | undefined> {
  const { store } = deps;
  const { room, now } = o;
  const previous = o.previous !== undefined ? o.previous : await store.rooms.current(room);
  const seq = room.roundSeq + 1;
  const host = hostOf(room);
  // Host mode: a human who names nobody speaks to the host, who then calls on the others.
  const mentions =
    room.mode === 'host' && o.mentions.length === 0 && host?.kind === 'agent' && host.id !== o.trigger.senderId
      ? [host.id]
      : o.mentions;
  const round = startRound({
    id: roundIdOf(room._id, seq),
    mode: room.mode,
    members: agentMembers(room),
    mentions,
    at: now,
  });
  if (!round) return undefined;
  const stored: RoomRound = {
    ...round,
    _id: round.id,
    roomId: room._id,
    dialogueId: room.dialogueId,
    seq,
    triggerMessageId: o.trigger.messageId,
    triggerSenderId: o.trigger.senderId,
    triggerSenderRole: o.trigger.senderRole ?? 'human',
    chainRound: o.chainRound ?? 1,
    ...(o.chainTokens ? { chainTokens: o.chainTokens } : {}),
    asks: [],
    updatedAt: now,
  };
  const opened = await openAsk(deps, stored, o.sessionId, now);
  if (!opened) return undefined;
  const writes = [
    ...opened.writes,
    () =>
      floorEvent(store, opened.turn, now, { decision: 'round_started', roundId: stored._id, seq, queue: stored.queue }),
    () => store.rooms.put({ ...room, roundSeq: seq, updatedAt: now }),
    ...(previous && !previous.completed
      ? [() => store.rooms.putRound({ ...previous, ...superseded(previous, now), updatedAt: now })]
      : []),
  ];
  return { ...opened, writes };
}

/** The turn asking the round's next agent, and the writes that store it with its deadline. */
async function openAsk(deps: AskDeps, round: RoomRound, sessionId: string, now: Date): Promise<OpenedAsk | undefined> {
  const ask = nextAsk(round);
  if (!ask) return undefined;
  const [config, room] = await Promise.all([deps.store.config.get(), deps.store.rooms.get(round.roomId)]);
  const turn: Turn = {
    ...newTurn({
      id: newId('trn', now),
      dialogueId: round.dialogueId,
      sessionId,
      initiator: { role: round.triggerSenderRole ?? 'human', id: round.triggerSenderId },
      responder: { role: 'ai', id: ask.agentId },
      startedAt: now,
      responseWindowMs: deps.responseWindowMs,
    }),
    round: { roundId: round._id, fromMessageId: round.triggerMessageId, canSkip: ask.canSkip },
  };
  const next: RoomRound = { ...round, asks: [...round.asks, { agentId: ask.agentId, turnId: turn._id, at: now }] };
  const seconds = answerDeadlineSeconds(room, config.config.thresholds.room_answer_timeout_seconds);
  const dueAt = new Date(now.getTime() + seconds * 1000);
  const why = round.mustAnswer.includes(ask.agentId) ? 'mentioned' : round.mode === 'host' ? 'host' : 'round_robin';
  return {
    turn,
    round: next,
    writes: [
      () => deps.store.turns.insert(turn),
      () => deps.store.rooms.putRound({ ...next, updatedAt: now }),
      () => deps.scheduler.roomAnswerDueAt(turn._id, dueAt),
      () =>
        floorEvent(deps.store, turn, now, {
          decision: 'asked',
          roundId: round._id,
          seq: round.seq,
          agentId: ask.agentId,
          why,
          canSkip: ask.canSkip,
          position: round.index,
          queue: round.queue,
          dueAt: dueAt.toISOString(),
        }),
    ],
  };
}

/** A floor decision in the ask turn's trace (event `floor`). */
function floorEvent(store: Store, turn: Turn, at: Date, data: Record<string, unknown>): Promise<string> {
  return store.events.record({
    kind: 'floor',
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    at,
    data,
  });
}

/** The next ask, stored and waiting to be queued (after the caller released the reply lease). */
export interface NextAsk {
  turnId: string;
  dialogueId: string;
}

/**
 * The agent asked by `turn` answered with message `messageId`; agents it @mentions are asked
 * next. Returns the next ask for the caller to queue once it released the dialogue's lease.
 */
export function askAnswered(
  deps: RoomFlowDeps,
  turn: Turn,
  reply: { messageId: string; mentions: readonly string[]; tokens?: number },
  at: Date,
): Promise<NextAsk | undefined> {
  return advance(
    deps,
    turn,
    at,
    (round) => answered(round, { agentId: turn.responderId, messageId: reply.messageId, mentions: reply.mentions, at }),
    undefined,
    reply.tokens,
  );
}

/** The agent asked by `turn` skipped (by choice, or its reply failed); returns the next ask as askAnswered. */
export function askSkipped(
  deps: RoomFlowDeps,
  turn: Turn,
  reason: SkipReason,
  at: Date,
  tokens?: number,
): Promise<NextAsk | undefined> {
  return advance(
    deps,
    turn,
    at,
    (round) => skipped(round, { agentId: turn.responderId, reason, at }),
    undefined,
    tokens,
  );
}

/**
 * The ask's deadline passed (a delayed job). An agent that has not started answering is skipped
 * for it, with an invisible timeout message. One already answering is stopped (`stopping`): its
 * reply ends as that skip, keeping what people already saw (src/respond/generateText.ts).
 * `force`: the check after a stop that no process answered (the one generating died): skipped here.
 */
export async function askDue(
  deps: RoomFlowDeps,
  turnId: string,
  now: Date,
  o: { force?: boolean } = {},
): Promise<'skipped' | 'not_due' | 'stopping'> {
  const turn = await deps.store.turns.get(turnId);
  if (!turn?.round || turn.status !== 'pending') return 'not_due';
  if (turn.replyStartedAt && !o.force && deps.interrupt) {
    await deps.interrupt(turn.dialogueId, { reason: 'deadline', turnId });
    return 'stopping';
  }
  let done: 'skipped' | 'not_due' = 'not_due';
  const next = await advance(
    deps,
    turn,
    now,
    (round) => {
      const step = skipped(round, { agentId: turn.responderId, reason: 'timeout', at: now });
      if (step.ok) done = 'skipped';
      return step;
    },
    async (t) => {
      // The skip is recorded (invisible), and the ask's turn closes unanswered.
      await Promise.all([
        deps.store.messages.insertOnce(skipMessage(t, 'timeout', now)),
        deps.store.turns.expire({ ...t, deadlineAt: now }),
      ]);
    },
  );
  if (next) await deps.enqueueReply(next);
  return done;
}

/**
 * A round just ended in a room where people only watch: the agents hold another round among
 * themselves, started by the last answer, up to `room_auto_rounds` per human message. A round
 * in which everyone skipped ends the conversation. Returns the next round's first ask; the
 * ended round is stored with its writes.
 */
async function agentsGoOn(deps: AskDeps, ended: RoomRound, turn: Turn, now: Date): Promise<OpenedAsk | undefined> {
  if (!ended.completed || ended.endedBy === 'superseded') return undefined;
  const [room, config] = await Promise.all([deps.store.rooms.get(ended.roomId), deps.store.config.get()]);
  const last = ended.answers.at(-1);
  if (!room || room.status !== 'active' || room.userParticipation || !last) return undefined;
  const spent = (ended.chainTokens ?? 0) + (ended.tokens ?? 0);
  const stop = chainStop(ended.chainRound ?? 1, spent, config.config);
  if (stop) {
    await floorEvent(deps.store, turn, now, {
      decision: 'chain_stopped',
      roundId: ended._id,
      why: stop,
      tokens: spent,
    });
    return undefined;
  }
  const opened = await startRoomRound(deps, {
    room,
    sessionId: turn.sessionId,
    trigger: { messageId: last.messageId, senderId: last.agentId, senderRole: 'ai' },
    mentions: [],
    now,
    chainRound: (ended.chainRound ?? 1) + 1,
    chainTokens: spent,
    previous: ended,
  });
  return opened && { ...opened, writes: [() => deps.store.rooms.putRound(ended), ...opened.writes] };
}

/** Why the agents' own rounds stop here: the round or token budget per human message is used up. */
function chainStop(
  rounds: number,
  tokens: number,
  c: { thresholds: { room_auto_rounds: number }; limits: { room_auto_tokens: number } },
): 'rounds' | 'tokens' | undefined {
  if (rounds >= c.thresholds.room_auto_rounds) return 'rounds';
  return tokens >= c.limits.room_auto_tokens ? 'tokens' : undefined;
}

/** What the invisible message of an ask skipped at its deadline says. */
export const ROOM_TIMEOUT_TEXT = '[skipped: no answer in time]';

/** The invisible message that records a skip (seed 002: "不可见的跳过消息"). */
export function skipMessage(turn: Turn, reason: SkipReason, at: Date): Message {
  return {
    _id: derivedId('msg', 'skip', turn._id),
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    senderRole: 'ai',
    senderId: turn.responderId,
    contentType: 'text',
    content: reason === 'timeout' ? ROOM_TIMEOUT_TEXT : '[skipped]',
    mentions: [],
    visible: false,
    createdAt: at,
    updatedAt: at,
  };
}

type Step = ReturnType<typeof answered>;

/** One decision on the ask's round under the dialogue's guard; the next ask is queued after it. */
async function advance(
  deps: RoomFlowDeps,
  turn: Turn,
  at: Date,
  decide: (round: RoomRound) => Step,
  alsoWrite?: (turn: Turn) => Promise<void>,
  tokens = 0,
): Promise<NextAsk | undefined> {
  const roundId = turn.round?.roundId;
  if (!roundId) return undefined;
  const opened = await deps.store.guard.run(guardKeys.dialogue(turn.dialogueId), async () => {
    const round = await deps.store.rooms.getRound(roundId);
    if (!round) return undefined;
    const step = decide(round);
    if (!step.ok) {
      // A superseded round, or an answer that came after its timeout: recorded, nothing moves.
      deps.log.info({ roundId, turnId: turn._id, code: step.code }, 'room: step refused');
      await floorEvent(deps.store, turn, at, { decision: 'refused', roundId, code: step.code });
      return undefined;
    }
    await alsoWrite?.(turn);
    const next: RoomRound = { ...round, ...step.round, tokens: (round.tokens ?? 0) + tokens, updatedAt: at };
    const skip = next.skips.length > round.skips.length ? next.skips.at(-1) : undefined;
    if (skip) deps.metrics?.roomSkip(skip.reason);
    await floorEvent(deps.store, turn, at, {
      decision: skip ? 'skipped' : 'answered',
      roundId,
      agentId: turn.responderId,
      ...(skip ? { reason: skip.reason } : {}),
    });
    if (next.completed)
      await floorEvent(deps.store, turn, at, { decision: 'round_ended', roundId, endedBy: next.endedBy });
    const ask = (await openAsk(deps, next, turn.sessionId, at)) ?? (await agentsGoOn(deps, next, turn, at));
    if (!ask) {
      await deps.store.rooms.putRound(next);
      return undefined;
    }
    await Promise.all(ask.writes.map((w) => w()));
    return ask.turn;
  });
  return opened ? { turnId: opened._id, dialogueId: opened.dialogueId } : undefined;
}
