// One streaming Chat Completions call. Turns the SDK's failure modes into our stable codes:
// an HTTP/API error → LLM_SERVICE_ERROR, our deadline → GENERATION_TIMEOUT.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { GatewayError } from '../errors.js';

export interface ChatStreamRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  timeoutMs: number;
  onDelta(delta: string): void | Promise<void>;
}

export interface ChatStreamResult {
  text: string;
  finishReason: string | null;
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
  /** Milliseconds from request to the first content token; undefined when none came. */
  ttftMs?: number;
  durationMs: number;
}

export async function streamChat(client: OpenAI, req: ChatStreamRequest): Promise<ChatStreamResult> {
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), req.timeoutMs);
  let text = '';
  let ttftMs: number | undefined;
  let finishReason: string | null = null;
  let usage: ChatStreamResult['usage'];
  try {
    const stream = await client.chat.completions.create(
      { model: req.model, messages: req.messages, stream: true, stream_options: { include_usage: true } },
      { signal: deadline.signal, maxRetries: 0 },
    );
    for await (const chunk of stream) {
      if (chunk.usage) {
        usage = {
          promptTokens: chunk.usage.prompt_tokens,
          completionTokens: chunk.usage.completion_tokens,
          totalTokens: chunk.usage.total_tokens,
        };
      }
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const delta = choice.delta?.content;
      if (delta) {
        ttftMs ??= performance.now() - started;
        text += delta;
        await req.onDelta(delta);
      }
    }
    return { text, finishReason, usage, ttftMs, durationMs: performance.now() - started };
  } catch (err) {
    const partial = { text, ttftMs, durationMs: performance.now() - started };
    if (deadline.signal.aborted) {
      throw new LlmFailure(new GatewayError('GENERATION_TIMEOUT', `no complete reply within ${req.timeoutMs} ms`, { cause: err }), partial);
    }
    const detail = err instanceof OpenAI.APIError ? `status ${err.status ?? 'none'}: ${err.message}` : String(err);
    throw new LlmFailure(new GatewayError('LLM_SERVICE_ERROR', `LLM call failed (${detail})`, { cause: err }), partial);
  } finally {
    clearTimeout(timer);
  }
}

/** A failed call, with whatever text had streamed before it failed. */
export class LlmFailure extends Error {
  constructor(
    readonly error: GatewayError,
    readonly partial: { text: string; ttftMs?: number; durationMs: number },
  ) {
    super(error.message);
    this.name = 'LlmFailure';
  }
}
