// What follows a reply that closed its turn: BR-002's archive trigger, the proactive check-in's
// timer and the post-turn memory jobs. Runs under the dialogue's lease (the respond worker
// still holds it), so nothing else writes the dialogue meanwhile.
import type { Logger } from 'pino';
import type { Turn } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { MAX_LIVE_MESSAGES } from '../domain/archiveRules.js';
import { scheduleAfterReply, type MemoryScheduler } from '../lifecycle/memoryWork.js';
import type { Scheduler } from '../lifecycle/scheduler.js';
import type { TurnFacts } from '../memory/extraction.js';
import { askAnswered, askSkipped, type NextAsk, type RoomFlowDeps } from '../rooms/roomFlow.js';

/** What the reply learnt that the post-turn work needs, so it reads nothing again. */
export interface AfterReply {
  /** The session's raw history now passes the rolling-summary threshold (the fold job is due). */
  foldDue: boolean;
  /** The dialogue's messages as read when the reply started, this reply included. */
  dialogueMessages: number;
  /** `thresholds.persona_evolve_every_turns` of the config the reply used. */
  evolveEveryTurns: number;
  /** The turn's facts for its memory extraction (none: the extraction reads them). */
  facts?: TurnFacts;
  /** A room's ask: how it ended, for its round. */
  roomAnswer?: RoomAnswer;
}

/** `tokens`: what the ask spent, its prompt and its answer (the agents' own rounds are bounded by it). */
export type RoomAnswer = { tokens: number } & (
  | { kind: 'answered'; messageId: string; mentions: string[] }
  /** `timeout`: the room's answer deadline stopped it (else the agent chose to skip). */
  | { kind: 'skipped'; reason?: 'timeout' }
  /** The reply failed (model error, timeout, empty): the round moves on without it. */
  | { kind: 'failed' }
);

export interface AfterReplyDeps {
  store: Store;
  /** Rooms: the round moves on after each ask (src/rooms/roomFlow.ts). */
  rooms: RoomFlowDeps;
  scheduler: Pick<Scheduler, 'checkInAt'>;
  memory: MemoryScheduler;
  /** PROACTIVE_CHECKIN_AFTER_MS; 0 turns the check-in off. */
  checkInAfterMs: number;
  log: Logger;
}

/** Returns a room's next ask, to be queued once the reply's lease is released. */
export async function afterReply(
  deps: AfterReplyDeps,
  turn: Turn,
  at: Date,
  after: AfterReply,
): Promise<NextAsk | undefined> {
  const next = turn.round && after.roomAnswer ? await nextInRound(deps.rooms, turn, after.roomAnswer, at) : undefined;
  if (after.dialogueMessages > MAX_LIVE_MESSAGES) {
    const r = await deps.store.archive.overflow(turn.dialogueId, at);
    deps.log.info({ dialogueId: turn.dialogueId, ...r }, 'archived old sessions (BR-002)');
  }
  if (deps.checkInAfterMs > 0)
    await deps.scheduler.checkInAt(turn.dialogueId, at, new Date(at.getTime() + deps.checkInAfterMs));
  await scheduleAfterReply({ store: deps.store, scheduler: deps.memory }, turn, at, after);
  return next;
}

function nextInRound(deps: RoomFlowDeps, turn: Turn, answer: RoomAnswer, at: Date): Promise<NextAsk | undefined> {
  if (answer.kind === 'answered') return askAnswered(deps, turn, answer, at);
  const reason = answer.kind === 'failed' ? 'failed' : (answer.reason ?? 'chose');
  return askSkipped(deps, turn, reason, at, answer.tokens);
}
