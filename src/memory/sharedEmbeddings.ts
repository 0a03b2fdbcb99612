// One embeddings call per turn, not one per retriever: memory recall and knowledge retrieval embed
// the same synthesised queries moments apart (knowledge's are a subset of recall's), so the
// vectors of texts embedded in the last few seconds — or still being embedded — are shared.
// Bounded by count and age; a failed call is forgotten, so the next caller tries again.
import type { Embedder } from './embedder.js';

interface Shared {
  vector: Promise<Float32Array>;
  at: number;
}

export class SharedEmbeddings implements Embedder {
  private readonly recent = new Map<string, Shared>();

  constructor(
    private readonly inner: Embedder,
    private readonly o: { maxTexts: number; maxAgeMs: number; now?: () => number } = {
      maxTexts: 256,
      maxAgeMs: 10_000,
    },
  ) {}

  get id(): string {
    return this.inner.id;
  }
  get dims(): number {
    return this.inner.dims;
  }
  get lexical(): boolean | undefined {
    return this.inner.lexical;
  }

  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const now = (this.o.now ?? Date.now)();
    const missing = [...new Set(texts.filter((t) => !this.fresh(t, now)))];
    if (missing.length > 0) this.start(missing, now, signal);
    return Promise.all(texts.map((t) => this.recent.get(t)!.vector));
  }

  private fresh(text: string, now: number): boolean {
    const s = this.recent.get(text);
    return s !== undefined && now - s.at <= this.o.maxAgeMs;
  }

  private start(texts: string[], now: number, signal?: AbortSignal): void {
    const call = this.inner.embed(texts, signal);
    texts.forEach((text, i) => {
      const vector = call.then((v) => v[i] ?? Promise.reject(new Error(`no vector for text ${i}`)));
      // Forgotten on failure; the caller still sees the rejection through its own promise.
      vector.catch(() => {
        if (this.recent.get(text)?.vector === vector) this.recent.delete(text);
      });
      this.recent.delete(text);
      this.recent.set(text, { vector, at: now });
    });
    while (this.recent.size > this.o.maxTexts) this.recent.delete(this.recent.keys().next().value!);
  }
}
