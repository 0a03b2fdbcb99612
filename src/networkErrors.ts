// Network failures any remote call can meet — a reset, a refused connection, a timeout — by the
// Node/undici error code anywhere in the error's cause chain. Delivery (src/delivery/
// deliveryErrors.ts) and ingest (src/inbound/handleInbound.ts) both retry them.
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

export const fieldOf = (v: unknown, key: string): unknown =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;

/** The error itself and what it wraps (`cause`, or `error` as grammY's HttpError has it), a few levels deep. */
export function* causeChain(err: unknown): Generator<unknown> {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    yield current;
    current = fieldOf(current, 'cause') ?? fieldOf(current, 'error');
  }
}

/** Whether this error (or one it wraps) is a network failure worth retrying. */
export function isNetworkFailure(err: unknown): boolean {
  for (const e of causeChain(err)) {
    const code = fieldOf(e, 'code');
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}
