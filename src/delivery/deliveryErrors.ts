// What to do about a failed platform call, from the port's errors (adapters translate their
// client's errors into PlatformRateLimitedError and PlatformCallError), a generic HTTP status,
// or a network failure anywhere in the cause chain.
import { PlatformCallError, PlatformRateLimitedError } from './outbound.js';
import type { DeliveryFailure } from '../domain/deliveryFailure.js';
import { causeChain, fieldOf as field, isNetworkFailure } from '../networkErrors.js';

/** An HTTP status a client put on its error (`status` / `statusCode`), for errors not from an adapter. */
function statusOf(err: unknown): number | undefined {
  if (err instanceof PlatformCallError) return err.status;
  for (const key of ['status', 'statusCode']) {
    const v = field(err, key);
    if (typeof v === 'number' && v >= 100 && v < 600) return v;
  }
  return undefined;
}

export function classifyDeliveryError(err: unknown): DeliveryFailure {
  for (const current of causeChain(err)) {
    if (current instanceof PlatformRateLimitedError) {
      return { kind: 'rate_limited', retryAfterMs: current.retryAfterMs, global: current.global };
    }
    const status = statusOf(current);
    if (status === 429) return { kind: 'rate_limited', retryAfterMs: 1000, global: false };
    if (status !== undefined) return status >= 500 || status === 408 ? { kind: 'transient' } : { kind: 'permanent' };
    // The request got no answer: the network, a timeout.
    if (current instanceof PlatformCallError || isNetworkFailure(current)) return { kind: 'transient' };
    const name = field(current, 'name');
    if (name === 'AbortError' || name === 'TimeoutError' || name === 'FetchError') return { kind: 'transient' };
  }
  return { kind: 'permanent' };
}
