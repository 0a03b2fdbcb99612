// Nightly consolidation groups (pure): a k-nearest-neighbour graph over the entries' vectors,
// keeping only edges at or above a cosine threshold, and its connected components (union-find).
// Components of one entry have nothing to merge with and are left out.
import { dot, normalizeInPlace } from './vectors.js';

export interface Vectored {
  id: string;
  vector: Float32Array;
}

export interface ClusterOptions {
  /** Neighbours linked per entry. */
  k: number;
  /** Minimum cosine similarity of a link. */
  threshold: number;
}

// Tuned on the offline embedder: restatements of one fact score 0.65–1, unrelated short facts
// about the same user 0.2–0.35; OpenAI vectors spread similarly.
export const DEFAULT_CLUSTER_OPTIONS: ClusterOptions = { k: 5, threshold: 0.6 };

/** Clusters of at least two ids, each in input order; clusters ordered by their first member. */
export function clusterByKnn(items: Vectored[], o: ClusterOptions = DEFAULT_CLUSTER_OPTIONS): string[][] {
  const vs = items.map((it) => normalizeInPlace(Float32Array.from(it.vector)));
  const parent = items.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let i = 0; i < vs.length; i++) {
    const near: Array<{ j: number; s: number }> = [];
    for (let j = 0; j < vs.length; j++) {
      if (j === i) continue;
      const s = dot(vs[i]!, vs[j]!);
      if (s >= o.threshold) near.push({ j, s });
    }
    near.sort((a, b) => b.s - a.s);
    for (const { j } of near.slice(0, o.k)) union(i, j);
  }
  const groups = new Map<number, string[]>();
  items.forEach((it, i) => {
    const r = find(i);
    const g = groups.get(r) ?? [];
    g.push(it.id);
    groups.set(r, g);
  });
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, g]) => g)
    .filter((g) => g.length >= 2);
}

/** Splits a cluster into model calls of at most `max` entries, of even sizes (no lone leftover). */
export function chunkCluster(ids: string[], max = 12): string[][] {
  if (ids.length <= max) return [ids];
  const parts = Math.ceil(ids.length / max);
  const size = Math.ceil(ids.length / parts);
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}
