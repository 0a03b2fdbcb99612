// The I/O half of the every-turn context (SPEC §5): fetch every part in parallel — config,
// agent, session (rolling summary / seed), the turn's input, raw history, active recall and
// knowledge retrieval (side by side), the human's tone and persona-card inputs — then hand plain
// data to the pure builder and budget.
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Story } from '../store/stories.js';
import type { Room } from '../domain/room.js';
import { directorContext, type DirectedContext } from './directorContext.js';
import type { EffectiveConfig } from '../store/config.js';
import type {
  Agent,
  Dialogue,
  Human,
  Message,
  Platform,
  Session,
  SessionWindow,
  ToneState,
  Turn,
} from '../domain/model.js';
import { buildContext, type BuiltContext, type RoomContext } from './buildContext.js';
import { checkPromptBudget, conversationWarning, PromptTooLongError, type PromptWarning } from './promptBudget.js';
import { splitAtTurn, splitFromMessage } from './historyWindow.js';
import type { TokenCounter } from './tokens.js';
import { detectTone } from '../tone/detectTone.js';
import { nextToneState, toneChanged } from '../tone/toneState.js';
import { toneGuidance } from '../tone/templates.js';
import { buildUserPersonaCard } from '../persona/userPersonaCard.js';
import { promptLanguage } from '../persona/communicationStyle.js';
import type { MemoryRecall, RecallResult, StandingMemories } from '../memory/recall.js';
import { latestCalledName } from '../domain/calledName.js';
import type { KnowledgeRetrieval, RetrievalResult } from '../knowledge/retrieval.js';
import { requireTurnAgent, turnHumanId } from '../domain/turnRules.js';
import { placeOf, recallableIn } from '../domain/memoryOrigin.js';
import { windowMessages } from '../domain/windowRules.js';
import { CONFIG_FIELDS } from '../domain/config.js';
import { lastTurns, type CarryOver } from './carryOver.js';

/** What was built when the prompt was over the limit: the trace records it (seed 001). */
export type TooLongContext = Omit<GatheredContext, 'warnings'>;

/** The turn's prompt is over `limits.max_total_tokens` (thrown only by gatherContext, with its context). */
export const isPromptTooLong = (err: unknown): err is PromptTooLongError<TooLongContext> =>
  err instanceof PromptTooLongError;

export interface ContextDeps {
  store: Store;
  counter: TokenCounter;
  timezone: string;
  log: Logger;
  /** Active recall; absent → no memories section. */
  recall?: MemoryRecall;
  /** Passages of the agent's documents (src/knowledge); absent → no knowledge part. */
  knowledge?: KnowledgeRetrieval;
  /** Passages retrieved per turn (KNOWLEDGE_TOP_K). */
  knowledgeTopK?: number;
  /** Turns pending attachments into text (src/media); absent → used as stored. */
  prepareMedia?(platform: Platform, messages: Message[]): Promise<Message[]>;
}

export interface GatheredContext {
  built: BuiltContext;
  /** Budget warnings (recorded once per dialogue and category); the prompt is sent whole. */
  warnings: PromptWarning[];
  config: EffectiveConfig;
  agent: Agent;
  /** The chat's other agents (a room's members), whose @names a reply can call on. */
  otherAgents: Agent[];
  /** The human's display name, when the turn has a human. */
  userName?: string;
  /** The turn's own input, media prepared. */
  input: Message[];
  /** The raw history the prompt shows (since the rolling summary), oldest first. */
  rawHistory: Message[];
  recall?: RecallResult;
  /** The passages the prompt numbered [1]..[k] (what a reply may cite), when the agent has documents. */
  knowledge?: RetrievalResult;
  mode: 'rolling' | 'load_all';
  /** Where the raw history came from: the working window, or the record when it reached further back. */
  historyFrom: 'window' | 'record';
  gatherMs: number;
  /** The background the dialogue follows and its plot state; `directed`: the director is on (seed 001). */
  story?: Story & { directed: boolean };
  /** The director's fallback reminder's beat and sources, when it was due. */
  fallback?: DirectedContext['fallback'];
  /** The human's tone after this turn's messages; stored once the reply is out (seed 003) when `changed`. */
  tone?: { humanId: string; state: ToneState; changed: boolean };
}

/**
 * What the reply read under the dialogue's state guard when it started (src/respond/beginReply.ts):
 * the session and its working window at that instant.
 */
export interface ReplyRecord {
  session: Session;
  window: SessionWindow;
}

/** The documents every context starts from, read by `_id` (a reply reads them while it starts). */
export interface ContextInputs {
  config: EffectiveConfig;
  agent: Agent | null;
  human: Human | null;
}

/** Who a reply's context is about: the turn's agent and human. */
export interface ContextParties {
  agentId: string;
  humanId: string | undefined;
}

export const contextPartiesOf = (turn: Turn): ContextParties => ({
  agentId: requireTurnAgent(turn),
  humanId: turnHumanId(turn),
});

/** The agent, human and config a turn's context needs; with `recall`, the memory index is warmed meanwhile. */
export async function readContextInputs(
  store: Store,
  p: ContextParties,
  warm: { recall?: MemoryRecall; knowledge?: KnowledgeRetrieval } = {},
): Promise<ContextInputs> {
  // The memory and knowledge indexes are warmed beside the reads, not after them: a deployment
  // with recall off pays one version check it did not need, every other one a round trip less.
  const [config, agent, human] = await Promise.all([
    store.config.get(),
    store.participants.getAgent(p.agentId),
    p.humanId ? store.participants.getHuman(p.humanId) : null,
    warm.recall && p.humanId ? warm.recall.prepare({ ownerId: p.agentId, subjectId: p.humanId }) : undefined,
    warm.knowledge?.prepare(p.agentId),
  ]);
  return { config, agent, human };
}

/** Throws GatewayError PROMPT_TOO_LONG when the prompt is over `limits.max_total_tokens`. */
export async function gatherContext(
  deps: ContextDeps,
  o: {
    turn: Turn;
    dialogue: Dialogue;
    replyId: string;
    now: Date;
    record: ReplyRecord;
    inputs?: ContextInputs;
    instruction?: string;
  },
): Promise<GatheredContext> {
  const started = performance.now();
  const { store } = deps;
  const { turn, dialogue } = o;
  const { session, window } = o.record;
  const agentId = requireTurnAgent(turn);
  const humanId = turnHumanId(turn);
  const { config, agent, human } = o.inputs ?? (await readContextInputs(store, contextPartiesOf(turn)));
  if (!agent) throw new Error(`agent ${agentId} not found`);
  const mode = config.config.preferences.conversation_load_all ? 'load_all' : 'rolling';
  const since = mode === 'rolling' ? session.rollingSummary?.coversUntil : undefined;
  const place = placeOf(dialogue);
  const [sessionRead, seedMessages, visits, otherAgents, story, previous, relationship, roomDoc] = await Promise.all([
    store.history.since(session, since, window),
    store.history.seed(session, window),
    human ? store.participants.visitsOf(human, agent._id) : Promise.resolve(undefined),
    otherAgentsOf(store, dialogue, agent._id),
    store.stories.ofDialogue(dialogue, o.now),
    readPrevious(deps, session, config.config.thresholds.carry_over_turns),
    // The note on this person is theirs alone: read only in their private chats (SPEC §13).
    humanId && place.private ? store.relationships.get(agent._id, humanId) : null,
    dialogue.roomId ? store.rooms.get(dialogue.roomId) : null,
  ]);
  const room = roomDoc ? await roomContextOf(store, roomDoc, [agent, ...otherAgents], agent._id) : undefined;
  const directed = story !== null && dialogue.settings?.director === true;
  const agentNames = otherAgents.length > 0 ? Object.fromEntries(otherAgents.map((a) => [a._id, a.name])) : undefined;
  // A room's ask answers everything said since its round started (other agents included).
  const split = turn.round
    ? splitFromMessage(sessionRead.messages, turn.round.fromMessageId, o.replyId)
    : splitAtTurn(sessionRead.messages, turn._id, o.replyId);
  // The turn's messages come from the read, which holds them even when the window lost them (beginReply.ts).
  const { input } = split;
  const inputText = input
    .map((m) => m.content)
    .join('\n')
    .trim();
  const recalling =
    deps.recall && config.config.preferences.active_recall && inputText && humanId
      ? deps.recall
          .recall({
            ownerId: agent._id,
            subjectId: humanId,
            message: inputText,
            topK: config.config.thresholds.recall_top_k,
            now: o.now,
            place,
          })
          .catch((err: unknown) => {
            // Recall is an enhancement: a failure leaves the memories section out, never the reply.
            deps.log.warn({ err, turnId: turn._id }, 'active recall failed');
            return undefined;
          })
      : undefined;
  const directing =
    story && directed
      ? directorContext(deps, {
          story,
          threshold: config.config.thresholds.rag_fallback_threshold,
          dialogueId: dialogue._id,
          agentId: agent._id,
          ...(humanId ? { humanId } : {}),
          place,
          now: o.now,
        })
      : undefined;
  const [recalled, knowledge, directedContext] = await Promise.all([
    recalling,
    retrieveKnowledge(deps, agent._id, inputText, turn._id),
    directing,
  ]);
  // Already the raw part: read since the rolling summary's boundary (the whole session in load_all mode), oldest first.
  const windowed = split.history;
  const toPrepare = [...windowed, ...input];
  const ready = deps.prepareMedia ? await deps.prepareMedia(dialogue.chat.platform, toPrepare) : toPrepare;
  const history = ready.slice(0, windowed.length);
  const current = ready.slice(windowed.length);

  const humanTexts = [...history, ...current]
    .filter((m) => m.senderRole === 'human' && (!humanId || m.senderId === humanId))
    .map((m) => m.content);
  const lang = promptLanguage(humanTexts.slice(-10));
  const tone = nextToneState(human?.tone, detectTone(current.map((m) => m.content)), o.now);
  const guidance = toneGuidance(tone, lang);
  const memories = recalled?.memories ?? [];
  const card = human
    ? personaCardOf(human, {
        humanTexts,
        standing: recalled?.standing,
        visits: visits?.count ?? 0,
        // The last topic is a summary of what the person said somewhere: only where that may be recalled.
        ...(visits?.lastTopic && recallableIn(visits.lastTopic, place) ? { lastTopic: visits.lastTopic.text } : {}),
        tone,
      })
    : undefined;

  const built = buildContext(
    {
      agent,
      recalled: memories,
      ...(knowledge && knowledge.sources.length > 0 ? { knowledge: knowledge.sources } : {}),
      ...(mode === 'rolling' && session.rollingSummary ? { rollingSummary: session.rollingSummary.text } : {}),
      ...(session.seed
        ? { seed: { summary: session.seed.summary, messages: seedMessages, order: session.seed.order } }
        : {}),
      ...(previous ? { carryOver: previous } : {}),
      ...(card ? { personaCard: card } : {}),
      ...(relationship ? { relationship: relationship.text } : {}),
      tone: guidance,
      history,
      current,
      now: o.now,
      timezone: deps.timezone,
      groupChat: dialogue.type === 'group',
      selfId: agent._id,
      ...(agentNames ? { agentNames } : {}),
      ...(room ? { room } : {}),
      lang,
      ...(instructionOf(turn, o.instruction) ?? {}),
      ...(story ? { background: story.background.worldSetting } : {}),
      ...(directedContext ? { director: directedContext.director } : {}),
    },
    {
      maxTotalTokens: config.config.limits.max_total_tokens,
      middleSectionWarningTokens: config.config.limits.middle_section_warning_tokens,
    },
    deps.counter,
  );
  const gathered = {
    built,
    config,
    agent,
    otherAgents,
    ...(human?.displayName ? { userName: human.displayName } : {}),
    input: current,
    rawHistory: history,
    ...(recalled ? { recall: recalled } : {}),
    ...(knowledge && knowledge.searched > 0 ? { knowledge } : {}),
    ...(story ? { story: { ...story, directed } } : {}),
    ...(directedContext?.fallback ? { fallback: directedContext.fallback } : {}),
    mode,
    historyFrom: sessionRead.source,
    gatherMs: performance.now() - started,
    ...(humanId && current.length > 0
      ? { tone: { humanId, state: tone, changed: toneChanged(human?.tone, tone) } }
      : {}),
  } as const;
  const limits = {
    maxTotalTokens: config.config.limits.max_total_tokens,
    middleSectionWarningTokens: config.config.limits.middle_section_warning_tokens,
  };
  const warnings = [
    checkPromptBudget(built, limits, gathered),
    mode === 'load_all'
      ? conversationWarning(built.parts.history.tokens, config.config.limits.conversation_max_tokens)
      : undefined,
  ].filter((w): w is PromptWarning => w !== undefined);
  return { ...gathered, warnings };
}

/**
 * The end of the session before this one, when this one opened after the gap: its summary, and
 * its last turns from its working window while this session is still shorter than them (later
 * its own turns carry the thread, and the window read is spared), both by `_id`. A failure
 * leaves the part out.
 */
async function readPrevious(deps: ContextDeps, session: Session, turns: number): Promise<CarryOver | undefined> {
  const prev = session.previous;
  if (!prev || turns <= 0) return undefined;
  const young = session.stats.turnCount <= turns;
  const [before, tail] = await Promise.all([
    deps.store.sessions.get(prev.sessionId),
    young
      ? deps.store.windows.tailOf(
          { _id: prev.sessionId, dialogueId: session.dialogueId },
          (w) => lastTurns(windowMessages(w), MAX_CARRY_OVER_TURNS),
          new Date(),
        )
      : null,
  ]).catch((err: unknown) => {
    deps.log.warn({ err, sessionId: session._id }, 'previous session not read; no carry-over this turn');
    return [null, null] as const;
  });
  if (!before) return undefined;
  const messages = tail ? lastTurns(windowMessages(tail), turns) : [];
  if (messages.length === 0 && !before.summary) return undefined;
  return { endedAt: prev.endedAt, messages, ...(before.summary ? { summary: before.summary } : {}) };
}

/** The tail keeps as many turns as the setting allows at most, whatever it is now. */
const MAX_CARRY_OVER_TURNS = CONFIG_FIELDS.thresholds.carry_over_turns.max;

/** Passages for the turn's input; an enhancement like recall: a failure leaves the part out. */
async function retrieveKnowledge(
  deps: ContextDeps,
  agentId: string,
  inputText: string,
  turnId: string,
): Promise<RetrievalResult | undefined> {
  if (!deps.knowledge || !inputText) return undefined;
  return deps.knowledge
    .retrieve({ agentId, message: inputText, topK: deps.knowledgeTopK ?? DEFAULT_KNOWLEDGE_TOP_K })
    .catch((err: unknown) => {
      deps.log.warn({ err, turnId }, 'knowledge retrieval failed');
      return undefined;
    });
}

const DEFAULT_KNOWLEDGE_TOP_K = 5;

/** The chat's other agents (none in a one-agent chat: nothing is read). */
async function otherAgentsOf(store: Store, dialogue: Dialogue, selfId: string): Promise<Agent[]> {
  const others = dialogue.agentIds.filter((id) => id !== selfId);
  if (others.length === 0) return [];
  const agents = await Promise.all(others.map((id) => store.participants.getAgent(id)));
  return agents.filter((a): a is Agent => a !== null);
}

/**
 * Seed 003's card, steady from turn to turn: the name the person asked for (in this chat, else in
 * a memory this chat may see), their standing preferences and concerns, visits, last topic, mood.
 */
function personaCardOf(
  human: Human,
  o: {
    humanTexts: string[];
    standing: StandingMemories | undefined;
    visits: number;
    lastTopic?: string;
    tone: ReturnType<typeof nextToneState>;
  },
) {
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
function instructionOf(turn: Turn, given: string | undefined): { instruction: string } | undefined {
  const lines = [turn.round && !turn.round.canSkip ? ADDRESSED_INSTRUCTION : '', given ?? ''].filter(Boolean);
  return lines.length > 0 ? { instruction: lines.join('\n') } : undefined;
}

/** The room as its agents know it: name, purpose, announcement, and every member with their introduction. */
async function roomContextOf(store: Store, room: Room, agents: readonly Agent[], selfId: string): Promise<RoomContext> {
  const members = await Promise.all(
    room.members.map(async (m) => {
      // The chat's agents are already read; a member not among them (or a human) is read here.
      const agent =
        m.kind === 'agent' ? (agents.find((a) => a._id === m.id) ?? (await store.participants.getAgent(m.id))) : null;
      const human = m.kind === 'human' ? await store.participants.getHuman(m.id) : null;
      const introduction = m.introduction ?? agent?.introduction;
      return {
        name: agent?.name ?? human?.displayName ?? m.id,
        kind: m.kind,
        ...(introduction ? { introduction } : {}),
        ...(m.id === selfId ? { you: true } : {}),
      };
    }),
  );
  return {
    name: room.name,
    ...(room.description ? { description: room.description } : {}),
    ...(room.announcement ? { announcement: room.announcement.text } : {}),
    members,
  };
}
