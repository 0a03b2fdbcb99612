import { describe, expect, it } from 'vitest';
import { rankFused, recencyDecay, reciprocalRankFusion } from '../../src/memory/rrf.js';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (d: number): Date => new Date(now.getTime() - d * 86_400_000);

describe('reciprocalRankFusion', () => {
  it('sums 1/(60 + rank) over lists; found by several lists ranks first', () => {
    const f = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'd'],
      ['c', 'a'],
    ]);
    expect(f.get('a')).toBeCloseTo(1 / 61 + 1 / 62, 10);
    expect(f.get('c')).toBeCloseTo(1 / 63 + 1 / 61 + 1 / 61, 10);
    expect(
      [...f.entries()]
        .sort((x, y) => y[1] - x[1])
        .map(([id]) => id)
        .slice(0, 2),
    ).toEqual(['c', 'a']);
    // b and d are each found once at rank 2: a tie.
    expect(f.get('b')).toBeCloseTo(f.get('d') ?? 0, 12);
  });

  it('counts an id once per list', () => {
    expect(reciprocalRankFusion([['a', 'a', 'b']]).get('b')).toBeCloseTo(1 / 62, 10);
  });
});

describe('rankFused', () => {
  const entry = (id: string, ageDays: number, importance: number) =>
    [id, { id, occurredAt: daysAgo(ageDays), importance }] as const;

  it('relevance dominates: two lists beat one even when old and unimportant', () => {
    const fused = reciprocalRankFusion([['old'], ['old', 'fresh']]);
    const ranked = rankFused(fused, new Map([entry('old', 400, 0), entry('fresh', 0, 1)]), { now });
    expect(ranked.map((r) => r.candidate.id)).toEqual(['old', 'fresh']);
  });

  it('recency and importance break near-ties', () => {
    // Ranks 1 and 2 of one list: a recent important memory overtakes an old trivial one.
    const fused = reciprocalRankFusion([['stale', 'recent']]);
    const ranked = rankFused(fused, new Map([entry('stale', 365, 0.1), entry('recent', 1, 0.9)]), { now });
    expect(ranked.map((r) => r.candidate.id)).toEqual(['recent', 'stale']);
  });

  it('ties are broken by id, so the order is stable', () => {
    const fused = new Map([
      ['b', 0.01],
      ['a', 0.01],
    ]);
    const ranked = rankFused(fused, new Map([entry('b', 3, 0.5), entry('a', 3, 0.5)]), { now });
    expect(ranked.map((r) => r.candidate.id)).toEqual(['a', 'b']);
  });

  it('recency halves every half-life', () => {
    expect(recencyDecay(now, now, 30)).toBe(1);
    expect(recencyDecay(daysAgo(30), now, 30)).toBeCloseTo(0.5, 10);
    expect(recencyDecay(daysAgo(60), now, 30)).toBeCloseTo(0.25, 10);
    expect(recencyDecay(new Date(now.getTime() + 1000), now, 30)).toBe(1);
  });
});
