// A newest-first search walks its lists back in time windows (src/store/indexSearch.ts): the
// windows together hold the intersection (and the messages not folded yet), newest first, each
// once, and the first window decodes only the newest part of a long list.
import { describe, expect, it } from 'vitest';
import { candidateWindows } from '../../src/store/indexSearch.js';
import { comparePostings, packPostings, type Posting } from '../../src/search/postings.js';
import { TermCursor } from '../../src/search/termCursor.js';

/** A deterministic corpus: 6 000 messages over ~70 days, several per millisecond now and then. */
const corpus: Posting[] = Array.from({ length: 6000 }, (_, i) => ({
  at: 1_700_000_000_000 + Math.floor(i / 3) * 3_000_000,
  id: `msg_${String(i).padStart(5, '0')}`,
}));
const every = (k: number, r: number) => corpus.filter((_, i) => i % k === r || i % 7 === 0);

/** A term's list split into generations that overlap in time (as the backfill leaves them). */
const term = (list: Posting[]) =>
  new TermCursor([list.filter((_, i) => i % 2 === 0), list.filter((_, i) => i % 2 === 1)].map(packPostings));

describe('time windows of a newest-first search', () => {
  const a = every(2, 0);
  const b = every(3, 1);
  const pending = [
    { at: corpus.at(-1)!.at + 10, id: 'late_1' },
    { at: corpus[10]!.at, id: 'late_2' },
  ];
  const truth = () => {
    const inB = new Set(b.map((p) => p.id));
    return [...a.filter((p) => inB.has(p.id)), ...pending].sort((x, y) => comparePostings(y, x));
  };

  it('together hold the intersection and the pending messages, newest first, each once', () => {
    const windows = [
      ...candidateWindows([term(b), term(a)], pending, { newest: true, top: Infinity, lowest: -Infinity }),
    ];
    expect(windows.length).toBeGreaterThan(1);
    const got = windows.flat();
    const wanted = new Set(truth().map((p) => p.id));
    expect(got.filter((p) => wanted.has(p.id))).toEqual(truth());
    expect(new Set(got.map((p) => p.id)).size).toBe(got.length);
    expect(got).toEqual([...got].sort((x, y) => comparePostings(y, x)));
    // Extras only where a window's candidates were already few (the longer list left undecoded).
    for (const w of windows) if (w.some((p) => !wanted.has(p.id))) expect(w.length).toBeLessThanOrEqual(64 + 2);
  });

  it('start with the newest few, so a page that fills early decodes little', () => {
    const first = candidateWindows([term(b), term(a)], pending, {
      newest: true,
      top: Infinity,
      lowest: -Infinity,
    }).next().value as Posting[];
    expect(first.length).toBeLessThan(truth().length / 4);
    expect(first).toEqual(truth().slice(0, first.length));
  });

  it('respect a time range and take everything in one window when oldest first', () => {
    const lowest = corpus[3000]!.at;
    const top = corpus[5000]!.at;
    const newest = [...candidateWindows([term(a), term(b)], [], { newest: true, top, lowest })].flat();
    const want = truth().filter((p) => p.at >= lowest && p.at < top && !p.id.startsWith('late'));
    expect(newest).toEqual(want);
    const oldest = [
      ...candidateWindows([term(a), term(b)], pending, { newest: false, top: Infinity, lowest: -Infinity }),
    ];
    expect(oldest).toHaveLength(1);
    expect(oldest[0]).toEqual([...truth()].reverse());
  });
});
