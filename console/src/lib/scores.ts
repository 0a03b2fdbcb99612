// Memory scores on one scale everywhere (Memories page, search hits, a trace's recall): a share
// from 0 to 100 %. Importance is already 0–1; recall's fused score has no fixed top, so it is
// shown as a share of the best match in the same recall.
export function percent(share: number, locale: string): string {
  const clamped = Math.min(1, Math.max(0, share));
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(clamped);
}

/** The best score of one recall's list (0 when there is none, so no share divides by it). */
export function bestScore(scores: Iterable<number>): number {
  let best = 0;
  for (const s of scores) if (s > best) best = s;
  return best;
}

export const relevanceShare = (score: number, best: number): number => (best > 0 ? score / best : 0);

/** Raw fused scores are small (about 0.01–0.05); four digits keep neighbours apart in the tooltip. */
export const rawScore = (score: number): string => score.toFixed(4);
