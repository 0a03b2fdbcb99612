// What to do about a failed platform call, without knowing the adapter's client library: the
// port's PlatformRateLimitedError, or duck-typed HTTP statuses (grammY's error_code, discord.js's
// status) and Node/undici network error codes anywhere in the cause chain.
import { PlatformRateLimitedError } from './outbound.js';
import { causeChain, fieldOf as field, isNetworkFailure } from '../networkErrors.js';

export type DeliveryFailure =
  | { kind: 'rate_limited'; retryAfterMs: number; global: boolean }
  /** Worth retrying: the platform or the network had a moment (5xx, 408, reset, refused…). */
  | { kind: 'transient' }
  /** The platform refused the request (400s): retrying cannot help. */
  | { kind: 'permanent' };

function statusOf(err: unknown): number | undefined {
  for (const key of ['error_code', 'status', 'statusCode']) {
    const v = field(err, key);
    if (typeof v === 'number' && v >= 100 && v < 600) return v;
  }
  return undefined;
}

export function classifyDeliveryError(err: unknown): DeliveryFailure {
  for (const current of causeChain(err)) {
    if (current instanceof PlatformRateLimitedError)
      return { kind: 'rate_limited', retryAfterMs: current.retryAfterMs, global: current.global };
    const status = statusOf(current);
    if (status === 429) {
      const seconds = field(field(current, 'parameters'), 'retry_after');
      return { kind: 'rate_limited', retryAfterMs: typeof seconds === 'number' ? seconds * 1000 : 1000, global: false };
    }
    if (status !== undefined) return status >= 500 || status === 408 ? { kind: 'transient' } : { kind: 'permanent' };
    if (isNetworkFailure(current)) return { kind: 'transient' };
    const name = field(current, 'name');
    // grammY's HttpError is "the request did not get an answer" (network, timeout, bad JSON).
    if (name === 'HttpError' || name === 'AbortError' || name === 'TimeoutError' || name === 'FetchError')
      return { kind: 'transient' };
  }
  return { kind: 'permanent' };
}
