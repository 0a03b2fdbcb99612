// Percentiles by the nearest-rank method (pure): the p-th percentile is the smallest value with at
// least p % of the values at or below it, so it is always an observed value (a real reply time).

/** Sorted copy, numerically ascending; NaN and infinities are dropped (they are not durations). */
export function sortedFinite(values: Iterable<number>): Float64Array {
  const kept: number[] = [];
  for (const v of values) if (Number.isFinite(v)) kept.push(v);
  return Float64Array.from(kept).sort();
}

/** Nearest-rank percentile of ascending `sorted`; null when empty. p is in (0, 100]. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LatencySummary {
  count: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
}

export function latencySummary(values: Iterable<number>): LatencySummary {
  const s = sortedFinite(values);
  return {
    count: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1]! : null,
  };
}
