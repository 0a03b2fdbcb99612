import { describe, expect, it } from 'vitest';
import { latencySummary, percentile, sortedFinite } from '../../src/stats/percentiles.js';

describe('percentiles (nearest rank)', () => {
  it('picks observed values', () => {
    const s = sortedFinite([15, 20, 35, 40, 50]);
    expect(percentile(s, 5)).toBe(15);
    expect(percentile(s, 30)).toBe(20);
    expect(percentile(s, 40)).toBe(20);
    expect(percentile(s, 50)).toBe(35);
    expect(percentile(s, 100)).toBe(50);
  });

  it('of 1..100 are the rank itself', () => {
    const s = sortedFinite(Array.from({ length: 100 }, (_, i) => 100 - i));
    expect([percentile(s, 50), percentile(s, 90), percentile(s, 99)]).toEqual([50, 90, 99]);
  });

  it('sort numerically (not as strings) and drop values that are not durations', () => {
    expect(Array.from(sortedFinite([100, 9, 20, Number.NaN, Infinity]))).toEqual([9, 20, 100]);
  });

  it('are null for no values and reject p outside (0, 100]', () => {
    expect(percentile([], 50)).toBeNull();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it('summarise reply latencies', () => {
    expect(latencySummary([300, 100, 200])).toEqual({ count: 3, p50: 200, p90: 300, p99: 300, max: 300 });
    expect(latencySummary([])).toEqual({ count: 0, p50: null, p90: null, p99: null, max: null });
  });
});
