// Which provider of the chain answered a call and which it passed over, as the trace records
// it: labels are the server's host and the model, never a key or a full URL.

/** Why a provider was passed over: an HTTP status (429, 5xx), no first token in time, a refused or broken connection, or resting after a failure. */
export type SkipReason = 'status' | 'timeout' | 'refused' | 'reset' | 'cooling_down';

export interface ProviderSkip {
  /** `host model` of the provider. */
  provider: string;
  reason: SkipReason;
  /** The HTTP status, when `reason` is `status`. */
  status?: number;
}

/**
 * Named apart from a task's own `skipped` (work not done, which health does not count as a
 * call): these are providers passed over for a call that was made.
 */
export interface Route {
  /** The provider that answered (or, for a failed call, failed last). */
  provider: string;
  providersSkipped: ProviderSkip[];
}

/** The route of a result or failure as trace fields; nothing for a call made without the chain. */
export function routeData(r: Partial<Route> | undefined): Partial<Route> {
  if (!r?.provider) return {};
  return { provider: r.provider, providersSkipped: r.providersSkipped ?? [] };
}
