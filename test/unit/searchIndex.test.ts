// The search index's pure parts: packing postings, merging, intersecting, windows, terms and buckets.
import { describe, expect, it } from 'vitest';
import {
  mergePostings,
  packPostings,
  PostingsCursor,
  unpackPostings,
  withinWindow,
  type Posting,
} from '../../src/search/postings.js';
import { TermCursor } from '../../src/search/termCursor.js';
import {
  bucketOf,
  BUCKETS,
  dayTerm,
  dayTerms,
  dialogueTerm,
  messageTerms,
  pickSpread,
} from '../../src/search/indexTerms.js';
import { gapGrams } from '../../src/search/searchKeys.js';

const p = (at: number, id: string): Posting => ({ at, id });

describe('postings', () => {
  it('pack and unpack to the same list, ids with separators included', () => {
    const list = [p(1_700_000_000_000, 'msg_a'), p(1_700_000_000_000, 'msg_b'), p(1_700_000_123_456, 'x, y%z 1')];
    const packed = packPostings(list);
    expect(unpackPostings(packed)).toEqual(list);
    expect(packed).not.toContain('x, y');
    expect(unpackPostings('')).toEqual([]);
    expect(packPostings([])).toBe('');
  });

  it('store time as deltas, so a term’s list stays small', () => {
    const list = Array.from({ length: 100 }, (_, i) => p(1_700_000_000_000 + i * 1000, `m${i}`));
    expect(packPostings(list).length).toBeLessThan(100 * 8);
  });

  it('merge sorted lists into one sorted list without repeats', () => {
    const a = [p(1, 'a'), p(3, 'c'), p(5, 'e')];
    const b = [p(2, 'b'), p(3, 'c'), p(6, 'f')];
    expect(mergePostings(a, b)).toEqual([p(1, 'a'), p(2, 'b'), p(3, 'c'), p(5, 'e'), p(6, 'f')]);
    expect(mergePostings([], [p(1, 'a'), p(1, 'a')])).toEqual([p(1, 'a')]);
  });

  it('keep a window since inclusive, until exclusive', () => {
    const list = [p(1, 'a'), p(2, 'b'), p(3, 'c')];
    expect(withinWindow(list, 2, 3)).toEqual([p(2, 'b')]);
    expect(withinWindow(list)).toEqual(list);
    expect(withinWindow(list, undefined, 2)).toEqual([p(1, 'a')]);
  });
});

describe('index terms', () => {
  const at = Date.UTC(2026, 2, 1, 12);
  it('file a message under its bigrams, its dialogue and its day', () => {
    const terms = messageTerms({ _id: 'm', dialogueId: 'dlg_1', content: '你好 Hi', createdAt: new Date(at) });
    expect(terms).toEqual(['你好', '好 ', ' h', 'hi', 'g:你好 hi', 'd:dlg_1', 't:2026-03-01']);
    expect(dialogueTerm('x')).toBe('d:x');
    expect(dayTerm(at)).toBe('t:2026-03-01');
  });

  it('file the spans around word gaps, which a phrase of common words narrows by', () => {
    expect(gapGrams('Watch a MOVIE tonight')).toEqual(['ie to']); // "a" is too short on both sides
    expect(gapGrams('we  go')).toEqual([]); // two spaces: no single gap
    expect(gapGrams('周末 一起 去看')).toEqual(['周末 一起', '一起 去看']);
    expect(gapGrams('movie')).toEqual([]);
  });

  it('name every day a window touches', () => {
    const day = 86_400_000;
    expect(dayTerms(at, at + 2 * day)).toEqual(['t:2026-03-01', 't:2026-03-02', 't:2026-03-03']);
    expect(dayTerms(at, at + 1)).toEqual(['t:2026-03-01']);
  });

  it('hash into a fixed range, the same way every time', () => {
    const seen = new Set<number>();
    for (const t of ['你好', 'hi', 'd:dlg_1', 'zz', '::']) {
      const b = bucketOf(t);
      expect(b).toBe(bucketOf(t));
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThan(BUCKETS);
      seen.add(b);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('pick a few query bigrams spread over a long query, first and last included', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const picked = pickSpread(items, 5);
    expect(picked).toHaveLength(5);
    expect(picked[0]).toBe(0);
    expect(picked.at(-1)).toBe(19);
    expect(pickSpread([1, 2], 5)).toEqual([1, 2]);
  });
});

describe('walking a list newest first', () => {
  const list = [p(10, 'a'), p(20, 'b'), p(20, 'c'), p(30, 'd'), p(40, 'e')];

  it('packs the newest entry first, so a search reads only the start of a long list', () => {
    expect(packPostings(list).startsWith('14 e,')).toBe(true); // 40 in base 36, then distances
  });

  it('hands over a time range and stops at the first older posting, which the next range starts from', () => {
    const cursor = new PostingsCursor(packPostings(list));
    const first: Posting[] = [];
    cursor.take(20, 35, first); // 40 passed over (above the range), 30, then the two at 20
    expect(first).toEqual([p(30, 'd'), p(20, 'c'), p(20, 'b')]);
    const rest: Posting[] = [];
    cursor.take(-Infinity, 20, rest);
    expect(rest).toEqual([p(10, 'a')]);
    expect(cursor.next()).toBeUndefined();
  });

  it('ends a damaged list where it breaks instead of looping', () => {
    const out: Posting[] = [];
    new PostingsCursor('14 e,a').take(-Infinity, Infinity, out);
    expect(out).toEqual([p(40, 'e')]);
  });
});

describe('a term over several generations', () => {
  // Generations may overlap in time: the backfill folds old messages after new ones.
  const gens = [[p(1, 'a'), p(5, 'e'), p(9, 'i')], [p(2, 'b'), p(5, 'e'), p(7, 'g')], [p(3, 'c')]].map(packPostings);

  it('finds the floor of the next n postings across generations, without losing any to the next window', () => {
    const term = new TermCursor(gens);
    const floor = term.floorFor(3, Infinity);
    expect(floor).toBe(5); // 9, 7, 5 (5 in two generations, one message)
    expect(term.take(floor, Infinity).map((x) => x.id)).toEqual(['i', 'g', 'e']);
    expect(term.floorFor(10, floor)).toBe(-Infinity); // fewer than 10 left
    expect(term.take(-Infinity, floor).map((x) => x.id)).toEqual(['c', 'b', 'a']);
  });

  it('counts what a whole read of it costs', () => {
    expect(new TermCursor(gens).packedLength).toBe(gens.join('').length);
  });
});
