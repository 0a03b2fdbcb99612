// LoCoMo's retrieval metrics (the paper's, see ../shared/data/README.md), pure: per question the
// top k recalled memories stand for the union of their dia_ids; hit@k = at least one evidence
// dia_id among them, coverage@k = the share of the question's evidence dia_ids among them.
// Averaged over questions, per category and overall, in percent.
import type { LocomoCategory } from './locomoData.js';

export const LOCOMO_KS = [5, 10] as const;

/** One question's outcome for one retriever: the evidence ids of its ranked memories. */
export interface ScoredQuestion {
  /** The conversation asked about, and the question (pairs two retrievers' answers). */
  conversation: string;
  question: string;
  category: LocomoCategory;
  evidence: readonly string[];
  /** Per recalled memory, best first, the dia_ids it stands for. */
  ranked: ReadonlyArray<readonly string[]>;
}

export interface Scores {
  n: number;
  /** k → percent. */
  hit: Record<number, number>;
  coverage: Record<number, number>;
}

/** hit@k (0 or 1) and coverage@k (0..1) of one question. */
export function questionScores(q: ScoredQuestion, k: number): { hit: number; coverage: number } {
  const found = new Set(q.ranked.slice(0, k).flat());
  const covered = q.evidence.filter((e) => found.has(e)).length;
  return { hit: covered > 0 ? 1 : 0, coverage: q.evidence.length === 0 ? 0 : covered / q.evidence.length };
}

export function aggregate(questions: readonly ScoredQuestion[]): Scores {
  const hit: Record<number, number> = {};
  const coverage: Record<number, number> = {};
  for (const k of LOCOMO_KS) {
    let h = 0;
    let c = 0;
    for (const q of questions) {
      const s = questionScores(q, k);
      h += s.hit;
      c += s.coverage;
    }
    hit[k] = questions.length === 0 ? NaN : (100 * h) / questions.length;
    coverage[k] = questions.length === 0 ? NaN : (100 * c) / questions.length;
  }
  return { n: questions.length, hit, coverage };
}

/** Scores per category (in the paper's order) and 'all'. */
export function byCategory(questions: readonly ScoredQuestion[]): Map<LocomoCategory | 'all', Scores> {
  const out = new Map<LocomoCategory | 'all', Scores>();
  for (const c of [1, 2, 3, 4] as const) out.set(c, aggregate(questions.filter((q) => q.category === c)));
  out.set('all', aggregate(questions));
  return out;
}
