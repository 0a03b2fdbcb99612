// Respond (SPEC §4.2): answer one pending turn. Idempotent: a turn that is no longer pending
// is left alone; a reply message left by a crashed attempt is reused, not duplicated, and its
// platform messages are edited rather than sent again.
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Outbounds } from '../delivery/outbound.js';
import type { Agent, ChatRef, DeliveryState, Dialogue, Message, Platform, Turn } from '../domain/model.js';
import type { OutboundChannel, Persona } from '../delivery/outbound.js';
import { derivedId } from '../domain/ids.js';
import { originOf } from '../domain/memoryOrigin.js';
import {
  contextPartiesOf,
  gatherContext,
  isPromptTooLong,
  readContextInputs,
  type ContextParties,
  type ContextDeps,
  type ContextInputs,
  type GatheredContext,
  type ReplyRecord,
} from '../context/gatherContext.js';
import { readsFirst } from './readsFirst.js';
import { beginReply } from './beginReply.js';
import type { ReplyHints } from '../domain/replyJob.js';
import { turnsToFold } from '../context/historyWindow.js';
import { guardKeys } from '../store/stateGuard.js';
import type { TokenCounter } from '../context/tokens.js';
import type { PlatformRegistry } from '../platforms/platform.js';
import type { MemoryRecall } from '../memory/recall.js';
import type { KnowledgeRetrieval } from '../knowledge/retrieval.js';
import { withCitedSources } from './replySources.js';
import { directAfterReply } from './directorStep.js';
import { LlmFailure, type LlmClient } from '../llm/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ReplyStreamer } from '../delivery/replyStreamer.js';
import { TypingIndicator } from '../delivery/typingIndicator.js';
import { text as notice, type Locale } from '../i18n/texts.js';
import { TurnTrace } from '../trace/turnTrace.js';
import { runToolLoop } from './toolLoop.js';
import type { ActiveReplies } from './activeReplies.js';
import type { AfterReply } from './afterReply.js';
import { composeStages, type StreamStageFactory } from './streamStage.js';
import { mustAnswerFirst, requireTurnAgent } from '../domain/turnRules.js';
import { turnFactsOf } from '../memory/extraction.js';
import { roomAsk, type RoomAsk } from './roomAsk.js';
import { mentionedAgents } from '../domain/roomMentions.js';
import type { RoomAnswer } from './afterReply.js';
import { ROOM_TIMEOUT_TEXT, type NextAsk } from '../rooms/roomFlow.js';
import { replyLaps, type Metrics } from '../metrics/metrics.js';
import { effectiveModelSettings, type EffectiveModelSettings } from '../domain/agentModel.js';

export interface RespondDeps {
  store: Store;
  llm: LlmClient;
  tools: ToolRegistry;
  outbounds: Outbounds;
  log: Logger;
  /** The deployment's reply model (LLM_MODEL); an agent's own `modelSettings.name` wins. */
  model: string;
  llmTimeoutMs: number;
  maxToolRounds: number;
  /** Real tokenizer for the prompt budget (SPEC §5). */
  counter: TokenCounter;
  /** Active recall over the agent's memories of the human; absent → no memories section. */
  recall?: MemoryRecall;
  /** Passages of the agent's documents for the prompt, cited as [n] (src/knowledge); absent → none. */
  knowledge?: KnowledgeRetrieval;
  /** Passages per turn (KNOWLEDGE_TOP_K). */
  knowledgeTopK?: number;
  streamEditIntervalMs: number;
  /** The registered platforms' facts (a platform's own stream interval); absent: defaults apply. */
  platforms?: PlatformRegistry;
  locale: Locale;
  timezone: string;
  active: ActiveReplies;
  /** A room asked an external agent (MCP or webhook): tell it (webhook agents get a signed agent_turn). */
  notifyExternal?(agent: Agent, turn: Turn): Promise<void>;
  /** The agent's own account on the chat's platform (its Telegram bot); none → the deployment's outbound. */
  agentOutbound?(agentId: string, chat: ChatRef): Promise<OutboundChannel | undefined>;
  /** The name and avatar an agent posts under on this chat (Discord persona webhooks); none → the bot account. */
  personaOf?(agent: Agent, chat: ChatRef): Persona | undefined;
  /** Turns pending attachments of these messages into text (src/media); absent → used as stored. */
  prepareMedia?(platform: Platform, messages: Message[]): Promise<Message[]>;
  /** Stages between the model and what is shown (src/respond/streamStage.ts); none: shown as said. */
  streamStages?: readonly StreamStageFactory[];
  /** Called after a turn is closed by a reply (post-turn jobs hang off this); may name a room's next ask. */
  onReplied?(turn: Turn, at: Date, after: AfterReply): Promise<NextAsk | undefined>;
  /** Reply latency by stage (src/metrics); absent: not measured. */
  metrics?: Metrics;
}

/** An AI message produced: how it ended, and what the post-turn work needs. */
export interface Produced extends Omit<AfterReply, 'dialogueMessages'> {
  state: Exclude<DeliveryState, 'streaming'>;
}

export type RespondResult =
  | { kind: 'skipped'; reason: string }
  /** `nextAsk`: a room's next ask, queued by the caller once it released the dialogue's lease. */
  | { kind: 'replied'; messageId: string; state: DeliveryState; nextAsk?: NextAsk };

export const replyIdOf = (turnId: string) => derivedId('msg', 'reply', turnId);

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
  // The context's first reads go out at once when the job names the turn's parties (else as soon
  // as the turn is read), and the reply message as soon as the turn is read: beside the guarded start.
  const early = hints?.agentId ? startInputs(deps, { agentId: hints.agentId, humanId: hints.humanId }) : undefined;
  let side:
    | { turn: Turn; inputs: Promise<ContextInputs>; readsDone: Promise<void>; reply: Promise<Message>; readAt: Date }
    | undefined;
  const onRead = (turn: Turn) => {
    const parties = contextPartiesOf(turn);
    const same = early && hints?.agentId === parties.agentId && hints.humanId === parties.humanId;
    const inputs = same ? early : startInputs(deps, parties);
    // The reply's two first writes (its message here, its mark in beginReply) wait for one bound.
    const readsDone = readsFirst(inputs);
    // Dated when its prompt's messages are read (under the dialogue's guard, as ingest dates
    // messages): it sorts after all of them and before any placed after the read.
    const readAt = new Date();
    const reply = readsDone.then(() => openAiMessage(store, turn, replyIdOf(turn._id), readAt));
    side = { turn, inputs, readsDone, reply: handled(reply), readAt };
  };
  const markAfter = () => side?.readsDone ?? Promise.resolve();
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
  const at = new Date();
  let nextAsk: NextAsk | undefined;
  if (await closeAnswered(store, turn, at, state)) {
    // Post-turn work never fails the reply that has already been delivered.
    nextAsk = await deps
      .onReplied?.(turn, at, { ...after, dialogueMessages: dialogue.messageCount + 1 })
      .catch((err: unknown) => {
        deps.log.error({ err, turnId: turn._id, dialogueId: turn.dialogueId }, 'post-turn work failed');
        return undefined;
      });
  }
  return { kind: 'replied', messageId: reply._id, state, ...(nextAsk ? { nextAsk } : {}) };
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

/**
 * Generates one AI message into `reply` and shows it on the platform: prompt, tool loop,
 * streaming delivery, outcome. Shared by answers and AI-initiated (check-in) turns.
 */
export async function produceAiMessage(
  deps: RespondDeps,
  o: {
    turn: Turn;
    dialogue: Dialogue;
    reply: Message;
    record: ReplyRecord;
    inputs?: ContextInputs;
    instruction?: string;
    /** Stored before anything is shown (the turn's mark, the reply's insert); a failure fails the reply. */
    stored?: Promise<unknown>;
  },
): Promise<Produced> {
  const { turn, dialogue, reply } = o;
  // Every line logged for this reply names its dialogue and turn (the streamer's and typing's too).
  deps = { ...deps, log: deps.log.child({ dialogueId: turn.dialogueId, turnId: turn._id }) };
  const { store } = deps;
  const lap = replyLaps(deps.metrics);
  const outbound =
    (await deps.agentOutbound?.(requireTurnAgent(turn), dialogue.chat)) ?? deps.outbounds[dialogue.chat.platform];
  if (!outbound) throw new Error(`no outbound channel for ${dialogue.chat.platform}`);
  // Renewed until the first text shows; the cap ends it if this reply fails before streaming.
  const typing = new TypingIndicator(outbound, dialogue.chat, {
    maxMs: deps.llmTimeoutMs + 30_000,
    onError: (err) => deps.log.debug({ err }, 'typing action failed'),
  }).start();

  const now = new Date();
  const trace = new TurnTrace(store.events, {
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    messageId: reply._id,
  });
  const contextDeps: ContextDeps = deps; // RespondDeps carries everything the context needs
  let gathered: GatheredContext;
  try {
    gathered = await gatherContext(contextDeps, {
      turn,
      dialogue,
      replyId: reply._id,
      now,
      record: o.record,
      ...(o.inputs ? { inputs: o.inputs } : {}),
      ...(o.instruction ? { instruction: o.instruction } : {}),
    });
  } catch (err) {
    if (!isPromptTooLong(err)) throw err;
    await o.stored;
    // Seed 001: over the limit the prompt is not sent; the user is told and offered a summary.
    await trace.record(
      'context_built',
      contextEventData(err.context, deps, { tooLong: { tokens: err.tokens, limit: err.limit } }),
    );
    const shown = notice('PROMPT_TOO_LONG', deps.locale, { tokens: err.tokens, limit: err.limit });
    typing.stop();
    // No reply, so no progress: it counts toward the director's reminder like a failed one.
    await direct(store, err.context, { turn, replyId: reply._id, text: '', trace });
    const state = await finishWithoutModel(deps, {
      dialogue,
      reply,
      trace,
      outbound,
      state: 'error',
      shown,
      error: { code: err.code, message: err.message },
    });
    return { state, foldDue: true, evolveEveryTurns: evolveEvery(err.context) };
  }
  lap('context');
  // Stored once the model has the request (its answer began, or the call is over): the write
  // would otherwise go out beside the request and delay it. Settled before the reply is finished.
  let modelOpened = (): void => undefined;
  const opened = new Promise<void>((resolve) => (modelOpened = resolve));
  const contextEventId = trace.begin('context_built', contextEventData(gathered, deps), opened);
  for (const w of gathered.warnings) {
    await store.events.warnOnce({
      dialogueId: turn.dialogueId,
      sessionId: turn.sessionId,
      turnId: turn._id,
      category: w.category,
      data: { ...w },
    });
  }

  const streamer = openStreamer(deps, {
    dialogue,
    reply,
    outbound,
    typing,
    gathered,
    ...(o.stored ? { ready: o.stored } : {}),
  });
  const ask = roomAsk(deps.tools, turn);
  // A failed attempt (the store gone mid-reply) ends its streaming, a send under way included,
  // before the reply lease is let go: else that send could land beside the retry's own.
  const fail = async (err: unknown): Promise<never> => {
    typing.stop();
    await streamer.endStreaming();
    throw err;
  };
  const generated = await generateText(deps, {
    turn,
    dialogue,
    gathered,
    streamer,
    trace,
    contextEventId,
    modelOpened,
    now,
    ask,
  }).catch(fail);
  // The valid citations are recorded; channels without source events get footnotes.
  const outcome = withCitedSources(generated, {
    retrieved: gathered.knowledge?.sources ?? [],
    footnotes: deps.platforms?.find(dialogue.chat.platform)?.sourcesAsEvents !== true,
  });
  lap('model');
  await o.stored?.catch(fail);
  await streamer.endStreaming();
  await trace.settled();
  await store.messages.finishReply(
    reply,
    {
      state: outcome.state,
      content: outcome.stored,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.skipped ? { visible: false as const } : {}),
      ...(outcome.sources ? { sources: outcome.sources } : {}),
      ...(outcome.shown !== outcome.stored && !outcome.skipped ? { shown: outcome.shown } : {}),
      // Counted when the model reported nothing, so every reply says what it cost.
      usage: outcome.usage ?? {
        inputTokens: gathered.built.totalTokens,
        outputTokens: deps.counter.count(outcome.stored),
      },
    },
    new Date(),
  );
  if (!outcome.skipped) await direct(store, gathered, { turn, replyId: reply._id, text: outcome.stored, trace });
  if (gathered.tone?.changed && outcome.state === 'complete') {
    // The tone carried into the next turn (seed 003); losing it only loses a nuance. An
    // unchanged tone (most turns: still neutral) is not written again.
    await store.participants
      .setTone(gathered.tone.humanId, gathered.tone.state)
      .catch((err: unknown) => deps.log.warn({ err }, 'tone state not stored'));
  }
  if (outcome.skipped) {
    typing.stop();
    await trace.record('delivery', {
      platform: dialogue.chat.platform,
      ok: true,
      skipped: true,
      platformMessageIds: [],
    });
  } else await deliver(streamer, trace, dialogue, outcome.shown);
  lap('delivery');
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
      ? { roomAnswer: roomAnswerOf(outcome, dialogue, gathered, reply, deps.counter.count(outcome.stored)) }
      : {}),
  };
}

/** How a generation ended: what is stored as said, what people are shown. */
interface Outcome {
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

/** A platform's own stream interval (the web streams finer than chat apps allow edits). */
const streamIntervalOf = (deps: RespondDeps, platform: Platform): number =>
  deps.platforms?.get(platform).streamIntervalMs ?? deps.streamEditIntervalMs;

/** The reply's streamer: the platform, the persona, and in a group a quote of whom it answers. */
function openStreamer(
  deps: RespondDeps,
  o: {
    dialogue: Dialogue;
    reply: Message;
    outbound: OutboundChannel;
    typing: TypingIndicator;
    gathered: GatheredContext;
    ready?: Promise<unknown>;
  },
): ReplyStreamer {
  const { dialogue, reply } = o;
  const persona = deps.personaOf?.(o.gathered.agent, dialogue.chat);
  const groupReplyTo =
    dialogue.type === 'group'
      ? o.gathered.input.filter((m) => m.senderRole === 'human').at(-1)?.platformRef?.messageId
      : undefined;
  return new ReplyStreamer({
    message: reply,
    chat: dialogue.chat,
    outbound: o.outbound,
    messages: deps.store.messages,
    intervalMs: streamIntervalOf(deps, dialogue.chat.platform),
    deliveredIds: reply.delivery?.platformMessageIds ?? [],
    typing: o.typing,
    ...(o.ready ? { ready: o.ready } : {}),
    // Drafts exist only in private chats; the outbound has draft() only when they are enabled.
    drafts: dialogue.type === 'human_ai',
    sendOptions: {
      ...(groupReplyTo ? { replyToPlatformMessageId: groupReplyTo } : {}),
      ...(persona ? { persona } : {}),
    },
  });
}

/**
 * The model's text through the tool loop, streamed to people through the stream stages (what
 * the model says is stored as said; what people see passes the stages first), within the
 * generation timeout and stoppable by /stop.
 */
async function generateText(
  deps: RespondDeps,
  o: {
    turn: Turn;
    dialogue: Dialogue;
    gathered: GatheredContext;
    streamer: ReplyStreamer;
    trace: TurnTrace;
    contextEventId: string;
    /** Called when the model's response began, and at the latest when generation ends. */
    modelOpened: () => void;
    now: Date;
    ask: RoomAsk;
  },
): Promise<Outcome> {
  const reply = { sources: o.gathered.knowledge?.sources ?? [] };
  const stage = composeStages((deps.streamStages ?? []).map((make) => make(reply)));
  let shownSoFar = '';
  const show = (text: string) => {
    if (!text) return;
    shownSoFar += text;
    // An agent that may still skip shows nothing until it is clearly answering (roomAsk.ts).
    o.ask.stream(text, (t) => o.streamer.append(t));
  };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort('timeout'), deps.llmTimeoutMs);
  const endActive = deps.active.begin(o.dialogue._id, o.turn._id, abort);
  const settings = replyModelOf(deps, o.gathered);
  try {
    const result = await runToolLoop({
      llm: deps.llm,
      model: settings.name,
      ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
      messages: o.gathered.built.messages,
      registry: o.ask.tools,
      toolContext: {
        store: deps.store,
        dialogueId: o.dialogue._id,
        now: o.now,
        timezone: deps.timezone,
        ...(o.ask.ask ? { ask: o.ask.ask } : {}),
      },
      maxRounds: deps.maxToolRounds,
      ...(settings.maxOutputTokens !== undefined ? { maxOutputTokens: settings.maxOutputTokens } : {}),
      signal: abort.signal,
      onDelta: (d) => show(stage.push(d)),
      onOpen: o.modelOpened,
      trace: o.trace,
      contextEventId: o.contextEventId,
      done: () => o.ask.skipped(),
    });
    show(stage.end());
    const spent = result.usage ? { usage: result.usage } : {};
    if (o.ask.skipped()) return { state: 'complete', stored: result.text, shown: '', skipped: true, ...spent };
    if (shownSoFar.trim().length > 0) return { state: 'complete', stored: result.text, shown: shownSoFar, ...spent };
    const empty = notice('EMPTY_REPLY', deps.locale);
    return { state: 'empty', stored: result.text.trim() ? result.text : empty, shown: empty, ...spent };
  } catch (err) {
    if (!(err instanceof LlmFailure)) throw err;
    return failedOutcome(deps, err, o.streamer.currentText.trim() ? o.streamer.currentText : '', o.turn);
  } finally {
    o.modelOpened();
    clearTimeout(timer);
    endActive();
  }
}

/** The agent's model settings over the deployment's: its model, temperature and longest answer. */
const replyModelOf = (deps: RespondDeps, g: Pick<GatheredContext, 'agent' | 'config'>): EffectiveModelSettings =>
  effectiveModelSettings({ name: deps.model, maxOutputTokens: g.config.config.limits.max_reply_tokens }, g.agent);

/** A generation the model did not finish: stopped by the user (BR-005), timed out or failed. */
function failedOutcome(deps: RespondDeps, err: LlmFailure, partial: string, turn: Turn): Outcome {
  if (err.aborted === 'deadline') {
    // Seed 002: no answer in time is an invisible skip; what people already saw stays as it was.
    if (partial) return { state: 'timeout', stored: partial, shown: partial, deadline: true };
    return { state: 'timeout', stored: ROOM_TIMEOUT_TEXT, shown: '', skipped: true, deadline: true };
  }
  if (err.aborted === 'interrupted') {
    // BR-005: the user stopped it; what was said so far is the reply.
    const mark = notice('INTERRUPTED_MARK', deps.locale);
    return { state: 'interrupted', stored: partial, shown: partial ? `${partial} ${mark}` : mark };
  }
  const timeout = err.error.code === 'GENERATION_TIMEOUT';
  const noModel = err.error.code === 'MODEL_NOT_CONFIGURED';
  const userText = notice(
    timeout ? 'GENERATION_TIMEOUT' : noModel ? 'MODEL_NOT_CONFIGURED' : 'LLM_SERVICE_ERROR',
    deps.locale,
  );
  deps.log.warn({ turnId: turn._id, code: err.error.code, err: err.message }, 'reply failed');
  return {
    state: timeout ? 'timeout' : 'error',
    // The partial text is the record of what the model said; the notice is what the user is told.
    stored: partial,
    shown: partial ? `${partial}\n\n${userText}` : userText,
    error: { code: err.error.code, message: err.message },
  };
}

/** The final push, recorded as the `delivery` event; a failure is thrown so the job retries (the outbox prevents duplicates). */
async function deliver(streamer: ReplyStreamer, trace: TurnTrace, dialogue: Dialogue, shown: string): Promise<void> {
  let deliveryError: Error | undefined;
  try {
    await streamer.finish(shown);
  } catch (err) {
    deliveryError = err instanceof Error ? err : new Error(String(err));
  }
  const intermediate = streamer.lastError;
  await trace.record('delivery', {
    platform: dialogue.chat.platform,
    ok: deliveryError === undefined,
    platformMessageIds: streamer.platformMessageIds,
    intermediateError:
      intermediate instanceof Error ? intermediate.message : intermediate === undefined ? null : 'unknown error',
    error: deliveryError?.message ?? null,
  });
  if (deliveryError !== undefined) throw deliveryError;
}

const evolveEvery = (g: Pick<GatheredContext, 'config'>): number =>
  g.config.config.thresholds.persona_evolve_every_turns;

/** Whether this turn took the session's raw history past the rolling-summary threshold. */
function foldDue(g: GatheredContext, reply: Message): boolean {
  if (g.mode !== 'rolling') return false;
  const { summary_threshold_turns: thresholdTurns, recent_turns: keepTurns } = g.config.config.thresholds;
  return turnsToFold([...g.rawHistory, ...g.input, reply], { thresholdTurns, keepTurns }) !== undefined;
}

/** Event `context_built`: the full prompt, every part's size in tokens, hashes, recall queries, retrieved passages. */
/** Seed 001: what a directed dialogue's reply (said, failed or never sent) does to its plot. */
function direct(
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

function contextEventData(
  g: Omit<GatheredContext, 'warnings'>,
  deps: RespondDeps,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    prompt: g.built.messages,
    parts: g.built.parts,
    totalTokens: g.built.totalTokens,
    middleTokens: g.built.middleTokens,
    hash: g.built.hash,
    prefixHash: g.built.prefixHash,
    mode: g.mode,
    historyFrom: g.historyFrom,
    configVersion: g.config.version,
    recall: g.recall
      ? {
          queries: g.recall.queries,
          deep: g.recall.deep,
          degraded: g.recall.degraded ?? null,
          memoryIds: g.recall.memories.map((m) => m.id),
          // The fused score of each, in the same order (the console shows why each was recalled).
          scores: g.recall.memories.map((m) => m.score),
          timings: g.recall.timings,
        }
      : null,
    // Seed 001's fallback: which beat it reminded of, and where the quoted lines came from.
    directorFallback: g.fallback ? { beat: g.fallback.beat, ...g.fallback.sources } : null,
    // The passages the prompt numbered, with their relevance (what a reply may cite).
    knowledge: g.knowledge
      ? {
          queries: g.knowledge.queries,
          degraded: g.knowledge.degraded ?? null,
          chunks: g.knowledge.sources.map((k) => ({
            n: k.n,
            chunkId: k.chunkId,
            documentId: k.documentId,
            documentName: k.documentName,
            score: k.score,
          })),
          timings: g.knowledge.timings,
        }
      : null,
    gatherMs: Math.round(g.gatherMs * 10) / 10,
    tone: g.tone ? { template: g.tone.state.template, scores: g.tone.state.scores } : null,
    // The model this reply is generated with (the agent's own, else the deployment's).
    model: replyModelOf(deps, g).name,
    tools: deps.tools.specs().map((t) => t.name),
    ...extra,
  };
}

/** A turn that ends before the model is called (prompt too long): stored, then shown. */
async function finishWithoutModel(
  deps: RespondDeps,
  o: {
    dialogue: Dialogue;
    reply: Message;
    trace: TurnTrace;
    outbound: NonNullable<Outbounds[Platform]>;
    state: 'error';
    shown: string;
    error: { code: string; message: string };
  },
): Promise<'error'> {
  await deps.store.messages.finishReply(o.reply, { state: o.state, content: '', error: o.error }, new Date());
  const streamer = new ReplyStreamer({
    message: o.reply,
    chat: o.dialogue.chat,
    outbound: o.outbound,
    messages: deps.store.messages,
    intervalMs: deps.streamEditIntervalMs,
    deliveredIds: o.reply.delivery?.platformMessageIds ?? [],
    drafts: false,
  });
  let deliveryError: Error | undefined;
  try {
    await streamer.finish(o.shown);
  } catch (err) {
    deliveryError = err instanceof Error ? err : new Error(String(err));
  }
  await o.trace.record('delivery', {
    platform: o.dialogue.chat.platform,
    ok: deliveryError === undefined,
    platformMessageIds: streamer.platformMessageIds,
    error: deliveryError?.message ?? null,
  });
  if (deliveryError !== undefined) throw deliveryError;
  return o.state;
}

/** The turn's AI message, created on the first attempt and reused by retries. */
/** A new AI message of a turn, before anything is streamed into it. */
export function newAiMessage(turn: Turn, id: string, at: Date): Message {
  return {
    _id: id,
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    senderRole: 'ai',
    senderId: requireTurnAgent(turn),
    contentType: 'text',
    content: '',
    mentions: [],
    visible: true,
    delivery: { state: 'streaming', platformMessageIds: [] },
    createdAt: at,
    updatedAt: at,
  };
}

export async function openAiMessage(store: Store, turn: Turn, id: string, at: Date): Promise<Message> {
  const message = newAiMessage(turn, id, at);
  if ((await store.messages.insertOnce(message)) === 'inserted') return message;
  const existing = await store.messages.get(id);
  if (!existing) throw new Error(`reply ${id} vanished`);
  // A previous attempt died before closing the turn: generate anew into the same message and
  // the same platform messages, dated by this attempt's read.
  await store.messages.reopenReply(existing, at);
  return { ...existing, createdAt: at, updatedAt: at };
}
