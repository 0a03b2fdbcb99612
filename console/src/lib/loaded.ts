// Loading for views: a loader keyed by what it depends on, with reload and optional polling.
// Polls never overlap (the next starts after the last settled), and a failure stays visible in
// `error` (views show it where the data would be); a transient one is retried with backoff.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { isTransient } from './api.js';
import { backoffMs } from './net.js';

export interface LoadState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

export interface LoadOptions {
  pollMs?: number;
  skip?: boolean;
}

/** `key` names everything `loader` depends on: a new key loads afresh. */
export function useLoaded<T>(loader: () => Promise<T>, key: string, o: LoadOptions = {}): LoadState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(!o.skip);
  const latest = useRef(0);
  const loadNow = useRef(loader);
  loadNow.current = loader;

  /** One load; resolves with its error (undefined when it succeeded or was overtaken). */
  const load = useCallback(async (): Promise<unknown> => {
    if (o.skip) return undefined;
    const seq = ++latest.current;
    setLoading(true);
    try {
      const d = await loadNow.current();
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
  }, [key, o.skip]);

  // A reload asked for by an older render (an action that finished after the filters changed)
  // loads what the view shows now, so its answer never replaces the newer view with the older one.
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
