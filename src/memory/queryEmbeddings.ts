// Query embeddings within a latency budget, shared by memory recall and knowledge retrieval: all
// queries in one call, given up after `timeoutMs` (or on the caller's abort) so the search can
// fall back to keywords instead of delaying the reply. Never throws: a failure is returned.
import type { Embedder } from './embedder.js';

export type EmbeddedQueries = { vectors: Float32Array[]; ms: number } | { error: unknown; ms: number };

export async function embedQueries(
  embedder: Embedder,
  queries: string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<EmbeddedQueries> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    // The race guards against an embedder that ignores its signal.
    const vectors = await Promise.race([embedder.embed(queries, both), rejectOnAbort(both)]);
    if (vectors.length !== queries.length)
      throw new Error(`embedder returned ${vectors.length} vectors for ${queries.length} queries`);
    return { vectors, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}
