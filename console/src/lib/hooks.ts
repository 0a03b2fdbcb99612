// Data loading for pages: a GraphQL query keyed by its variables, with reload and optional polling.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { gql } from './api.js';

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

  const reload = useCallback(async () => {
    if (o.skip) return;
    const seq = ++latest.current;
    setLoading(true);
    try {
      const d = await gql<T>(query, JSON.parse(key) as Record<string, unknown>);
      // A slower answer to an older request must not overwrite a newer one.
      if (seq === latest.current) {
        setData(d);
        setError(undefined);
      }
    } catch (e) {
      if (seq === latest.current) setError(e);
    } finally {
      if (seq === latest.current) setLoading(false);
    }
  }, [query, key, o.skip]);

  useEffect(() => {
    void reload();
    if (!o.pollMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, o.pollMs);
    return () => clearInterval(timer);
  }, [reload, o.pollMs]);

  return { data, error, loading, reload };
}

/** Calls `fn` at most once per `ms` after the last call (live events arrive in bursts). */
export function useDebounced(fn: () => void, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const current = useRef(fn);
  current.current = fn;
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => current.current(), ms);
  }, [ms]);
}
