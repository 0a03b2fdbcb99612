// English word vectors (pure once built): the most frequent words of a pretrained embedding, in
// frequency order, each with its vector. Recall uses them where keywords are blind to meaning —
// a question's words are not the memory's ("hurt" / "injury"): the words nearest a query word
// (wordExpansion.ts), a sentence's meaning as a frequency-weighted average (sentenceMeaning.ts),
// a word-by-word match of two sentences (wordAlignment.ts) and a vocabulary for typos (spelling.ts).
// Only English words have vectors; other scripts (Chinese) get none and recall treats them as before.
import { VectorRows } from './vectorRows.js';

export interface WordNeighbour {
  word: string;
  /** Cosine similarity to the word asked about. */
  similarity: number;
}

/** Words whose neighbours are remembered; past it the memo starts over (a chat's words repeat). */
const NEIGHBOUR_MEMO = 4096;

export class WordVectors {
  private readonly rows = new Map<string, number>();
  private readonly memo = new Map<string, WordNeighbour[]>();
  /** Unit-length copies, searched for neighbours (int8 SIMD scan + float32 rescoring). */
  private readonly unit: VectorRows;
  /** Each row's vector length (as trained). */
  private readonly norms: Float32Array;

  /**
   * `words` most frequent first; `vectors` row-major, `words.length * dims` values. A word listed
   * twice keeps its first (more frequent) row.
   */
  constructor(
    private readonly words: readonly string[],
    private readonly vectors: Float32Array,
    readonly dims: number,
  ) {
    if (vectors.length !== words.length * dims)
      throw new RangeError(`${vectors.length} values for ${words.length} words of ${dims} dims`);
    this.unit = new VectorRows(dims, Math.max(1, words.length));
    this.norms = new Float32Array(words.length);
    const scratch = new Float32Array(dims); // one buffer for every row: 20k rows load in milliseconds
    words.forEach((w, row) => {
      const v = vectors.subarray(row * dims, (row + 1) * dims);
      let sq = 0;
      for (let j = 0; j < dims; j++) sq += v[j]! * v[j]!;
      if (sq === 0) return; // no direction: neither a neighbour nor a meaning
      if (!this.rows.has(w)) this.rows.set(w, row);
      const norm = Math.sqrt(sq);
      this.norms[row] = norm;
      for (let j = 0; j < dims; j++) scratch[j] = v[j]! / norm;
      this.unit.set(row, scratch);
    });
  }

  /** Cosine similarity of two words' vectors (from the float32 rows: no copy); undefined when either has none. */
  similarity(a: string, b: string): number | undefined {
    const ra = this.rows.get(a);
    const rb = this.rows.get(b);
    if (ra === undefined || rb === undefined) return undefined;
    if (ra === rb) return 1;
    const d = this.dims;
    const va = ra * d;
    const vb = rb * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += this.vectors[va + j]! * this.vectors[vb + j]!;
    return s / (this.norms[ra]! * this.norms[rb]!);
  }

  /** The word of frequency rank `rank` (0: the most frequent). */
  wordAt(rank: number): string | undefined {
    return this.words[rank];
  }

  get size(): number {
    return this.words.length;
  }

  /** The word's frequency rank (0: the most frequent), when it has a vector. */
  rank(word: string): number | undefined {
    return this.rows.get(word);
  }

  /** Adds `weight` × the word's vector (as trained, not unit length) to `into`; false without one. */
  addTo(into: Float32Array, word: string, weight: number): boolean {
    const row = this.rows.get(word);
    if (row === undefined) return false;
    const base = row * this.dims;
    for (let j = 0; j < this.dims; j++) into[j] = into[j]! + weight * this.vectors[base + j]!;
    return true;
  }

  /** Per word, its `k` nearest other words by cosine, nearest first (none for a word without a vector). */
  neighbours(words: readonly string[], k: number): WordNeighbour[][] {
    const key = (w: string): string => `${k}:${w}`;
    const todo = [...new Set(words)].filter((w) => this.rows.has(w) && !this.memo.has(key(w)));
    if (this.memo.size + todo.length > NEIGHBOUR_MEMO) this.memo.clear();
    // One scan for all of them (k + 1: a word is its own nearest).
    const found = this.unit.search(
      todo.map((w) => this.unit.vectorOf(this.rows.get(w)!)!),
      k + 1,
      this.size,
      () => true,
    );
    todo.forEach((w, i) => {
      const self = this.rows.get(w);
      const near = found[i]!.filter((h) => h.row !== self).slice(0, k);
      this.memo.set(
        key(w),
        near.map((h) => ({ word: this.words[h.row]!, similarity: h.score })),
      );
    });
    return words.map((w) => this.memo.get(key(w)) ?? []);
  }
}
