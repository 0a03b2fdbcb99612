// usearch's SIMD exact search (prebuilt binaries in the npm package), loaded once. Its absence
// (a platform without a prebuilt binary) is not an error: callers then scan in JavaScript.
import type usearchModule from 'usearch';

type Usearch = typeof usearchModule;

const usearch: Usearch | undefined = await import('usearch').then(
  (m) => m.default,
  () => undefined,
);

/** Whether the native scan is available here (reported by the recall benchmark). */
export const nativeScanAvailable = usearch !== undefined;

/**
 * Per query, the `count` rows of `dataset` (int8, `dims` per row) with the highest dot product,
 * best first; undefined when the native module is missing or fails.
 */
export function nativeExactSearch(
  dataset: Int8Array,
  queries: Int8Array,
  dims: number,
  count: number,
  queryCount: number,
): number[][] | undefined {
  if (!usearch || count <= 0) return undefined;
  try {
    // One thread: the gateway's other work shares the cores, and one pass is already a few ms.
    const found = usearch.exactSearch(dataset, queries, dims, count, usearch.MetricKind.IP, 1);
    if (queryCount === 1) return [Array.from(found.keys, Number)];
    const batch = found as InstanceType<Usearch['BatchMatches']>;
    return Array.from({ length: queryCount }, (_, i) => Array.from(batch.get(i).keys, Number));
  } catch {
    return undefined;
  }
}
