// How far one run's LoCoMo figures can be trusted (pure): a percentile bootstrap over the
// questions (Efron & Tibshirani) gives a 95 % interval for a retriever's coverage@k and for the
// paired gain of one retriever over another (each resample asks both the same questions, so the
// questions' own difficulty cancels out); per conversation, coverage@k shows the spread a
// held-out conversation can be expected to fall in. Resampling is seeded: a run is repeatable.
import { mulberry32 } from '../test/support/prng.js';
import { questionScores, type ScoredQuestion } from './locomoScore.js';

export interface Interval {
  /** The figure itself, in percent. */
  value: number;
  /** The 95 % interval's bounds, in percent. */
  low: number;
  high: number;
}

export const RESAMPLES = 2_000;

/** The mean of `values` (0..1 each) and its 95 % percentile bootstrap interval, in percent. */
export function bootstrapMean(values: readonly number[], o: { resamples?: number; seed?: number } = {}): Interval {
  const n = values.length;
  if (n === 0) return { value: NaN, low: NaN, high: NaN };
  const resamples = o.resamples ?? RESAMPLES;
  const random = mulberry32(o.seed ?? 1);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const at = (q: number): number => 100 * means[Math.min(resamples - 1, Math.floor(q * resamples))]!;
  return { value: (100 * values.reduce((a, b) => a + b, 0)) / n, low: at(0.025), high: at(0.975) };
}

const coverages = (questions: readonly ScoredQuestion[], k: number): number[] =>
  questions.map((q) => questionScores(q, k).coverage);

/** coverage@k over the questions, with its interval. */
export function coverageInterval(questions: readonly ScoredQuestion[], k: number): Interval {
  return bootstrapMean(coverages(questions, k));
}

/** coverage@k of `a` minus that of `b` over the same questions (in the same order), with its interval. */
export function pairedGain(a: readonly ScoredQuestion[], b: readonly ScoredQuestion[], k: number): Interval {
  if (a.length !== b.length || a.some((q, i) => q.question !== b[i]!.question))
    throw new Error('paired retrievers must be scored on the same questions, in the same order');
  const ca = coverages(a, k);
  const cb = coverages(b, k);
  return bootstrapMean(ca.map((x, i) => x - cb[i]!));
}

/** coverage@k per conversation, in the order the conversations were asked. */
export function coverageByConversation(
  questions: readonly ScoredQuestion[],
  k: number,
): Array<{ conversation: string; n: number; coverage: number }> {
  const sums = new Map<string, { n: number; sum: number }>();
  for (const q of questions) {
    const s = sums.get(q.conversation) ?? { n: 0, sum: 0 };
    s.n++;
    s.sum += questionScores(q, k).coverage;
    sums.set(q.conversation, s);
  }
  return [...sums].map(([conversation, s]) => ({ conversation, n: s.n, coverage: (100 * s.sum) / s.n }));
}
