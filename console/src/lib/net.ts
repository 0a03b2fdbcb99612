// How the console's requests reach the gateway: each one has a time limit, and whether the
// gateway answers at all (network errors, timeouts, 5xx) is tracked in one place so the shell can
// show "reconnecting…" while pages retry, instead of signing the operator out.
import { useEffect, useState } from 'preact/hooks';

/** How long one request may take before it counts as a network failure. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * fetch with a time limit (and an optional caller's signal). `settled` must be called once the
 * body has been read, so a slow body counts too; a streamed body calls it when headers arrive.
 */
export async function timedFetch(
  url: string,
  init: RequestInit,
  o: { signal?: AbortSignal | undefined; timeoutMs?: number } = {},
): Promise<{ res: Response; settled: () => void }> {
  const ctl = new AbortController();
  const timer = setTimeout(
    () => ctl.abort(new DOMException('timed out', 'TimeoutError')),
    o.timeoutMs ?? REQUEST_TIMEOUT_MS,
  );
  const forward = () => ctl.abort(o.signal?.reason);
  if (o.signal?.aborted) forward();
  o.signal?.addEventListener('abort', forward);
  const settled = () => {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', forward);
  };
  try {
    return { res: await fetch(url, { ...init, signal: ctl.signal }), settled };
  } catch (e) {
    settled();
    throw e;
  }
}

/** A failure worth retrying: the gateway was not reached, took too long, or failed itself. */
export const isTransientStatus = (status: number): boolean => status === 0 || status >= 500;

/** 1 s, 2 s, 4 s … capped at 30 s, for the n-th failure in a row (n ≥ 1). */
export const backoffMs = (failures: number): number => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));

type Listener = (down: boolean) => void;
const listeners = new Set<Listener>();
let down = false;

/** Every request reports whether the gateway answered; the banner follows the latest report. */
export function reportReachable(ok: boolean): void {
  if (down === !ok) return;
  down = !ok;
  for (const l of listeners) l(down);
}

/** Whether the latest request failed for a transient reason (the "reconnecting…" banner). */
export function useGatewayDown(): boolean {
  const [state, setState] = useState(down);
  useEffect(() => {
    setState(down);
    listeners.add(setState);
    return () => void listeners.delete(setState);
  }, []);
  return state;
}
