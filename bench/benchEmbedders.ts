// Embedders the recall benches wrap around the offline one: its vectors fused as an embeddings
// API's would be, and an API that is down (keyword-only recall); and recall without word vectors.
import type { Embedder } from '../src/memory/embedder.js';
import type { WordVectorSource } from '../src/memory/wordVectorsLoader.js';

/** No word vectors: keyword-only recall as it was before them (and as it is until they load). */
export const NO_WORD_VECTORS: WordVectorSource = {
  get: () => undefined,
  ready: () => Promise.resolve(undefined),
  error: undefined,
};

/**
 * The offline embedder's vectors with recall fusing them (Embedder.lexical unset), as it fuses an
 * embeddings API's: the recall column then pays the vector scan at every size.
 */
export class FusedVectors implements Embedder {
  constructor(private readonly inner: Embedder) {}
  get id(): string {
    return this.inner.id;
  }
  get dims(): number {
    return this.inner.dims;
  }
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.inner.embed(texts, signal);
  }
}

/** The offline embedder's id and size, failing like an API that is down. */
export class DownEmbedder implements Embedder {
  constructor(private readonly like: Embedder) {}
  get id(): string {
    return this.like.id;
  }
  get dims(): number {
    return this.like.dims;
  }
  embed(): Promise<Float32Array[]> {
    return Promise.reject(new Error('embeddings API down (bench)'));
  }
}
