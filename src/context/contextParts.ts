// The pure half of the every-turn context (SPEC §5): from plain data already read (ContextReads,
// filled by contextReads.ts) it decides the history mode, splits the turn's input from its
// history, derives the language, tone and persona card, builds the prompt and counts it against
// the budget. No I/O: every function here is unit-tested with plain objects.
import type { Agent, Dialogue, Human, Message, Session, ToneState, Turn, Visits } from '../domain/model.js';
import type { RelationshipNote } from '../domain/model.js';
import type { EffectiveConfig } from '../store/config.js';
import type { Story } from '../store/stories.js';
import type { RecallPlace } from '../domain/memoryOrigin.js';
import { recallableIn } from '../domain/memoryOrigin.js';
import { splitAtTurn, splitFromMessage } from '../domain/historyWindow.js';
import { latestCalledName } from '../domain/calledName.js';
import type { TokenCounter } from '../llm/tokens.js';
import type { RecallResult, StandingMemories } from '../memory/recall.js';
import type { RetrievalResult } from '../knowledge/retrieval.js';
import { detectTone } from '../tone/detectTone.js';
import { nextToneState, toneChanged } from '../tone/toneState.js';
import { toneGuidance } from '../tone/templates.js';
import { buildUserPersonaCard, type UserPersonaCard } from '../persona/userPersonaCard.js';
import { promptLanguage } from '../persona/communicationStyle.js';
import { buildContext, type BuiltContext, type ContextInput } from './buildContext.js';
import { roomContextOf, type RoomRead } from './roomContext.js';
import { checkPromptBudget, conversationWarning, type PromptLimits, type PromptWarning } from './promptBudget.js';
import type { CarryOver } from './carryOver.js';
import type { DirectedContext } from './directorContext.js';
import type { TooLongContext } from './gatherContext.js';

/** How much raw history the prompt shows: since the rolling summary, or the whole session. */
export type ContextMode = 'rolling' | 'load_all';

/** Everything a turn's context is built from, every read done (contextReads.ts): plain data only. */
export interface ContextReads {
  config: EffectiveConfig;
  agent: Agent;
  human: Human | null;
  /** The turn's human, when it has one. */
  humanId: string | undefined;
  mode: ContextMode;
  place: RecallPlace;
  /** A seeded session's predecessor messages (empty when unseeded). */
  seedMessages: Message[];
  /** The human's visits to this agent, when the turn has a human. */
  visits: Visits | undefined;
  /** The chat's other agents (a room's members). */
  otherAgents: Agent[];
  story: Story | null;
  /** Whether the director is on for this dialogue's story. */
  directed: boolean;
  /** The end of the previous session, when this one opened after the gap. */
  previous: CarryOver | undefined;
  /** The agent's note on this person (read only in their private chats). */
  relationship: RelationshipNote | null;
  /** The room the chat is, with its members' documents, when it is one. */
  room: RoomRead | undefined;
  recalled: RecallResult | undefined;
  knowledge: RetrievalResult | undefined;
  /** The director's outline, instruction and reminder, when the director is on. */
  directedContext: DirectedContext | undefined;
  /** The raw history the prompt shows, media prepared, oldest first. */
  history: Message[];
  /** The turn's own input, media prepared. */
  current: Message[];
  historyFrom: 'window' | 'record';
}

/** What the pure builders need of the turn besides the reads. */
export interface BuildEnv {
  turn: Turn;
  dialogue: Dialogue;
  session: Session;
  now: Date;
  timezone: string;
  /** The caller's closing line for this generation (e.g. a check-in). */
  instruction?: string;
}

/** The history mode the config asks for. */
export const contextModeOf = (config: EffectiveConfig): ContextMode =>
  config.config.preferences.conversation_load_all ? 'load_all' : 'rolling';

/** Where the raw history starts: the rolling summary's boundary, or the session's start in load_all mode. */
export const historySince = (mode: ContextMode, session: Session): Date | undefined =>
  mode === 'rolling' ? session.rollingSummary?.coversUntil : undefined;

/** Whether the director is on: the dialogue follows a story and its setting says so (seed 001). */
export const isDirected = (story: Story | null, dialogue: Dialogue): boolean =>
  story !== null && dialogue.settings?.director === true;

/**
 * The turn's input and the history before it, from the session's messages: a room's ask answers
 * everything said since its round started (other agents included); the reply itself is left out.
 */
export function splitTurn<M extends Message>(
  messages: readonly M[],
  turn: Turn,
  replyId: string,
): { history: M[]; input: M[] } {
  return turn.round
    ? splitFromMessage(messages, turn.round.fromMessageId, replyId)
    : splitAtTurn(messages, turn._id, replyId);
}

/** The input's text as recall and retrieval query it. */
export const inputTextOf = (input: readonly Message[]): string =>
  input
    .map((m) => m.content)
    .join('\n')
    .trim();

/** The chat's other agents by id, as the conversation names them (none: undefined). */
export const agentNamesOf = (otherAgents: readonly Agent[]): Record<string, string> | undefined =>
  otherAgents.length > 0 ? Object.fromEntries(otherAgents.map((a) => [a._id, a.name])) : undefined;

/** What the human said in these messages (only the turn's human in a shared chat), oldest first. */
export const humanTextsOf = (messages: readonly Message[], humanId: string | undefined): string[] =>
  messages.filter((m) => m.senderRole === 'human' && (!humanId || m.senderId === humanId)).map((m) => m.content);

/**
 * Seed 003's card, steady from turn to turn: the name the person asked for (in this chat, else in
 * a memory this chat may see), their standing preferences and concerns, visits, last topic, mood.
 */
export function personaCardOf(
  human: Human,
  o: {
    humanTexts: string[];
    standing: StandingMemories | undefined;
    visits: number;
    lastTopic?: string;
    tone: ToneState;
  },
): UserPersonaCard {
  const standing = o.standing ?? { preferences: [], concerns: [] };
  const named = latestCalledName(o.humanTexts) ?? standing.calledName;
  return buildUserPersonaCard({
    displayName: human.displayName,
    ...(named ? { nameFromMemory: named } : {}),
    recentHumanTexts: o.humanTexts.slice(-10),
    memories: [...standing.preferences, ...standing.concerns].map((m) => ({
      kind: m.kind,
      text: m.text,
      importance: m.importance,
    })),
    visits: o.visits,
    ...(o.lastTopic ? { lastTopic: o.lastTopic } : {}),
    tone: o.tone,
  });
}

/** A room's ask of an @mentioned agent: it was addressed and must answer (it is offered no skip). */
export const ADDRESSED_INSTRUCTION =
  'You were @mentioned in this room: answer now, as yourself. You cannot skip this turn.';

/** The closing line of this generation: the caller's, and for a mentioned agent that it was addressed. */
export function instructionOf(turn: Turn, given: string | undefined): { instruction: string } | undefined {
  const lines = [turn.round && !turn.round.canSkip ? ADDRESSED_INSTRUCTION : '', given ?? ''].filter(Boolean);
  return lines.length > 0 ? { instruction: lines.join('\n') } : undefined;
}

/** The budget the config sets for the prompt. */
export const promptLimitsOf = (config: EffectiveConfig): PromptLimits => ({
  maxTotalTokens: config.config.limits.max_total_tokens,
  middleSectionWarningTokens: config.config.limits.middle_section_warning_tokens,
});

/**
 * The prompt's parts from the reads: the language and tone from what the human said, the persona
 * card, and every section buildContext orders; `tone` is the human's tone after this turn.
 */
export function promptInputOf(r: ContextReads, e: BuildEnv): { input: ContextInput; tone: ToneState } {
  const { agent, human, recalled, knowledge, visits, story } = r;
  const { session } = e;
  const humanTexts = humanTextsOf([...r.history, ...r.current], r.humanId);
  const lang = promptLanguage(humanTexts.slice(-10));
  const tone = nextToneState(human?.tone, detectTone(r.current.map((m) => m.content)), e.now);
  const card = human
    ? personaCardOf(human, {
        humanTexts,
        standing: recalled?.standing,
        visits: visits?.count ?? 0,
        // The last topic is a summary of what the person said somewhere: only where that may be recalled.
        ...(visits?.lastTopic && recallableIn(visits.lastTopic, r.place) ? { lastTopic: visits.lastTopic.text } : {}),
        tone,
      })
    : undefined;
  const agentNames = agentNamesOf(r.otherAgents);
  const input: ContextInput = {
    agent,
    recalled: recalled?.memories ?? [],
    ...(knowledge && knowledge.sources.length > 0 ? { knowledge: knowledge.sources } : {}),
    ...(r.mode === 'rolling' && session.rollingSummary ? { rollingSummary: session.rollingSummary.text } : {}),
    ...(session.seed
      ? { seed: { summary: session.seed.summary, messages: r.seedMessages, order: session.seed.order } }
      : {}),
    ...(r.previous ? { carryOver: r.previous } : {}),
    ...(card ? { personaCard: card } : {}),
    ...(r.relationship ? { relationship: r.relationship.text } : {}),
    tone: toneGuidance(tone, lang),
    history: r.history,
    current: r.current,
    now: e.now,
    timezone: e.timezone,
    groupChat: e.dialogue.type === 'group',
    selfId: agent._id,
    ...(agentNames ? { agentNames } : {}),
    ...(r.room ? { room: roomContextOf(r.room.room, r.room.members, agent._id) } : {}),
    lang,
    ...(instructionOf(e.turn, e.instruction) ?? {}),
    ...(story ? { background: story.background.worldSetting } : {}),
    ...(r.directedContext ? { director: r.directedContext.director } : {}),
  };
  return { input, tone };
}

/** The prompt built and counted from the reads, with the human's tone after this turn. */
export function builtContextOf(
  r: ContextReads,
  e: BuildEnv,
  counter: TokenCounter,
): { built: BuiltContext; tone: ToneState } {
  const { input, tone } = promptInputOf(r, e);
  return { built: buildContext(input, promptLimitsOf(r.config), counter), tone };
}

/** What a reply carries of its context (all but the warnings), from the reads and the built prompt. */
export function gatheredOf(
  r: ContextReads,
  o: { built: BuiltContext; tone: ToneState; gatherMs: number },
): TooLongContext {
  const { human, humanId, knowledge, story } = r;
  return {
    built: o.built,
    config: r.config,
    agent: r.agent,
    otherAgents: r.otherAgents,
    ...(human?.displayName ? { userName: human.displayName } : {}),
    input: r.current,
    rawHistory: r.history,
    ...(r.recalled ? { recall: r.recalled } : {}),
    ...(knowledge && knowledge.searched > 0 ? { knowledge } : {}),
    ...(story ? { story: { ...story, directed: r.directed } } : {}),
    ...(r.directedContext?.fallback ? { fallback: r.directedContext.fallback } : {}),
    mode: r.mode,
    historyFrom: r.historyFrom,
    gatherMs: o.gatherMs,
    ...(humanId && r.current.length > 0
      ? { tone: { humanId, state: o.tone, changed: toneChanged(human?.tone, o.tone) } }
      : {}),
  };
}

/**
 * The budget's warnings for a built prompt (load_all mode also checks the conversation's size).
 * Throws PromptTooLongError, carrying `gathered`, when the prompt is over `max_total_tokens`.
 */
export function budgetWarnings(gathered: TooLongContext): PromptWarning[] {
  const { built, config, mode } = gathered;
  return [
    checkPromptBudget(built, promptLimitsOf(config), gathered),
    mode === 'load_all'
      ? conversationWarning(built.parts.history.tokens, config.config.limits.conversation_max_tokens)
      : undefined,
  ].filter((w): w is PromptWarning => w !== undefined);
}
