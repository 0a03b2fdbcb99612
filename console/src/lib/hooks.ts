// Data loading for pages: a GraphQL query keyed by its variables, with reload and optional
// polling, over the loading loop of lib/loaded.ts (polls never overlap, failures stay visible).
import { useCallback, useEffect, useRef } from 'preact/hooks';
import { gql, type GqlArgs } from './api.js';
import type { TadaDocumentNode } from './graphql.js';
import { useLoaded, type LoadOptions, type LoadState } from './loaded.js';

export type QueryState<T> = LoadState<T>;
export type QueryOptions = LoadOptions;

/** A document's variables, then the options; the variables may be left out when none is required. */
type QueryArgs<V> = object extends V ? [variables?: V, o?: QueryOptions] : [variables: V, o?: QueryOptions];

export function useQuery<T, V>(query: TadaDocumentNode<T, V>, ...[variables, o = {}]: QueryArgs<V>): QueryState<T> {
  const key = JSON.stringify(variables ?? {});
  // `key` is the JSON of the variables the caller passed, checked against the document there.
  return useLoaded(() => gql(query, ...([JSON.parse(key)] as GqlArgs<V>)), key, o);
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
