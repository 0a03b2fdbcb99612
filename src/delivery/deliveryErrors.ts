// What to do about a failed platform call, without knowing the adapter's client library: the
// port's PlatformRateLimitedError, or duck-typed HTTP statuses (grammY's error_code, discord.js's
// status) and Node/undici network error codes anywhere in the cause chain.
import { PlatformRateLimitedError } from './outbound.js';

export type DeliveryFailure =
  | { kind: 'rate_limited'; retryAfterMs: number; global: boolean }
  /** Worth retrying: the platform or the network had a moment (5xx, 408, reset, refused…). */
  | { kind: 'transient' }
  /** The platform refused the request (400s): retrying cannot help. */
  | { kind: 'permanent' };

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

const field = (v: unknown, key: string): unknown => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined);

function statusOf(err: unknown): number | undefined {
  for (const key of ['error_code', 'status', 'statusCode']) {
    const v = field(err, key);
    if (typeof v === 'number' && v >= 100 && v < 600) return v;
  }
  return undefined;
}

export function classifyDeliveryError(err: unknown): DeliveryFailure {
  // Follow cause / error (grammY's HttpError wraps the network error in `error`) a few levels.
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof PlatformRateLimitedError) return { kind: 'rate_limited', retryAfterMs: current.retryAfterMs, global: current.global };
    const status = statusOf(current);
    if (status === 429) {
      const seconds = field(field(current, 'parameters'), 'retry_after');
      return { kind: 'rate_limited', retryAfterMs: typeof seconds === 'number' ? seconds * 1000 : 1000, global: false };
    }
    if (status !== undefined) return status >= 500 || status === 408 ? { kind: 'transient' } : { kind: 'permanent' };
    const code = field(current, 'code');
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return { kind: 'transient' };
    const name = field(current, 'name');
    // grammY's HttpError is "the request did not get an answer" (network, timeout, bad JSON).
    if (name === 'HttpError' || name === 'AbortError' || name === 'TimeoutError' || name === 'FetchError') return { kind: 'transient' };
    current = field(current, 'cause') ?? field(current, 'error');
  }
  return { kind: 'permanent' };
}
