// The index's vectors, one row per entry, and the scan that finds the best rows for a query.
// Every vector is kept twice: float32 (exact scores) and int8 (the scan). Above a few thousand
// rows the int8 copy is scanned by usearch's SIMD exact search, all of a recall's queries in one
// call; the best candidates are then re-scored in float32, so the ranking is the exact one
// unless a true top-k row falls outside the over-fetched int8 candidates (quantisation noise
// on a unit vector's dot product is about 1e-3). Rows the caller does not accept (dead, other
// kinds) are filtered after the scan; when too few candidates survive, that query is scanned
// exactly in plain JavaScript. Without the native module (an unsupported platform) every scan
// is the JavaScript one: slower, same results.
import { TopK } from './topK.js';
import { nativeExactSearch } from './nativeScan.js';
import type { PackedVectors } from './snapshotPacking.js';

/** Below this many rows the JavaScript scan is as fast as a native call and needs no quantising. */
const NATIVE_MIN_ROWS = 4096;
/** int8 levels for a unit vector's components (|v_i| ≤ 1, so nothing is clipped). */
const I8_SCALE = 127;

export interface RowHit {
  row: number;
  score: number;
}

export class VectorRows {
  private f32: Float32Array;
  private i8: Int8Array;
  private present: Uint8Array;

  constructor(
    readonly dims: number,
    capacity: number,
  ) {
    this.f32 = new Float32Array(capacity * dims);
    this.i8 = new Int8Array(capacity * dims);
    this.present = new Uint8Array(capacity);
  }

  get capacity(): number {
    return this.present.length;
  }

  has(row: number): boolean {
    return this.present[row] === 1;
  }

  /** `vector` unit length with `dims` values. */
  set(row: number, vector: Float32Array): void {
    const base = row * this.dims;
    this.f32.set(vector, base);
    for (let j = 0; j < this.dims; j++) this.i8[base + j] = Math.round(vector[j]! * I8_SCALE);
    this.present[row] = 1;
  }

  /**
   * Sets rows `first`, `first + 1`, … from a snapshot's packed vectors (snapshotPacking.ts): the
   * rows whose `has` flag is 1 take the next vector, dense or as its non-zero components. Those
   * rows must be unused (all zero), as every row at or past the index's row count is.
   */
  setPacked(first: number, has: Uint8Array, v: PackedVectors): void {
    const d = this.dims;
    const { f32, i8, present } = this;
    const { counts, positions, values } = v;
    let vec = 0;
    let p = 0;
    let q = 0;
    for (let i = 0; i < has.length; i++) {
      if (has[i] !== 1) continue;
      const base = (first + i) * d;
      const n = counts[vec++]!;
      if (n === d) {
        for (let j = 0; j < d; j++) {
          const x = values[q++]!;
          f32[base + j] = x;
          i8[base + j] = Math.round(x * I8_SCALE);
        }
      } else {
        for (let k = 0; k < n; k++) {
          const x = values[q++]!;
          const at = base + positions[p++]!;
          f32[at] = x;
          i8[at] = Math.round(x * I8_SCALE);
        }
      }
      present[first + i] = 1;
    }
  }

  /** A row without a vector scores 0 in the int8 scan and is never returned. */
  clear(row: number): void {
    const base = row * this.dims;
    this.f32.fill(0, base, base + this.dims);
    this.i8.fill(0, base, base + this.dims);
    this.present[row] = 0;
  }

  /** A copy of the row's float32 vector, if it has one. */
  vectorOf(row: number): Float32Array | undefined {
    return this.has(row) ? this.f32.slice(row * this.dims, (row + 1) * this.dims) : undefined;
  }

  grow(capacity: number): void {
    const f32 = new Float32Array(capacity * this.dims);
    f32.set(this.f32);
    const i8 = new Int8Array(capacity * this.dims);
    i8.set(this.i8);
    const present = new Uint8Array(capacity);
    present.set(this.present);
    this.f32 = f32;
    this.i8 = i8;
    this.present = present;
  }

  /** Per query (unit length, `dims` values), the k accepted rows with the highest dot product, best first. */
  search(queries: readonly Float32Array[], k: number, rows: number, accept: (row: number) => boolean): RowHit[][] {
    if (k <= 0 || rows === 0 || queries.length === 0) return queries.map(() => []);
    const candidates = rows >= NATIVE_MIN_ROWS ? this.nativeCandidates(queries, k, rows) : undefined;
    return queries.map((q, i) => {
      const rowsOfQuery = candidates?.[i];
      if (rowsOfQuery) {
        const hits = this.rescore(q, rowsOfQuery, k, accept);
        // Enough accepted rows among the candidates, or the candidates were every row.
        if (hits.length >= k || rowsOfQuery.length >= rows) return hits;
      }
      return this.scan(q, k, rows, accept);
    });
  }

  /** Candidate rows per query from the int8 SIMD scan, or undefined without the native module. */
  private nativeCandidates(queries: readonly Float32Array[], k: number, rows: number): number[][] | undefined {
    const fetch = Math.min(rows, 4 * k + 64);
    const q8 = new Int8Array(queries.length * this.dims);
    queries.forEach((q, i) => {
      for (let j = 0; j < this.dims; j++) q8[i * this.dims + j] = Math.round(q[j]! * I8_SCALE);
    });
    return nativeExactSearch(this.i8.subarray(0, rows * this.dims), q8, this.dims, fetch, queries.length);
  }

  private rescore(
    q: Float32Array,
    candidates: readonly number[],
    k: number,
    accept: (row: number) => boolean,
  ): RowHit[] {
    const top = new TopK(k);
    for (const row of candidates) if (this.present[row] === 1 && accept(row)) top.push(this.dot(q, row), row);
    return top.drain();
  }

  private scan(q: Float32Array, k: number, rows: number, accept: (row: number) => boolean): RowHit[] {
    const top = new TopK(k);
    for (let row = 0; row < rows; row++) {
      if (this.present[row] === 0 || !accept(row)) continue;
      const s = this.dot(q, row);
      if (s > top.floor) top.push(s, row);
    }
    return top.drain();
  }

  private dot(q: Float32Array, row: number): number {
    const m = this.f32;
    const base = row * this.dims;
    let s = 0;
    for (let j = 0; j < this.dims; j++) s += m[base + j]! * q[j]!;
    return s;
  }
}
