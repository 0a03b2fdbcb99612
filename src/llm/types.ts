// The LLM port. The conversation is kept in Chat Completions message shape (the common
// denominator of OpenAI-compatible servers); the Responses client converts it.
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { GatewayError } from '../errors.js';
import type { ProviderSkip, Route } from './route.js';

export type LlmMessage = ChatCompletionMessageParam;

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model produced it (may be malformed). */
  arguments: string;
}

export interface CompletionRequest {
  model: string;
  messages: LlmMessage[];
  tools?: ToolSpec[];
  /** Aborted on timeout or user interrupt; the reason is kept on the failure. */
  signal: AbortSignal;
  onDelta(delta: string): void;
  /** The model accepted the request: its response began (not called when the call fails first). */
  onOpen?(): void;
  /** The first token (text or a tool call's) arrived: from here a failure is not tried elsewhere. */
  onFirstToken?(): void;
  /** Ask for a JSON object (background tasks: memory extraction, summaries, consolidation). */
  json?: boolean;
  /** Longest answer, in tokens (`max_tokens` / `max_output_tokens`); absent: the server's own limit. */
  maxOutputTokens?: number;
  /** Sampling temperature (an agent's own, 0–2); absent: the server's default, as nothing is sent. */
  temperature?: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface CompletionResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  /** The answer stopped at `maxOutputTokens` (chat: finish_reason `length`; responses: incomplete, max_output_tokens). */
  truncated?: boolean;
  usage?: Usage;
  /** Milliseconds from request to the first streamed token; undefined when none came. */
  ttftMs?: number;
  durationMs: number;
  /** Which provider answered (host of its server and model, no secrets); set by the provider chain. */
  provider?: string;
  /** Providers passed over before it, and why. */
  providersSkipped?: ProviderSkip[];
  /** Tools were left out: this model refuses them (remembered per provider and model). */
  toolsOmitted?: boolean;
}

export interface LlmClient {
  readonly api: 'chat' | 'responses';
  complete(req: CompletionRequest): Promise<CompletionResult>;
}

/** Why we stopped a call: the generation timeout, the user's /stop, or a room's answer deadline. */
export type AbortReason = 'timeout' | 'interrupted' | 'deadline';

/** A failed call, with whatever text had streamed before it failed. */
export class LlmFailure extends Error {
  constructor(
    readonly error: GatewayError,
    readonly partial: { text: string; ttftMs?: number; durationMs: number },
    /** Set when we stopped the call ourselves rather than the service failing. */
    readonly aborted?: AbortReason,
    /** Which provider failed last and which were passed over (the provider chain's calls). */
    readonly route?: Route,
  ) {
    super(error.message);
    this.name = 'LlmFailure';
  }
}

const ABORT_MESSAGES: Record<AbortReason, string> = {
  timeout: 'the reply took too long',
  interrupted: 'stopped by the user',
  deadline: "the room's answer deadline passed",
};

/** Maps an exception from a streaming call to an LlmFailure with our codes. */
export function toLlmFailure(
  err: unknown,
  signal: AbortSignal,
  partial: LlmFailure['partial'],
  describe: (e: unknown) => string,
): LlmFailure {
  if (err instanceof LlmFailure) return err;
  if (signal.aborted) {
    const why: unknown = signal.reason;
    const reason: AbortReason = why === 'interrupted' || why === 'deadline' ? why : 'timeout';
    const code = reason === 'timeout' ? 'GENERATION_TIMEOUT' : 'GENERATION_ABORTED';
    return new LlmFailure(new GatewayError(code, ABORT_MESSAGES[reason], { cause: err }), partial, reason);
  }
  return new LlmFailure(
    new GatewayError('LLM_SERVICE_ERROR', `LLM call failed (${describe(err)})`, { cause: err }),
    partial,
  );
}
