// Reciprocal rank fusion (pure): each ranked list gives an id 1 / (k + rank), times the list's
// weight; ids found by several queries or by both vector and keyword search rise. Recency and
// importance then nudge any relevance (fused, or one retriever's own scores) multiplicatively
// with small weights (≤ +20 % together), so they reorder near-ties but an entry found by two
// lists at a rank still beats one found by a single list at that rank.

export const RRF_K = 60;

/** Fused score per id over ranked lists (best first). An id repeated in one list counts once. */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly string[]>, k = RRF_K): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    const seen = new Set<string>();
    let rank = 0;
    for (const id of list) {
      if (seen.has(id)) continue;
      seen.add(id);
      rank++;
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank));
    }
  }
  return scores;
}

export interface BlendOptions {
  now: Date;
  /** Recency halves every this many days. */
  halfLifeDays: number;
  /** Max relative boost from recency (an entry from right now). */
  recencyWeight: number;
  /** Max relative boost from importance (importance 1). */
  importanceWeight: number;
}

export const DEFAULT_BLEND: Omit<BlendOptions, 'now'> = { halfLifeDays: 30, recencyWeight: 0.1, importanceWeight: 0.1 };

const DAY_MS = 86_400_000;

/** 1 for now (or the future), 0.5 one half-life ago, → 0 for very old. */
export function recencyDecay(occurredAt: Date, now: Date, halfLifeDays: number): number {
  const ageDays = Math.max(0, now.getTime() - occurredAt.getTime()) / DAY_MS;
  return halfLifeDays > 0 ? Math.pow(0.5, ageDays / halfLifeDays) : 0;
}

export interface Candidate {
  id: string;
  occurredAt: Date;
  importance: number;
}

/** Final ranking: fused relevance × (1 + recency boost + importance boost); ties by id. */
export function rankFused<T extends Candidate>(
  fused: ReadonlyMap<string, number>,
  candidates: ReadonlyMap<string, T>,
  o: Partial<Omit<BlendOptions, 'now'>> & { now: Date },
): Array<{ candidate: T; score: number }> {
  const b = { ...DEFAULT_BLEND, ...o };
  const out: Array<{ candidate: T; score: number }> = [];
  for (const [id, relevance] of fused) {
    const c = candidates.get(id);
    if (!c) continue;
    const importance = Math.min(1, Math.max(0, c.importance));
    const boost =
      1 + b.recencyWeight * recencyDecay(c.occurredAt, b.now, b.halfLifeDays) + b.importanceWeight * importance;
    out.push({ candidate: c, score: relevance * boost });
  }
  return out.sort(
    (x, y) => y.score - x.score || (x.candidate.id < y.candidate.id ? -1 : x.candidate.id > y.candidate.id ? 1 : 0),
  );
}

/** Reciprocal rank fusion with a weight per list (best first); an id repeated in one list counts once. */
export function weightedRankFusion(
  lists: ReadonlyArray<{ ids: readonly string[]; weight: number }>,
  k = RRF_K,
): Map<string, number> {
  const scores = new Map<string, number>();
  for (const { ids, weight } of lists)
    for (const [id, rrf] of reciprocalRankFusion([ids], k)) scores.set(id, (scores.get(id) ?? 0) + weight * rrf);
  return scores;
}
