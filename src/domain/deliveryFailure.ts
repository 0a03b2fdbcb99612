// What a failed platform call calls for, as the delivery rules and the metrics port both name it.
export type DeliveryFailure =
  | { kind: 'rate_limited'; retryAfterMs: number; global: boolean }
  /** Worth retrying: the platform or the network had a moment (5xx, 408, reset, refused…). */
  | { kind: 'transient' }
  /** The platform refused the request (400s): retrying cannot help. */
  | { kind: 'permanent' };
