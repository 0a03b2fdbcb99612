import { Binary } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { cosine, dot, fromMemoryEmbedding, normalizeInPlace, toMemoryEmbedding } from '../../src/memory/vectors.js';

describe('stored vectors', () => {
  const vector = Float32Array.from([0.5, -0.25, 1e-7, 3.25, -1]);

  it('round-trips through Float32 little-endian bytes', () => {
    const e = toMemoryEmbedding('hashed-ngram-v1-5', vector);
    expect(e.model).toBe('hashed-ngram-v1-5');
    expect(e.vector.length).toBe(20);
    expect(Array.from(e.vector.subarray(0, 4))).toEqual([0, 0, 0, 63]); // 0.5f little-endian
    expect(Array.from(fromMemoryEmbedding(e)!)).toEqual(Array.from(vector));
  });

  it('decodes the BSON Binary the mongodb driver returns, and unaligned bytes', () => {
    const bytes = toMemoryEmbedding('m', vector).vector;
    expect(Array.from(fromMemoryEmbedding({ vector: new Binary(bytes) })!)).toEqual(Array.from(vector));
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(Array.from(fromMemoryEmbedding({ vector: shifted.subarray(1) })!)).toEqual(Array.from(vector));
  });

  it('treats missing or malformed bytes as no vector', () => {
    expect(fromMemoryEmbedding(undefined)).toBeUndefined();
    expect(fromMemoryEmbedding({ vector: new Uint8Array(0) })).toBeUndefined();
    expect(fromMemoryEmbedding({ vector: new Uint8Array(7) })).toBeUndefined();
    expect(fromMemoryEmbedding({ vector: 'not bytes' })).toBeUndefined();
  });

  it('dot equals cosine for unit vectors', () => {
    const a = normalizeInPlace(Float32Array.from([3, 4, 0]));
    const b = normalizeInPlace(Float32Array.from([4, 3, 0]));
    expect(dot(a, b)).toBeCloseTo(0.96, 5);
    expect(cosine(Float32Array.from([3, 4, 0]), Float32Array.from([4, 3, 0]))).toBeCloseTo(0.96, 5);
    expect(cosine(new Float32Array(3), a)).toBe(0);
  });
});
