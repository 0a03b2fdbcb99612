// What a reply's generation outcome means beyond its text (SPEC §4.2): the record the reply
// message keeps, the plot it moves (seed 001), the tone it carries over (seed 003), a room's
// answer for its round (seed 002), and what the post-turn work needs (fold due, facts).
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { MessageRepo } from '../store/messages.js';
import type { DeliveryState, Dialogue, Message, SourceReference, Turn } from '../domain/model.js';
import { originOf } from '../domain/memoryOrigin.js';
import { mentionedAgents } from '../domain/roomMentions.js';
import type { GatheredContext } from '../context/gatherContext.js';
import { turnsToFold } from '../domain/historyWindow.js';
import type { TokenCounter } from '../llm/tokens.js';
import { turnFactsOf } from '../memory/extraction.js';
import type { TurnTrace } from '../trace/turnTrace.js';
import { directAfterReply } from './directorStep.js';
import type { AfterReply, RoomAnswer } from './afterReply.js';

/** An AI message produced: how it ended, and what the post-turn work needs. */
export interface Produced extends Omit<AfterReply, 'dialogueMessages'> {
  state: Exclude<DeliveryState, 'streaming'>;
}

/** How a generation ended: what is stored as said, what people are shown. */
export interface Outcome {
  state: Exclude<DeliveryState, 'streaming'>;
  stored: string;
  shown: string;
  error?: { code: string; message: string };
  /** A room agent declined to speak (skip_response): stored invisible, shown nowhere. */
  skipped?: true;
  /** A room's answer deadline stopped it (seed 002): the round records a `timeout` skip. */
  deadline?: true;
  /** Tokens as the model reported them (absent: it reported none, or failed). */
  usage?: { inputTokens: number; outputTokens: number };
  /** The knowledge the reply validly cited (replySources.ts). */
  sources?: SourceReference[];
}

/** The outcome as the reply message keeps it: what was said, what people saw, what it cost. */
export function finishedReplyOf(
  outcome: Outcome,
  gathered: Pick<GatheredContext, 'built'>,
  counter: TokenCounter,
): Parameters<MessageRepo['finishReply']>[1] {
  return {
    state: outcome.state,
    content: outcome.stored,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.skipped ? { visible: false as const } : {}),
    ...(outcome.sources ? { sources: outcome.sources } : {}),
    ...(outcome.shown !== outcome.stored && !outcome.skipped ? { shown: outcome.shown } : {}),
    // Counted when the model reported nothing, so every reply says what it cost.
    usage: outcome.usage ?? {
      inputTokens: gathered.built.totalTokens,
      outputTokens: counter.count(outcome.stored),
    },
  };
}

/** What a said reply does besides being shown: it moves a directed plot, its tone carries over. */
export async function applyOutcome(
  deps: { store: Store; log: Logger },
  gathered: GatheredContext,
  o: { turn: Turn; replyId: string; outcome: Outcome; trace: TurnTrace },
): Promise<void> {
  const { turn, replyId, outcome, trace } = o;
  if (!outcome.skipped) await direct(deps.store, gathered, { turn, replyId, text: outcome.stored, trace });
  if (gathered.tone?.changed && outcome.state === 'complete') {
    // The tone carried into the next turn (seed 003); losing it only loses a nuance. An
    // unchanged tone (most turns: still neutral) is not written again.
    await deps.store.participants
      .setTone(gathered.tone.humanId, gathered.tone.state)
      .catch((err: unknown) => deps.log.warn({ err }, 'tone state not stored'));
  }
}

/** What the post-turn work needs of a finished reply, and a room's answer for its round. */
export function producedOf(
  counter: TokenCounter,
  o: { turn: Turn; dialogue: Dialogue; reply: Message; outcome: Outcome; gathered: GatheredContext },
): Produced {
  const { turn, dialogue, reply, outcome, gathered } = o;
  const facts = turnFactsOf(turn, {
    origin: originOf(dialogue),
    groupChat: dialogue.type === 'group',
    agentName: gathered.agent.name,
    userName: gathered.userName,
  });
  return {
    state: outcome.state,
    foldDue: foldDue(gathered, reply),
    evolveEveryTurns: evolveEvery(gathered),
    ...(facts ? { facts } : {}),
    ...(turn.round
      ? { roomAnswer: roomAnswerOf(outcome, dialogue, gathered, reply, counter.count(outcome.stored)) }
      : {}),
  };
}

/** How a room's ask ended, for the round (src/rooms/roomFlow.ts). */
function roomAnswerOf(
  outcome: Outcome,
  dialogue: Dialogue,
  gathered: GatheredContext,
  reply: Message,
  answerTokens: number,
): RoomAnswer {
  const tokens = gathered.built.totalTokens + answerTokens;
  if (outcome.deadline) return { kind: 'skipped', reason: 'timeout', tokens };
  if (outcome.skipped) return { kind: 'skipped', tokens };
  if (outcome.state !== 'complete') return { kind: 'failed', tokens };
  const marks = { platform: dialogue.chat.platform, text: outcome.stored, mentions: [] };
  return { kind: 'answered', tokens, messageId: reply._id, mentions: mentionedAgents(marks, gathered.otherAgents) };
}

export const evolveEvery = (g: Pick<GatheredContext, 'config'>): number =>
  g.config.config.thresholds.persona_evolve_every_turns;

/** Whether this turn took the session's raw history past the rolling-summary threshold. */
function foldDue(g: GatheredContext, reply: Message): boolean {
  if (g.mode !== 'rolling') return false;
  const { summary_threshold_turns: thresholdTurns, recent_turns: keepTurns } = g.config.config.thresholds;
  return turnsToFold([...g.rawHistory, ...g.input, reply], { thresholdTurns, keepTurns }) !== undefined;
}

/** Seed 001: what a directed dialogue's reply (said, failed or never sent) does to its plot. */
export function direct(
  store: Store,
  g: Pick<GatheredContext, 'story' | 'input' | 'config'>,
  o: { turn: Turn; replyId: string; text: string; trace: TurnTrace },
): Promise<void> {
  if (!g.story?.directed) return Promise.resolve();
  return directAfterReply(store, {
    dialogueId: o.turn.dialogueId,
    story: g.story,
    text: o.text,
    replyId: o.replyId,
    inputIds: g.input.map((m) => m._id),
    at: new Date(),
    trace: o.trace,
    fallbackThreshold: g.config.config.thresholds.rag_fallback_threshold,
  });
}
