// One term's postings across the generations of its bucket (src/store/searchPostings.ts),
// walked newest first in time windows (src/store/indexSearch.ts). Each generation is its own
// sorted list; a window takes from every one of them, so generations may overlap in time (the
// backfill folds old messages after new ones).
import { PostingsCursor, type Posting } from './postings.js';

export class TermCursor {
  /** Packed bytes of every generation: what reading and decoding the whole term costs. */
  readonly packedLength: number;
  private readonly parts: PostingsCursor[];
  /** Postings pulled ahead to find a window's floor, newest first, all newer than every part's next. */
  private pulled: Posting[] = [];

  constructor(packed: readonly string[]) {
    this.parts = packed.map((p) => new PostingsCursor(p));
    this.packedLength = packed.reduce((n, p) => n + p.length, 0);
  }

  /**
   * The time down to which the next `n` postings below `hi` reach (the oldest of them); -∞ when
   * fewer than `n` are left, so a window down to it takes them all.
   */
  floorFor(n: number, hi: number): number {
    const below = this.pulled.filter((p) => p.at < hi);
    this.pulled = below;
    while (below.length < n) {
      const [best, second] = this.newestParts();
      if (!best) return -Infinity;
      const stopAt = second?.peek()?.at ?? -Infinity;
      // Pull from the newest part while nothing elsewhere is newer.
      for (let p = best.peek(); p && p.at >= stopAt && below.length < n; p = best.peek()) {
        best.next();
        if (p.at < hi) below.push(p);
      }
    }
    return below[n - 1]!.at;
  }

  /** The postings with lo ≤ at < hi, newest first, each message once; the cursor moves past them. */
  take(lo: number, hi: number): Posting[] {
    const out: Posting[] = [];
    let k = 0;
    for (; k < this.pulled.length && this.pulled[k]!.at >= lo; k++)
      if (this.pulled[k]!.at < hi) out.push(this.pulled[k]!);
    this.pulled = this.pulled.slice(k);
    for (const part of this.parts) part.take(lo, hi, out);
    if (this.parts.length === 1) return out; // already in order, each message once
    out.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return out.filter((p, i) => i === 0 || out[i - 1]!.id !== p.id || out[i - 1]!.at !== p.at);
  }

  /** The two parts whose next postings are newest. */
  private newestParts(): [PostingsCursor | undefined, PostingsCursor | undefined] {
    let best: PostingsCursor | undefined;
    let second: PostingsCursor | undefined;
    for (const part of this.parts) {
      const at = part.peek()?.at;
      if (at === undefined) continue;
      if (!best || at > best.peek()!.at) [best, second] = [part, best];
      else if (!second || at > second.peek()!.at) second = part;
    }
    return [best, second];
  }
}
