// BM25 over keyword tokens (textFeatures.ts): an inverted index from token to the rows holding
// it, with each token's count of living rows kept up to date, so a search costs the postings of
// its tokens and nothing else. Removed rows stay in the postings (skipped by the caller's
// `accept`) until the index compacts.

// k1: how fast repeated terms saturate; b: how much a long entry is discounted. b = 0.4 (instead of
// the textbook 0.75) because memories are short and their length says little about topicality:
// measured on LoCoMo dev (bench/locomo.ts), dialog turns' hit@5 rose 3 points, observations' held.
export const BM25_K1 = 1.2;
export const BM25_B = 0.4;

interface Postings {
  rows: number[];
  tfs: number[];
  /** Living rows holding the token (its document frequency). */
  live: number;
}

export class KeywordPostings {
  private readonly postings = new Map<string, Postings>();
  private docLen: Float32Array;
  /** Scratch for one search: a score per row, zero outside a search (reused: no allocation per search). */
  private acc: Float64Array;
  private liveDocs = 0;
  private liveLenSum = 0;
  private searching = false;

  constructor(capacity: number) {
    this.docLen = new Float32Array(capacity);
    this.acc = new Float64Array(capacity);
  }

  grow(capacity: number): void {
    const docLen = new Float32Array(capacity);
    docLen.set(this.docLen);
    this.docLen = docLen;
    this.acc = new Float64Array(capacity);
  }

  add(row: number, tokens: readonly string[]): void {
    for (const [t, n] of termCounts(tokens)) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = { rows: [], tfs: [], live: 0 }));
      p.rows.push(row);
      p.tfs.push(n);
      p.live++;
    }
    this.docLen[row] = tokens.length;
    this.liveLenSum += tokens.length;
    this.liveDocs++;
  }

  /**
   * Adds rows `first`, `first + 1`, … whose tokens are already counted (a snapshot's part): row
   * `first + i` holds `terms[ids[j]]` `tfs[j]` times for j in [start[i], start[i + 1]), `len[i]`
   * tokens in all. The same postings as `add` of those tokens; each term is looked up once.
   */
  addCounted(
    first: number,
    len: Uint32Array,
    terms: readonly string[],
    c: { start: Uint32Array; ids: Uint32Array; tfs: Uint32Array },
  ): void {
    const resolved = new Array<Postings | undefined>(terms.length);
    for (let i = 0; i < len.length; i++) {
      const row = first + i;
      for (let j = c.start[i]!; j < c.start[i + 1]!; j++) {
        const id = c.ids[j]!;
        const p = (resolved[id] ??= this.postingsOf(terms[id]!));
        p.rows.push(row);
        p.tfs.push(c.tfs[j]!);
        p.live++;
      }
      this.docLen[row] = len[i]!;
      this.liveLenSum += len[i]!;
      this.liveDocs++;
    }
  }

  private postingsOf(token: string): Postings {
    let p = this.postings.get(token);
    if (!p) this.postings.set(token, (p = { rows: [], tfs: [], live: 0 }));
    return p;
  }

  /** `tokens`: those the row was added with. */
  remove(row: number, tokens: readonly string[]): void {
    for (const t of new Set(tokens)) {
      const p = this.postings.get(t);
      if (p) p.live--;
    }
    this.liveLenSum -= this.docLen[row]!;
    this.liveDocs--;
  }

  /** Inverse document frequency among the living rows (BM25's, never negative); 0 for an unknown token. */
  idf(token: string): number {
    const df = this.postings.get(token)?.live ?? 0;
    return df <= 0 ? 0 : Math.log(1 + (this.liveDocs - df + 0.5) / (df + 0.5));
  }

  /**
   * Starts a search: BM25 scores summed over the terms added to it. One at a time (the scores
   * live in a scratch array shared by every search of this index); `end` it before the next.
   */
  begin(): KeywordSearch {
    if (this.searching) throw new Error('a keyword search is already running on this index');
    this.searching = true;
    return new KeywordSearch(this, this.acc, () => (this.searching = false));
  }

  /** Adds each term's BM25 (times its weight) to `acc`; rows touched for the first time go to `touched`. */
  accumulate(terms: ReadonlyMap<string, number>, acc: Float64Array, touched: number[]): void {
    if (this.liveDocs === 0) return;
    const avgLen = this.liveLenSum / this.liveDocs || 1;
    for (const [token, weight] of terms) {
      const p = this.postings.get(token);
      const idf = this.idf(token) * weight;
      if (!p || idf <= 0) continue;
      const { rows, tfs } = p;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const tf = tfs[i]!;
        const norm = tf + BM25_K1 * (1 - BM25_B + (BM25_B * this.docLen[row]!) / avgLen);
        if (acc[row] === 0) touched.push(row);
        acc[row] = acc[row]! + (idf * tf * (BM25_K1 + 1)) / norm;
      }
    }
  }
}

/** One search's running scores: terms can be added after looking at the first hits (feedback). */
export class KeywordSearch {
  private readonly touched: number[] = [];

  constructor(
    private readonly postings: KeywordPostings,
    private readonly acc: Float64Array,
    private readonly release: () => void,
  ) {}

  add(terms: ReadonlyMap<string, number>): void {
    this.postings.accumulate(terms, this.acc, this.touched);
  }

  /** Every accepted row with its score so far (each once, in no order); dead and filtered rows
   * are dropped here, once per row rather than once per posting. */
  forEach(accept: (row: number) => boolean, visit: (row: number, score: number) => void): void {
    for (const row of this.touched) if (accept(row)) visit(row, this.acc[row]!);
  }

  /** Clears the scratch scores for the next search. */
  end(): void {
    for (const row of this.touched) this.acc[row] = 0;
    this.touched.length = 0;
    this.release();
  }
}

export function termCounts(tokens: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
