// The I/O half of the every-turn context (SPEC §5), every read by `_id`: the config, agent and
// human; then side by side the session's history and seed, visits, the chat's other agents, the
// story, the previous session's end, the relationship note and the room; then side by side active
// recall, knowledge retrieval and the director's evidence; then the media. It decides nothing a
// read does not need: plain data goes back to the pure builders (contextParts.ts).
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Agent, Dialogue, Human, Message, Platform, Session, SessionWindow, Turn } from '../domain/model.js';
import type { EffectiveConfig } from '../store/config.js';
import type { TokenCounter } from '../llm/tokens.js';
import type { MemoryRecall, RecallResult } from '../memory/recall.js';
import type { KnowledgeRetrieval, RetrievalResult } from '../knowledge/retrieval.js';
import { requireTurnAgent, turnHumanId } from '../domain/turnRules.js';
import { placeOf, type RecallPlace } from '../domain/memoryOrigin.js';
import { windowMessages } from '../domain/windowRules.js';
import { CONFIG_FIELDS } from '../domain/config.js';
import { lastTurns, type CarryOver } from './carryOver.js';
import { directorContext } from './directorContext.js';
import { readRoomMembers } from './roomContext.js';
import { contextModeOf, historySince, inputTextOf, isDirected, splitTurn, type ContextReads } from './contextParts.js';

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

/** The turn a context is read for (gatherContext's arguments, less the caller's instruction). */
export interface ContextRequest {
  turn: Turn;
  dialogue: Dialogue;
  replyId: string;
  now: Date;
  record: ReplyRecord;
  /** The config, agent and human when the caller already read them. */
  inputs?: ContextInputs;
}

/** Every read of a turn's context, grouped in parallel as in SPEC §5; throws when the agent is gone. */
export async function readContext(deps: ContextDeps, o: ContextRequest): Promise<ContextReads> {
  const { turn, dialogue } = o;
  const agentId = requireTurnAgent(turn);
  const humanId = turnHumanId(turn);
  const { config, agent, human } = o.inputs ?? (await readContextInputs(deps.store, contextPartiesOf(turn)));
  if (!agent) throw new Error(`agent ${agentId} not found`);
  const mode = contextModeOf(config);
  const place = placeOf(dialogue);
  const parts = await readDialogueParts(deps, { ...o, config, agent, human, humanId, mode, place });
  const directed = isDirected(parts.story, dialogue);
  // The turn's messages come from the read, which holds them even when the window lost them (beginReply.ts).
  // Its history is already the raw part: read since the rolling summary's boundary, oldest first.
  const split = splitTurn(parts.sessionRead.messages, turn, o.replyId);
  const inputText = inputTextOf(split.input);
  const [recalled, knowledge, directedContext] = await Promise.all([
    recallFor(deps, { config, agentId: agent._id, humanId, inputText, place, now: o.now, turnId: turn._id }),
    retrieveKnowledge(deps, agent._id, inputText, turn._id),
    parts.story && directed
      ? directorContext(deps, {
          story: parts.story,
          threshold: config.config.thresholds.rag_fallback_threshold,
          dialogueId: dialogue._id,
          agentId: agent._id,
          ...(humanId ? { humanId } : {}),
          place,
          now: o.now,
        })
      : undefined,
  ]);
  const { history, current } = await preparedMedia(deps, dialogue, split);
  return {
    config,
    agent,
    human,
    humanId,
    mode,
    place,
    seedMessages: parts.seedMessages,
    visits: parts.visits,
    otherAgents: parts.otherAgents,
    story: parts.story,
    directed,
    previous: parts.previous,
    relationship: parts.relationship,
    room: parts.room,
    recalled,
    knowledge,
    directedContext,
    history,
    current,
    historyFrom: parts.sessionRead.source,
  };
}

/** The dialogue's parts, read side by side; a room's members not among the chat's agents after them. */
async function readDialogueParts(
  deps: ContextDeps,
  o: ContextRequest & Pick<ContextReads, 'config' | 'agent' | 'human' | 'humanId' | 'mode' | 'place'>,
) {
  const { store } = deps;
  const { dialogue, agent, human, humanId } = o;
  const { session, window } = o.record;
  const [sessionRead, seedMessages, visits, otherAgents, story, previous, relationship, roomDoc] = await Promise.all([
    store.history.since(session, historySince(o.mode, session), window),
    store.history.seed(session, window),
    human ? store.participants.visitsOf(human, agent._id) : Promise.resolve(undefined),
    otherAgentsOf(store, dialogue, agent._id),
    store.stories.ofDialogue(dialogue, o.now),
    readPrevious(deps, session, o.config.config.thresholds.carry_over_turns),
    // The note on this person is theirs alone: read only in their private chats (SPEC §13).
    humanId && o.place.private ? store.relationships.get(agent._id, humanId) : null,
    dialogue.roomId ? store.rooms.get(dialogue.roomId) : null,
  ]);
  const room = roomDoc
    ? { room: roomDoc, members: await readRoomMembers(store, roomDoc, [agent, ...otherAgents]) }
    : undefined;
  return { sessionRead, seedMessages, visits, otherAgents, story, previous, relationship, room };
}

/** Active recall for the turn's input, when it is on and the turn has a human; a failure leaves it out. */
function recallFor(
  deps: ContextDeps,
  o: {
    config: EffectiveConfig;
    agentId: string;
    humanId: string | undefined;
    inputText: string;
    place: RecallPlace;
    now: Date;
    turnId: string;
  },
): Promise<RecallResult | undefined> | undefined {
  if (!deps.recall || !o.config.config.preferences.active_recall || !o.inputText || !o.humanId) return undefined;
  return deps.recall
    .recall({
      ownerId: o.agentId,
      subjectId: o.humanId,
      message: o.inputText,
      topK: o.config.config.thresholds.recall_top_k,
      now: o.now,
      place: o.place,
    })
    .catch((err: unknown) => {
      // Recall is an enhancement: a failure leaves the memories section out, never the reply.
      deps.log.warn({ err, turnId: o.turnId }, 'active recall failed');
      return undefined;
    });
}

/** The history and input with their attachments turned into text, in one call (as stored without it). */
async function preparedMedia<M extends Message>(
  deps: ContextDeps,
  dialogue: Dialogue,
  split: { history: M[]; input: M[] },
): Promise<{ history: Message[]; current: Message[] }> {
  const toPrepare = [...split.history, ...split.input];
  const ready = deps.prepareMedia ? await deps.prepareMedia(dialogue.chat.platform, toPrepare) : toPrepare;
  return { history: ready.slice(0, split.history.length), current: ready.slice(split.history.length) };
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
