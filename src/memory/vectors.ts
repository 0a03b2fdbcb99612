// Vectors as stored (MemoryEmbedding.vector: Float32 little-endian bytes) and the few numeric
// helpers recall needs. Every vector in the system is unit length, so dot product = cosine.
import type { MemoryEmbedding } from '../domain/model.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function toMemoryEmbedding(model: string, vector: Float32Array): MemoryEmbedding {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return { model, vector: bytes };
}

/**
 * The bytes of a stored vector. The mongodb driver hands back a BSON `Binary` for a stored
 * Uint8Array (its `buffer` holds the bytes; `value()` in older shapes); a fresh one is a Uint8Array.
 */
export function vectorBytes(stored: unknown): Uint8Array | undefined {
  if (stored instanceof Uint8Array) return stored;
  if (stored && typeof stored === 'object') {
    const b = stored as { buffer?: unknown; value?: unknown; position?: unknown };
    if (b.buffer instanceof Uint8Array) {
      return typeof b.position === 'number' ? b.buffer.subarray(0, b.position) : b.buffer;
    }
    if (typeof b.value === 'function') {
      const v: unknown = (b.value as () => unknown).call(stored);
      if (v instanceof Uint8Array) return v;
    }
  }
  return undefined;
}

/** Decodes a stored vector; undefined when it is missing or malformed (then it is recomputed). */
export function fromMemoryEmbedding(e: { vector: unknown } | undefined): Float32Array | undefined {
  const bytes = e ? vectorBytes(e.vector) : undefined;
  if (!bytes || bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const n = bytes.length / 4;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const out = new Float32Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

export function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}

export function cosine(a: Float32Array, b: Float32Array): number {
  const d = norm(a) * norm(b);
  return d === 0 ? 0 : dot(a, b) / d;
}

/** Scales in place to unit length (a zero vector stays zero) and returns it. */
export function normalizeInPlace(v: Float32Array): Float32Array {
  const n = norm(v);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}
