// The LoCoMo bench's intervals and per-conversation spread (bench/locomoSpread.ts).
import { describe, expect, it } from 'vitest';
import type { ScoredQuestion } from '../../bench/locomoScore.js';
import { bootstrapMean, coverageByConversation, coverageInterval, pairedGain } from '../../bench/locomoSpread.js';

/** A question with two evidence turns, of which the retriever's top 5 found `found`. */
const asked = (conversation: string, i: number, found: 0 | 1 | 2): ScoredQuestion => ({
  conversation,
  question: `q${i}`,
  category: 4,
  evidence: ['D1:1', 'D1:2'],
  ranked: [['D1:1', 'D1:2'].slice(0, found), ['D9:9']],
});

const alternating = (n: number, conversation = 'conv-1'): ScoredQuestion[] =>
  Array.from({ length: n }, (_, i) => asked(conversation, i, i % 2 === 0 ? 2 : 0));

describe('LoCoMo intervals', () => {
  it('brackets the mean, narrows with more questions, and repeats for the same seed', () => {
    const few = coverageInterval(alternating(40), 5);
    const many = coverageInterval(alternating(4000), 5);
    expect(few.value).toBe(50);
    expect(few.low).toBeLessThan(50);
    expect(few.high).toBeGreaterThan(50);
    expect(many.high - many.low).toBeLessThan((few.high - few.low) / 5);
    expect(coverageInterval(alternating(40), 5)).toEqual(few);
    expect(bootstrapMean([])).toEqual({ value: NaN, low: NaN, high: NaN });
  });

  it('gives no gain for a retriever paired with itself, and a gain above zero for one better on every question', () => {
    const base = Array.from({ length: 30 }, (_, i) => asked('conv-1', i, (i % 2) as 0 | 1));
    const better = base.map((q, i) => asked(q.conversation, i, ((i % 2) + 1) as 1 | 2));
    expect(pairedGain(base, base, 5)).toEqual({ value: 0, low: 0, high: 0 });
    const gain = pairedGain(better, base, 5);
    expect(gain.value).toBe(50);
    expect(gain.low).toBe(50); // every question gains one of its two turns: no spread at all
  });

  it('refuses to pair retrievers scored on different questions', () => {
    expect(() => pairedGain(alternating(3), alternating(4), 5)).toThrow(/same questions/);
    const shuffled = alternating(3).reverse();
    expect(() => pairedGain(alternating(3), shuffled, 5)).toThrow(/same questions/);
  });

  it('reports coverage per conversation in the order asked', () => {
    const questions = [...alternating(4, 'conv-b'), asked('conv-a', 9, 1)];
    expect(coverageByConversation(questions, 5)).toEqual([
      { conversation: 'conv-b', n: 4, coverage: 50 },
      { conversation: 'conv-a', n: 1, coverage: 50 },
    ]);
  });
});
