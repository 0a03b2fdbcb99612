// Respond (SPEC §4.2): answer one pending turn. Idempotent: a turn that is no longer pending
// is left alone; a reply message left by a crashed attempt is reused, not duplicated, and its
// platform messages are edited rather than sent again.
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Outbounds } from '../delivery/outbound.js';
import type { Agent, ChatRef, DeliveryState, Dialogue, Message, Platform, Turn } from '../domain/model.js';
import type { Persona } from '../delivery/outbound.js';
import { derivedId } from '../domain/ids.js';
import { buildPrompt } from '../context/buildPrompt.js';
import { LlmFailure, type LlmClient } from '../llm/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import { ReplyStreamer } from '../delivery/replyStreamer.js';
import { TypingIndicator } from '../delivery/typingIndicator.js';
import { text as notice, type Locale } from '../i18n/texts.js';
import { TurnTrace } from '../trace/turnTrace.js';
import { runToolLoop } from './toolLoop.js';
import type { ActiveReplies } from './activeReplies.js';

export interface RespondDeps {
  store: Store;
  llm: LlmClient;
  tools: ToolRegistry;
  outbounds: Outbounds;
  log: Logger;
  model: string;
  llmTimeoutMs: number;
  maxToolRounds: number;
  recentMessages: number;
  streamEditIntervalMs: number;
  locale: Locale;
  timezone: string;
  active: ActiveReplies;
  /** The name and avatar an agent posts under on this chat (Discord persona webhooks); none → the bot account. */
  personaOf?(agent: Agent, chat: ChatRef): Persona | undefined;
  /** Turns pending attachments of these messages into text (src/media); absent → used as stored. */
  prepareMedia?(platform: Platform, messages: Message[]): Promise<Message[]>;
  /** Called after a turn is closed by a reply (post-turn jobs hang off this). */
  onReplied?(turn: Turn, at: Date): Promise<void>;
}

export type RespondResult = { kind: 'skipped'; reason: string } | { kind: 'replied'; messageId: string; state: DeliveryState };

export const replyIdOf = (turnId: string) => derivedId('msg', 'reply', turnId);

export async function respondToTurn(deps: RespondDeps, turnId: string): Promise<RespondResult> {
  const { store } = deps;
  const turn = await store.turns.get(turnId);
  if (!turn) return { kind: 'skipped', reason: 'turn not found' };
  if (turn.status !== 'pending') return { kind: 'skipped', reason: `turn is ${turn.status}` };
  if (turn.responderRole !== 'ai') return { kind: 'skipped', reason: 'the AI is not the responder of this turn' };
  const dialogue = await store.dialogues.get(turn.dialogueId);
  if (!dialogue) return { kind: 'skipped', reason: 'dialogue not found' };

  const startedAt = new Date();
  // The history is read only after this mark is stored, so a message either joined this turn
  // before the read (and is in the prompt) or opens the next turn.
  const [, reply] = await Promise.all([store.turns.markReplyStarted(turn._id, startedAt), openAiMessage(store, turn, replyIdOf(turn._id), startedAt)]);
  const state = await produceAiMessage(deps, { turn, dialogue, reply });
  if (await store.turns.closeResponded(turn, new Date(), { outcome: state })) {
    const at = new Date();
    await store.dialogues.countMessage(turn.dialogueId, at);
    await store.sessions.touch(turn.sessionId, at, { messages: 1, turns: 0 });
    // Post-turn work never fails the reply that has already been delivered.
    await deps.onReplied?.(turn, at).catch((err: unknown) => deps.log.error({ err, turnId: turn._id }, 'post-turn work failed'));
  }
  return { kind: 'replied', messageId: reply._id, state };
}

/**
 * Generates one AI message into `reply` and shows it on the platform: prompt, tool loop,
 * streaming delivery, outcome. Shared by answers and AI-initiated (check-in) turns.
 */
export async function produceAiMessage(
  deps: RespondDeps,
  o: { turn: Turn; dialogue: Dialogue; reply: Message; instruction?: string },
): Promise<Exclude<DeliveryState, 'streaming'>> {
  const { store } = deps;
  const { turn, dialogue, reply } = o;
  const outbound = deps.outbounds[dialogue.chat.platform];
  if (!outbound) throw new Error(`no outbound channel for ${dialogue.chat.platform}`);
  // Renewed until the first text shows; the cap ends it if this reply fails before streaming.
  const typing = new TypingIndicator(outbound, dialogue.chat, {
    maxMs: deps.llmTimeoutMs + 30_000,
    onError: (err) => deps.log.debug({ err }, 'typing action failed'),
  }).start();

  const agentId = turn.initiatorRole === 'ai' ? turn.initiatorId : turn.responderId;
  const [agent, history] = await Promise.all([
    store.participants.getAgent(agentId),
    store.messages.recentInSession(turn.sessionId, deps.recentMessages),
  ]);
  if (!agent) throw new Error(`agent ${agentId} not found`);
  // Media of the turn (images, voice, documents) is turned into text first, so the prompt
  // carries descriptions and transcriptions — or clear placeholders when that failed.
  const ready = deps.prepareMedia ? await deps.prepareMedia(dialogue.chat.platform, history) : history;
  const now = new Date();
  const prompt = buildPrompt({
    agent,
    groupChat: dialogue.type === 'group',
    history: ready.filter((m) => m._id !== reply._id),
    now,
    timezone: deps.timezone,
    ...(o.instruction ? { instruction: o.instruction } : {}),
  });
  const trace = new TurnTrace(store.events, { dialogueId: turn.dialogueId, sessionId: turn.sessionId, turnId: turn._id, messageId: reply._id });
  const contextEventId = await trace.record('context_built', {
    prompt: prompt.messages,
    parts: prompt.parts,
    hash: prompt.hash,
    model: deps.model,
    tools: deps.tools.specs().map((t) => t.name),
  });

  // In a group the answer quotes the message it answers, so people see whom it is for.
  const persona = deps.personaOf?.(agent, dialogue.chat);
  const groupReplyTo = dialogue.type === 'group' ? ready.filter((m) => m.turnId === turn._id && m.senderRole === 'human').at(-1)?.platformRef?.messageId : undefined;
  const streamer = new ReplyStreamer({
    messageId: reply._id,
    chat: dialogue.chat,
    outbound,
    messages: store.messages,
    intervalMs: deps.streamEditIntervalMs,
    deliveredIds: reply.delivery?.platformMessageIds ?? [],
    typing,
    // Drafts exist only in private chats; the outbound has draft() only when they are enabled.
    drafts: dialogue.type === 'human_ai',
    sendOptions: { ...(groupReplyTo ? { replyToPlatformMessageId: groupReplyTo } : {}), ...(persona ? { persona } : {}) },
  });

  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort('timeout'), deps.llmTimeoutMs);
  const endActive = deps.active.begin(dialogue._id, abort);
  let outcome: { state: Exclude<DeliveryState, 'streaming'>; stored: string; shown: string; error?: { code: string; message: string } };
  try {
    const result = await runToolLoop({
      llm: deps.llm,
      model: deps.model,
      messages: prompt.messages,
      registry: deps.tools,
      toolContext: { store, dialogueId: dialogue._id, now, timezone: deps.timezone },
      maxRounds: deps.maxToolRounds,
      signal: abort.signal,
      onDelta: (d) => streamer.append(d),
      trace,
      contextEventId,
    });
    const said = result.text.trim();
    outcome =
      said.length === 0
        ? { state: 'empty', stored: notice('EMPTY_REPLY', deps.locale), shown: notice('EMPTY_REPLY', deps.locale) }
        : { state: 'complete', stored: result.text, shown: result.text };
  } catch (err) {
    if (!(err instanceof LlmFailure)) throw err;
    const partial = streamer.currentText.trim() ? streamer.currentText : '';
    if (err.aborted === 'interrupted') {
      // BR-005: the user stopped it; what was said so far is the reply.
      const mark = notice('INTERRUPTED_MARK', deps.locale);
      outcome = { state: 'interrupted', stored: partial, shown: partial ? `${partial} ${mark}` : mark };
    } else {
      const timeout = err.error.code === 'GENERATION_TIMEOUT';
      const userText = notice(timeout ? 'GENERATION_TIMEOUT' : 'LLM_SERVICE_ERROR', deps.locale);
      outcome = {
        state: timeout ? 'timeout' : 'error',
        // The partial text is the record of what the model said; the notice is what the user is told.
        stored: partial,
        shown: partial ? `${partial}\n\n${userText}` : userText,
        error: { code: err.error.code, message: err.message },
      };
      deps.log.warn({ turnId: turn._id, code: err.error.code, err: err.message }, 'reply failed');
    }
  } finally {
    clearTimeout(timer);
    endActive();
  }

  await streamer.drain();
  await store.messages.finishReply(reply._id, { state: outcome.state, content: outcome.stored, ...(outcome.error ? { error: outcome.error } : {}) }, new Date());
  let deliveryError: Error | undefined;
  try {
    await streamer.finish(outcome.shown);
  } catch (err) {
    deliveryError = err instanceof Error ? err : new Error(String(err));
  }
  await trace.record('delivery', {
    platform: dialogue.chat.platform,
    ok: deliveryError === undefined,
    platformMessageIds: streamer.platformMessageIds,
    intermediateError: streamer.lastError instanceof Error ? streamer.lastError.message : streamer.lastError === undefined ? null : 'unknown error',
    error: deliveryError?.message ?? null,
  });
  if (deliveryError !== undefined) throw deliveryError; // the job retries; the outbox prevents duplicates
  return outcome.state;
}

/** The turn's AI message, created on the first attempt and reused by retries. */
export async function openAiMessage(store: Store, turn: Turn, id: string, at: Date): Promise<Message> {
  const message: Message = {
    _id: id,
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    senderRole: 'ai',
    senderId: turn.initiatorRole === 'ai' ? turn.initiatorId : turn.responderId,
    contentType: 'text',
    content: '',
    mentions: [],
    visible: true,
    delivery: { state: 'streaming', platformMessageIds: [] },
    createdAt: at,
    updatedAt: at,
  };
  if ((await store.messages.insertOnce(message)) === 'inserted') return message;
  const existing = await store.messages.get(id);
  if (!existing) throw new Error(`reply ${id} vanished`);
  // A previous attempt died before closing the turn: generate anew into the same message and
  // the same platform messages.
  if (existing.delivery?.state !== 'streaming') await store.messages.reopenReply(id, at);
  return existing;
}
