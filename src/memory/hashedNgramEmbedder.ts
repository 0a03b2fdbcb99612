// Offline embedder: feature hashing of character and word n-grams (textFeatures.ts) into a
// fixed number of signed buckets, sublinear term frequency, L2-normalised. Deterministic and
// local, so recall works with no API key; quality is lexical (shared words/characters), which
// is enough to find "lives in Berlin" from "where do I live".
import type { Embedder } from './embedder.js';
import { embeddingFeatures } from './textFeatures.js';
import { normalizeInPlace } from './vectors.js';

/** FNV-1a over UTF-16 code units with a seed; two seeds give the bucket and the sign. */
function fnv1a(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class HashedNgramEmbedder implements Embedder {
  readonly id: string;
  readonly lexical = true;

  constructor(readonly dims = 256) {
    if (!Number.isInteger(dims) || dims < 8) throw new RangeError(`embedder dims must be an integer ≥ 8, got ${dims}`);
    this.id = `hashed-ngram-v1-${dims}`;
  }

  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dims);
    for (const [feature, weight] of embeddingFeatures(text)) {
      const bucket = fnv1a(feature, 0) % this.dims;
      const sign = fnv1a(feature, 0x5bd1e995) & 1 ? 1 : -1;
      // Sublinear tf: a word said five times is not five times as relevant.
      v[bucket] = v[bucket]! + sign * (weight >= 1 ? 1 + Math.log(weight) : weight);
    }
    return normalizeInPlace(v);
  }

  embed(texts: string[], _signal?: AbortSignal): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((t) => this.embedOne(t)));
  }
}
