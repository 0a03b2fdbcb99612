// Similarity lookups for the write path: extraction and consolidation compare new texts with
// the scope's current memories (add / update / invalidate decisions) using the same cached
// index recall uses, and store vectors computed by the same embedder.
import type { MemoryEmbedding, MemoryKind } from '../domain/model.js';
import type { Embedder } from './embedder.js';
import type { IndexCache } from './indexCache.js';
import { toMemoryEmbedding } from './vectors.js';
import type { MemoryScope } from './versions.js';

export interface SimilarDeps {
  embedder: Embedder;
  cache: IndexCache;
}

export interface SimilarEntry {
  entry: { id: string; kind: MemoryKind; text: string; occurredAt: Date; importance: number };
  /** Cosine similarity, −1..1. */
  score: number;
}

/**
 * Per text, the k most similar active entries of the scope (best first). Texts are embedded in
 * one call; embedding failures throw GatewayError('EMBEDDING_FAILED') — the writer decides.
 */
export async function findSimilar(
  d: SimilarDeps,
  scope: MemoryScope,
  texts: string[],
  k: number,
  /** Only entries of this home (src/domain/memoryOrigin.ts `homeOf`); absent: all. */
  home?: string,
): Promise<SimilarEntry[][]> {
  if (texts.length === 0) return [];
  const [vectors, index] = await Promise.all([d.embedder.embed(texts), d.cache.get(scope)]);
  const filter = home === undefined ? undefined : { home };
  return vectors.map((v) =>
    index.search(v, k, filter).map(({ entry, score }) => ({
      entry: {
        id: entry.id,
        kind: entry.kind,
        text: entry.text,
        occurredAt: entry.occurredAt,
        importance: entry.importance,
      },
      score,
    })),
  );
}

/** Vectors to store with new or rewritten entries (one embed call). */
export async function embedTexts(embedder: Embedder, texts: string[]): Promise<MemoryEmbedding[]> {
  if (texts.length === 0) return [];
  const vectors = await embedder.embed(texts);
  return vectors.map((v) => toMemoryEmbedding(embedder.id, v));
}
