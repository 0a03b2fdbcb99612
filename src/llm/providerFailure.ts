// What a provider's failure means for the chain (src/llm/providerChain.ts), read from the
// `openai` client's errors wherever they sit in the cause chain: worth trying the next provider
// (429, 5xx, a timeout, a refused or broken connection), a model refusing tools (Ollama, vLLM
// without a tool parser), or an embeddings endpoint the server does not have.
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { fieldOf, isNetworkFailure } from '../networkErrors.js';
import type { SkipReason } from './route.js';

/** Failures wrap each other (LlmFailure → GatewayError → APIError → fetch error → socket error). */
function* chain(err: unknown): Generator<unknown> {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    yield current;
    current = fieldOf(current, 'cause') ?? (current instanceof APIError ? undefined : fieldOf(current, 'error'));
  }
}

/** The HTTP answer's error, when the failure was one. */
export function httpErrorOf(err: unknown): { status: number; message: string } | undefined {
  for (const e of chain(err))
    if (e instanceof APIError && typeof e.status === 'number') return { status: e.status, message: e.message };
  return undefined;
}

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Why the next provider should be tried; undefined: the failure is the request's own (a 400, say). */
export function failoverReason(
  err: unknown,
): { reason: Exclude<SkipReason, 'cooling_down'>; status?: number } | undefined {
  const http = httpErrorOf(err);
  if (http) return http.status === 429 || http.status >= 500 ? { reason: 'status', status: http.status } : undefined;
  for (const e of chain(err)) {
    if (e instanceof APIConnectionTimeoutError) return { reason: 'timeout' };
    const code = fieldOf(e, 'code');
    if (code === 'ECONNREFUSED') return { reason: 'refused' };
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return { reason: 'timeout' };
  }
  if (isNetworkFailure(err)) return { reason: 'reset' };
  for (const e of chain(err)) if (e instanceof APIConnectionError) return { reason: 'reset' };
  return undefined;
}

// Ollama: "<model> does not support tools"; vLLM without a tool parser: "\"auto\" tool choice
// requires --enable-auto-tool-choice and --tool-call-parser to be set".
const TOOLS_REFUSED = /does not support tools|tool choice requires|--enable-auto-tool-choice|--tool-call-parser/i;

/** A 400 whose message says the model takes no tools: the same call without them will do. */
export function refusesTools(err: unknown): boolean {
  const http = httpErrorOf(err);
  return http?.status === 400 && TOOLS_REFUSED.test(http.message);
}

// Ollama: `model "text-embedding-3-small" not found, try pulling it first`; vLLM serving a chat
// model: "The model does not support Embeddings API".
const NO_EMBEDDINGS = /not found|does not exist|no such model|unknown model|does not support embeddings/i;

/** The server has no embeddings endpoint, or not for this model: asking again will not help. */
export function embeddingsMissing(err: unknown): boolean {
  const http = httpErrorOf(err);
  if (!http) return false;
  return http.status === 404 || http.status === 405 || (http.status === 400 && NO_EMBEDDINGS.test(http.message));
}

/** A short, secret-free line for health and logs. */
export function failureLine(err: unknown): string {
  const http = httpErrorOf(err);
  const text = http ? http.message : err instanceof Error ? err.message : String(err);
  return text.slice(0, 300);
}
