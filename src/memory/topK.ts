// The k best (score, row) pairs of a scan, kept in a min-heap whose root is the worst kept, so a
// scan over 100k rows costs one comparison per row that cannot enter.

export class TopK {
  private readonly scores: Float64Array;
  private readonly rows: Int32Array;
  size = 0;
  constructor(private readonly k: number) {
    this.scores = new Float64Array(Math.max(0, k));
    this.rows = new Int32Array(Math.max(0, k));
  }
  /** Lowest score that would still enter (−∞ while not full). */
  get floor(): number {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }
  push(score: number, row: number): void {
    if (this.k <= 0) return;
    if (this.size < this.k) {
      this.siftUp(this.size++, score, row);
      return;
    }
    if (!this.worse(this.scores[0]!, this.rows[0]!, score, row)) return;
    this.siftDown(score, row);
  }
  /** Best first. */
  drain(): Array<{ score: number; row: number }> {
    const out: Array<{ score: number; row: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i]!, row: this.rows[i]! });
    return out.sort((a, b) => b.score - a.score || a.row - b.row);
  }
  private siftUp(at: number, score: number, row: number): void {
    let i = at;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(score, row, this.scores[p]!, this.rows[p]!)) break;
      this.scores[i] = this.scores[p]!;
      this.rows[i] = this.rows[p]!;
      i = p;
    }
    this.scores[i] = score;
    this.rows[i] = row;
  }
  /** Replaces the root and restores the heap. */
  private siftDown(score: number, row: number): void {
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
}
