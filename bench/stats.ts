// Percentiles and ratios over plain millisecond samples.
import { percentile as nearestRank, sortedFinite } from '../src/stats/percentiles.js';

/** Nearest-rank percentile (p in (0, 100], the rule of src/stats) of unsorted samples; NaN when empty. */
export function percentile(samples: readonly number[], p: number): number {
  return nearestRank(sortedFinite(samples), p) ?? NaN;
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

export function summarize(samples: readonly number[]): Summary {
  const mean = samples.length === 0 ? NaN : samples.reduce((a, b) => a + b, 0) / samples.length;
  return { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), mean };
}

/** Items per second over a wall-clock span in milliseconds. */
export const perSecond = (count: number, spanMs: number): number => (count * 1000) / spanMs;

/** Runs `f` n times one after another; each call's wall time in milliseconds. */
export async function timed(n: number, f: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f(i);
    out.push(performance.now() - t);
  }
  return out;
}
