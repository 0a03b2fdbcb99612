// Respond (SPEC §4.2): answer one pending turn. Idempotent: a turn that is no longer pending
// is left alone; a reply message left by a crashed attempt is reused, not duplicated.
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Outbounds } from '../delivery/outbound.js';
import type { DeliveryState, Message, Turn } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';
import { buildPrompt } from '../context/buildPrompt.js';
import { streamChat, LlmFailure, type ChatStreamResult } from '../llm/chatStream.js';
import { ReplyStreamer } from '../delivery/replyStreamer.js';
import { text as notice, type Locale } from '../i18n/texts.js';
import { isGatewayError } from '../errors.js';

export interface RespondDeps {
  store: Store;
  openai: OpenAI;
  outbounds: Outbounds;
  log: Logger;
  model: string;
  llmTimeoutMs: number;
  recentMessages: number;
  streamEditIntervalMs: number;
  locale: Locale;
}

export type RespondResult = { kind: 'skipped'; reason: string } | { kind: 'replied'; messageId: string; state: DeliveryState };

export const replyIdOf = (turnId: string) => derivedId('msg', 'reply', turnId);

export async function respondToTurn(deps: RespondDeps, turnId: string): Promise<RespondResult> {
  const { store } = deps;
  const turn = await store.turns.get(turnId);
  if (!turn) return { kind: 'skipped', reason: 'turn not found' };
  if (turn.status !== 'pending') return { kind: 'skipped', reason: `turn is ${turn.status}` };
  const dialogue = await store.dialogues.get(turn.dialogueId);
  if (!dialogue) return { kind: 'skipped', reason: 'dialogue not found' };
  const outbound = deps.outbounds[dialogue.chat.platform];
  if (!outbound) throw new Error(`no outbound channel for ${dialogue.chat.platform}`);

  const startedAt = new Date();
  await store.turns.markReplyStarted(turn._id, startedAt);
  const reply = await openReplyMessage(store, turn, startedAt);
  void outbound.typing(dialogue.chat).catch((err: unknown) => deps.log.debug({ err }, 'typing action failed'));

  const agent = await store.participants.getAgent(turn.responderId);
  if (!agent) throw new Error(`agent ${turn.responderId} not found`);
  const history = await store.messages.recentInSession(turn.sessionId, deps.recentMessages);
  const prompt = buildPrompt({ agent, history: history.filter((m) => m._id !== reply._id), now: startedAt });
  const trace = { dialogueId: turn.dialogueId, sessionId: turn.sessionId, turnId: turn._id, messageId: reply._id };
  await store.events.record({
    ...trace,
    kind: 'context_built',
    data: { prompt: prompt.messages, parts: prompt.parts, hash: prompt.hash, model: deps.model },
  });

  const streamer = new ReplyStreamer({
    messageId: reply._id,
    chat: dialogue.chat,
    outbound,
    messages: store.messages,
    intervalMs: deps.streamEditIntervalMs,
    deliveredIds: reply.delivery?.platformMessageIds ?? [],
  });

  let outcome: { state: Exclude<DeliveryState, 'streaming'>; stored: string; shown: string; error?: { code: string; message: string } };
  let llm: Partial<ChatStreamResult> & { error?: string } = {};
  try {
    const result = await streamChat(deps.openai, {
      model: deps.model,
      messages: prompt.messages,
      timeoutMs: deps.llmTimeoutMs,
      onDelta: (d) => streamer.append(d),
    });
    llm = result;
    outcome =
      result.text.trim().length === 0
        ? { state: 'empty', stored: notice('EMPTY_REPLY', deps.locale), shown: notice('EMPTY_REPLY', deps.locale) }
        : { state: 'complete', stored: result.text, shown: result.text };
  } catch (err) {
    if (!(err instanceof LlmFailure)) throw err;
    const code = err.error.code;
    const userText = notice(code === 'GENERATION_TIMEOUT' ? 'GENERATION_TIMEOUT' : 'LLM_SERVICE_ERROR', deps.locale);
    llm = { text: err.partial.text, ttftMs: err.partial.ttftMs, durationMs: err.partial.durationMs, error: err.message };
    const partial = err.partial.text.trim();
    outcome = {
      state: code === 'GENERATION_TIMEOUT' ? 'timeout' : 'error',
      // The partial text is the record of what the model said; the notice is what the user is told.
      stored: partial,
      shown: partial ? `${partial}\n\n${userText}` : userText,
      error: { code, message: err.message },
    };
    deps.log.warn({ turnId: turn._id, code, err: err.message }, 'reply failed');
  }

  await store.events.record({
    ...trace,
    kind: 'llm_call',
    data: {
      model: deps.model,
      promptHash: prompt.hash,
      output: llm.text ?? '',
      finishReason: llm.finishReason ?? null,
      usage: llm.usage ?? null,
      ttftMs: llm.ttftMs ?? null,
      durationMs: llm.durationMs ?? null,
      error: llm.error ?? null,
    },
  });

  const finishedAt = new Date();
  await store.messages.finishReply(reply._id, { state: outcome.state, content: outcome.stored, ...(outcome.error ? { error: outcome.error } : {}) }, finishedAt);
  let deliveryError: Error | undefined;
  try {
    await streamer.finish(outcome.shown);
  } catch (err) {
    deliveryError = err instanceof Error ? err : new Error(String(err));
  }
  await store.events.record({
    ...trace,
    kind: 'delivery',
    data: {
      platform: dialogue.chat.platform,
      ok: deliveryError === undefined,
      error: deliveryError === undefined ? null : isGatewayError(deliveryError) ? deliveryError.code : deliveryError.message,
    },
  });
  if (deliveryError !== undefined) throw deliveryError; // the job retries; the outbox prevents duplicates

  if (await store.turns.closeResponded(turn, finishedAt, outcome.state)) {
    await store.dialogues.countMessage(turn.dialogueId, finishedAt);
    await store.sessions.touch(turn.sessionId, finishedAt, { messages: 1, turns: 0 });
  }
  return { kind: 'replied', messageId: reply._id, state: outcome.state };
}

/** The turn's one AI reply message, created on the first attempt and reused by retries. */
async function openReplyMessage(store: Store, turn: Turn, at: Date): Promise<Message> {
  const id = replyIdOf(turn._id);
  const message: Message = {
    _id: id,
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    senderRole: 'ai',
    senderId: turn.responderId,
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
  if (existing.delivery?.state !== 'streaming') {
    // A previous attempt finished generating but died before closing the turn: generate anew
    // into the same message and the same platform messages.
    await store.messages.reopenReply(id, at);
  }
  return existing;
}
