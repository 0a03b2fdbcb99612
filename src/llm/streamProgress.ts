// What both streaming clients (Chat Completions and Responses) keep while a reply streams in,
// and how a stream that fails, is aborted or breaks off becomes an LlmFailure carrying what had
// arrived: one rule for both APIs, so a failed call reports the same partial answer either way.
import { GatewayError } from '../errors.js';
import { describeApiError } from './describeError.js';
import { LlmFailure, toLlmFailure } from './types.js';

/** The reply's text so far and its timing, from the moment the call started. */
export class StreamProgress {
  text = '';
  ttftMs: number | undefined;
  private readonly started = performance.now();

  /** `onFirstToken`: told once, when the first token arrives (the provider chain stops its wait). */
  constructor(private readonly onFirstToken?: () => void) {}

  /** A token arrived (text or a tool call's): the first one sets the time to first token. */
  token(): void {
    if (this.ttftMs !== undefined) return;
    this.ttftMs = performance.now() - this.started;
    this.onFirstToken?.();
  }

  /** Text streamed in: kept, and counted as a token. */
  append(delta: string): void {
    this.token();
    this.text += delta;
  }

  elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** What had streamed when the call failed. */
  partial(): LlmFailure['partial'] {
    return { text: this.text, ttftMs: this.ttftMs, durationMs: this.elapsedMs() };
  }

  /** The stream threw: a timeout, the user's stop, or the service failing. */
  failed(err: unknown, signal: AbortSignal): LlmFailure {
    return toLlmFailure(err, signal, this.partial(), describeApiError);
  }

  /** Some servers end the stream cleanly when the client aborts; still an abort. */
  throwIfAborted(signal: AbortSignal): void {
    if (signal.aborted) throw this.failed(new Error('aborted'), signal);
  }

  /** The stream ended without its end marker: the connection broke mid-reply. */
  brokeOff(message: string): LlmFailure {
    return new LlmFailure(new GatewayError('LLM_SERVICE_ERROR', message), this.partial());
  }
}
