// The in-process index of one (owner, subject) scope: its active memories, their vectors in one
// contiguous Float32Array (brute-force dot product is fast enough for 100k entries and needs
// no external vector store) and an inverted index for BM25 keyword search.
// Rows are append-only; a removed or replaced entry leaves a dead row that is skipped and
// reclaimed by compaction, so updates never shift the matrix.
import { MEMORY_KINDS, type MemoryKind } from '../domain/model.js';
import { keywordTokens } from './textFeatures.js';

export interface IndexEntry {
  id: string;
  kind: MemoryKind;
  text: string;
  importance: number;
  occurredAt: Date;
  updatedAt: Date;
}

export interface IndexHit {
  entry: IndexEntry;
  score: number;
}

export interface SearchFilter {
  kinds?: readonly MemoryKind[];
}

const KIND_CODE = new Map<MemoryKind, number>(MEMORY_KINDS.map((k, i) => [k, i]));
const BM25_K1 = 1.2;
const BM25_B = 0.75;

interface Postings {
  rows: number[];
  tfs: number[];
}

/** Keeps the k best (score, row) pairs: a min-heap whose root is the worst kept. */
class TopK {
  private readonly scores: Float64Array;
  private readonly rows: Int32Array;
  size = 0;
  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
    this.rows = new Int32Array(k);
  }
  /** Lowest score that would still enter (−∞ while not full). */
  get floor(): number {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }
  push(score: number, row: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(score, row, this.scores[p]!, this.rows[p]!)) break;
        this.scores[i] = this.scores[p]!;
        this.rows[i] = this.rows[p]!;
        i = p;
      }
      this.scores[i] = score;
      this.rows[i] = row;
      return;
    }
    if (!this.worse(this.scores[0]!, this.rows[0]!, score, row)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const c = r < this.size && this.worse(this.scores[r]!, this.rows[r]!, this.scores[l]!, this.rows[l]!) ? r : l;
      if (!this.worse(this.scores[c]!, this.rows[c]!, score, row)) break;
      this.scores[i] = this.scores[c]!;
      this.rows[i] = this.rows[c]!;
      i = c;
    }
    this.scores[i] = score;
    this.rows[i] = row;
  }
  /** a ranks below b: lower score, or equal score and later row (older rows win ties). */
  private worse(sa: number, ra: number, sb: number, rb: number): boolean {
    return sa < sb || (sa === sb && ra > rb);
  }
  /** Best first. */
  drain(): Array<{ score: number; row: number }> {
    const out: Array<{ score: number; row: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i]!, row: this.rows[i]! });
    return out.sort((a, b) => b.score - a.score || a.row - b.row);
  }
}

export class MemoryIndex {
  private matrix: Float32Array;
  private hasVector: Uint8Array;
  private kindCodes: Uint8Array;
  private docLen: Float32Array;
  private entries: Array<IndexEntry | undefined> = [];
  private rowOf = new Map<string, number>();
  private postings = new Map<string, Postings>();
  private rows = 0;
  private liveLenSum = 0;
  /** Newest updatedAt seen: incremental refreshes ask the store for entries changed after it. */
  lastUpdatedAt = new Date(0);

  constructor(
    readonly dims: number,
    capacity = 64,
  ) {
    const cap = Math.max(1, capacity);
    this.matrix = new Float32Array(cap * dims);
    this.hasVector = new Uint8Array(cap);
    this.kindCodes = new Uint8Array(cap);
    this.docLen = new Float32Array(cap);
  }

  get size(): number {
    return this.rowOf.size;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  get(id: string): IndexEntry | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.entries[row];
  }

  hasVectorFor(id: string): boolean {
    const row = this.rowOf.get(id);
    return row !== undefined && this.hasVector[row] === 1;
  }

  /** Ids whose vector is missing (embeddings were down when they were loaded). */
  idsWithoutVector(): string[] {
    const out: string[] = [];
    for (const [id, row] of this.rowOf) if (this.hasVector[row] === 0) out.push(id);
    return out;
  }

  /** Adds or replaces an entry; `vector` must be unit length with `dims` values, or absent. */
  upsert(entry: IndexEntry, vector?: Float32Array): void {
    if (vector && vector.length !== this.dims)
      throw new RangeError(`vector has ${vector.length} dims, index has ${this.dims}`);
    this.remove(entry.id);
    if (this.rows === this.hasVector.length) this.grow();
    const row = this.rows++;
    this.entries[row] = entry;
    this.rowOf.set(entry.id, row);
    this.kindCodes[row] = KIND_CODE.get(entry.kind) ?? 0;
    if (vector) {
      this.matrix.set(vector, row * this.dims);
      this.hasVector[row] = 1;
    } else {
      this.matrix.fill(0, row * this.dims, (row + 1) * this.dims);
      this.hasVector[row] = 0;
    }
    const tokens = keywordTokens(entry.text);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = { rows: [], tfs: [] }));
      p.rows.push(row);
      p.tfs.push(n);
    }
    this.docLen[row] = tokens.length;
    this.liveLenSum += tokens.length;
    if (entry.updatedAt > this.lastUpdatedAt) this.lastUpdatedAt = entry.updatedAt;
  }

  /** Sets the vector of an entry already in the index (embedded after it was loaded). */
  setVector(id: string, vector: Float32Array): void {
    const row = this.rowOf.get(id);
    if (row === undefined || vector.length !== this.dims) return;
    this.matrix.set(vector, row * this.dims);
    this.hasVector[row] = 1;
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    this.rowOf.delete(id);
    this.entries[row] = undefined;
    this.hasVector[row] = 0;
    this.liveLenSum -= this.docLen[row]!;
    // Dead rows are skipped by every search; reclaim them once they outnumber the living.
    if (this.rows - this.rowOf.size > Math.max(256, this.rowOf.size)) this.compact();
    return true;
  }

  /** The k entries whose vectors have the highest dot product (= cosine) with `query`. */
  search(query: Float32Array, k: number, filter?: SearchFilter): IndexHit[] {
    if (query.length !== this.dims || k <= 0) return [];
    const mask = kindMask(filter);
    const top = new TopK(k);
    const m = this.matrix;
    const d = this.dims;
    for (let row = 0; row < this.rows; row++) {
      if (this.hasVector[row] === 0 || (mask & (1 << this.kindCodes[row]!)) === 0) continue;
      let s = 0;
      const base = row * d;
      for (let j = 0; j < d; j++) s += m[base + j]! * query[j]!;
      if (s > top.floor) top.push(s, row);
    }
    return this.hits(top);
  }

  /** BM25 over keyword tokens (CJK bigrams, Latin stems); entries sharing no token never match. */
  keywordSearch(text: string, k: number, filter?: SearchFilter): IndexHit[] {
    const live = this.rowOf.size;
    if (live === 0 || k <= 0) return [];
    const mask = kindMask(filter);
    const avgLen = this.liveLenSum / live || 1;
    const scores = new Map<number, number>();
    for (const token of new Set(keywordTokens(text))) {
      const p = this.postings.get(token);
      if (!p) continue;
      let df = 0;
      for (const row of p.rows) if (this.entries[row] !== undefined) df++;
      if (df === 0) continue;
      const idf = Math.log(1 + (live - df + 0.5) / (df + 0.5));
      for (let i = 0; i < p.rows.length; i++) {
        const row = p.rows[i]!;
        if (this.entries[row] === undefined || (mask & (1 << this.kindCodes[row]!)) === 0) continue;
        const tf = p.tfs[i]!;
        const s = (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * this.docLen[row]!) / avgLen));
        scores.set(row, (scores.get(row) ?? 0) + s);
      }
    }
    const top = new TopK(k);
    for (const [row, s] of scores) top.push(s, row);
    return this.hits(top);
  }

  private hits(top: TopK): IndexHit[] {
    return top.drain().map(({ score, row }) => ({ entry: this.entries[row]!, score }));
  }

  private grow(): void {
    const cap = this.hasVector.length * 2;
    const matrix = new Float32Array(cap * this.dims);
    matrix.set(this.matrix);
    this.matrix = matrix;
    this.hasVector = copyInto(new Uint8Array(cap), this.hasVector);
    this.kindCodes = copyInto(new Uint8Array(cap), this.kindCodes);
    this.docLen = copyInto(new Float32Array(cap), this.docLen);
  }

  /** Rebuilds rows and postings from the living entries. */
  private compact(): void {
    const living: Array<{ entry: IndexEntry; vector?: Float32Array }> = [];
    for (const [, row] of this.rowOf) {
      const entry = this.entries[row]!;
      living.push({
        entry,
        vector: this.hasVector[row] === 1 ? this.matrix.slice(row * this.dims, (row + 1) * this.dims) : undefined,
      });
    }
    living.sort((a, b) => (this.rowOf.get(a.entry.id) ?? 0) - (this.rowOf.get(b.entry.id) ?? 0));
    const last = this.lastUpdatedAt;
    this.entries = [];
    this.rowOf = new Map();
    this.postings = new Map();
    this.rows = 0;
    this.liveLenSum = 0;
    this.hasVector.fill(0);
    for (const l of living) this.upsert(l.entry, l.vector);
    this.lastUpdatedAt = last;
  }
}

function kindMask(filter?: SearchFilter): number {
  if (!filter?.kinds) return 0xff;
  let m = 0;
  for (const k of filter.kinds) m |= 1 << (KIND_CODE.get(k) ?? 0);
  return m;
}

function copyInto<T extends Uint8Array | Float32Array>(to: T, from: T): T {
  to.set(from);
  return to;
}
