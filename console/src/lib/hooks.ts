// Data loading for pages: a GraphQL query keyed by its variables, with reload and optional polling.
// Polls never overlap (the next starts after the last settled), and a failure stays visible in
// `error` (pages show it where the data would be); a transient one is retried with backoff.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { gql, isTransient } from './api.js';
import { backoffMs } from './net.js';

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

export function useQuery<T>(
  query: string,
  variables: Record<string, unknown> = {},
  o: { pollMs?: number; skip?: boolean } = {},
): QueryState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(!o.skip);
  const key = JSON.stringify(variables);
  const latest = useRef(0);

  /** One load; resolves with its error (undefined when it succeeded or was overtaken). */
  const load = useCallback(async (): Promise<unknown> => {
    if (o.skip) return undefined;
    const seq = ++latest.current;
    setLoading(true);
    try {
      const d = await gql<T>(query, JSON.parse(key) as Record<string, unknown>);
      // A slower answer to an older request must not overwrite a newer one.
      if (seq === latest.current) {
        setData(d);
        setError(undefined);
      }
      return undefined;
    } catch (e) {
      if (seq === latest.current) setError(e);
      return e;
    } finally {
      if (seq === latest.current) setLoading(false);
    }
  }, [query, key, o.skip]);

  // A reload asked for by an older render (an action that finished after the filters changed)
  // loads what the page shows now, so its answer never replaces the newer view with the older one.
  const current = useRef(load);
  current.current = load;
  const reload = useCallback(async () => void (await current.current()), []);

  useEffect(() => {
    if (o.skip) return;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      // A hidden tab skips its polls (a retry after a failure still runs).
      const skipped = !!o.pollMs && !failures && document.visibilityState !== 'visible';
      const err = skipped ? undefined : await load();
      if (stopped) return;
      failures = err !== undefined && isTransient(err) ? failures + 1 : 0;
      const wait = failures ? backoffMs(failures) : o.pollMs;
      if (wait) timer = setTimeout(() => void tick(), wait);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [load, o.pollMs, o.skip]);

  return { data, error, loading, reload };
}

/**
 * Calls `fn` once calls pause for `ms` (live events arrive in bursts), but at the latest `maxMs`
 * after the first call of a burst, so a steady stream (a reply's chunks) still shows as it goes.
 */
export function useDebounced(fn: () => void, ms: number, maxMs = ms): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const since = useRef<number | undefined>(undefined);
  const current = useRef(fn);
  current.current = fn;
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    const now = Date.now();
    since.current ??= now;
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => {
        since.current = undefined;
        current.current();
      },
      Math.max(0, Math.min(ms, since.current + maxMs - now)),
    );
  }, [ms, maxMs]);
}
