// The living rows in the order their memories occurred (ties in the order they were added), so
// recall can find what was remembered right before and after a memory. Changes are collected and
// merged into the sorted arrays when the order is next read: a cold load of 100k rows costs one
// sort, new memories (usually the newest) are appended, anything else one linear merge — never
// a move of the whole array per added row.

export class TimeOrder {
  private times = new Float64Array(0);
  private rows = new Int32Array(0);
  private size = 0;
  private pending: Array<{ row: number; time: number }> = [];
  /** Rows removed since the last merge (row numbers are never reused, so a set is exact). */
  private dead = new Set<number>();

  insert(row: number, time: number): void {
    this.pending.push({ row, time });
  }

  remove(row: number): void {
    this.dead.add(row);
  }

  /** The rows just before and after `row` in time order, when within `maxGapMs` of it. */
  around(row: number, time: number, maxGapMs: number): { before?: number; after?: number } {
    this.settle();
    const at = this.positionOf(row, time);
    if (at < 0) return {};
    const out: { before?: number; after?: number } = {};
    if (at > 0 && time - this.times[at - 1]! <= maxGapMs) out.before = this.rows[at - 1]!;
    if (at + 1 < this.size && this.times[at + 1]! - time <= maxGapMs) out.after = this.rows[at + 1]!;
    return out;
  }

  /** Applies the pending changes. */
  private settle(): void {
    if (this.dead.size > 0) this.dropDead();
    if (this.pending.length === 0) return;
    const added = this.pending.sort((a, b) => a.time - b.time || a.row - b.row);
    this.pending = [];
    const first = added[0]!;
    const last = this.size - 1;
    const appends =
      this.size === 0 ||
      this.times[last]! < first.time ||
      (this.times[last] === first.time && this.rows[last]! < first.row);
    if (appends) this.append(added);
    else this.merge(added);
  }

  private dropDead(): void {
    let k = 0;
    for (let i = 0; i < this.size; i++) {
      if (this.dead.has(this.rows[i]!)) continue;
      this.times[k] = this.times[i]!;
      this.rows[k++] = this.rows[i]!;
    }
    this.size = k;
    this.pending = this.pending.filter((p) => !this.dead.has(p.row));
    this.dead.clear();
  }

  private append(added: ReadonlyArray<{ row: number; time: number }>): void {
    this.reserve(this.size + added.length);
    for (const a of added) {
      this.times[this.size] = a.time;
      this.rows[this.size++] = a.row;
    }
  }

  /** Merges sorted `added` into the sorted arrays, back to front so it works in place. */
  private merge(added: ReadonlyArray<{ row: number; time: number }>): void {
    this.reserve(this.size + added.length);
    let i = this.size - 1;
    let j = added.length - 1;
    for (let k = this.size + added.length - 1; j >= 0; k--) {
      const a = added[j]!;
      const oldIsLater = i >= 0 && (this.times[i]! > a.time || (this.times[i] === a.time && this.rows[i]! > a.row));
      if (oldIsLater) {
        this.times[k] = this.times[i]!;
        this.rows[k] = this.rows[i--]!;
      } else {
        this.times[k] = a.time;
        this.rows[k] = a.row;
        j--;
      }
    }
    this.size += added.length;
  }

  private reserve(n: number): void {
    if (n <= this.rows.length) return;
    const cap = Math.max(n, this.rows.length * 2, 64);
    const times = new Float64Array(cap);
    times.set(this.times.subarray(0, this.size));
    const rows = new Int32Array(cap);
    rows.set(this.rows.subarray(0, this.size));
    this.times = times;
    this.rows = rows;
  }

  /** Where `row` is, by binary search on (time, row): the arrays are sorted by both. */
  private positionOf(row: number, time: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const t = this.times[mid]!;
      if (t < time || (t === time && this.rows[mid]! < row)) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.size && this.rows[lo] === row && this.times[lo] === time ? lo : -1;
  }
}
