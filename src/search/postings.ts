// Postings of the message search index (pure). A posting is (createdAt in ms, message id); a
// term's postings are packed into one string per stored document, newest first: entries
// joined by ',', each `<time, base 36> <id>`, the first entry's time absolute and every later
// one's as its distance below the entry before. A string rather than BSON arrays: the embedded
// FerretDB reads a document at roughly 10 MB/s, so bytes are what a search pays for, and one
// string is decoded in JS far faster than thousands of sub-documents. Newest first because a
// search wants the newest page: it decodes a list from its start only as far back in time as
// the page needs (PostingsCursor). Ids are URI-escaped only when they hold a separator or `%`.

export interface Posting {
  at: number;
  id: string;
}

const UNSAFE = /[ ,%]/;

const encodeId = (id: string) => (UNSAFE.test(id) ? encodeURIComponent(id) : id);
const decodeId = (raw: string) => (raw.includes('%') ? decodeURIComponent(raw) : raw);

export const comparePostings = (a: Posting, b: Posting): number =>
  a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Packs postings already sorted by (at, id), ascending; the string holds them newest first. */
export function packPostings(sorted: readonly Posting[]): string {
  const parts: string[] = [];
  let prev: number | undefined;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const p = sorted[i]!;
    parts.push(`${(prev === undefined ? p.at : prev - p.at).toString(36)} ${encodeId(p.id)}`);
    prev = p.at;
  }
  return parts.join(',');
}

/** The whole list, sorted by (at, id) ascending. */
export function unpackPostings(packed: string): Posting[] {
  const out: Posting[] = [];
  const cursor = new PostingsCursor(packed);
  for (let p = cursor.next(); p; p = cursor.next()) out.push(p);
  return out.reverse();
}

/** Base-36 digit value of a char code (0-9, a-z). */
const digit = (c: number) => (c <= 57 ? c - 48 : c - 87);

/**
 * Reads one packed list newest first, as far as asked: `take` hands over the postings of a
 * time range and stops at the first one older than it, which the next call starts from. A
 * search walks its lists down in time windows with one cursor each, so no entry is decoded
 * twice and none older than the page needs.
 */
export class PostingsCursor {
  private i = 0;
  private at = 0;
  private ahead: Posting | undefined;

  constructor(private readonly packed: string) {}

  /** The next (older) posting without consuming it. */
  peek(): Posting | undefined {
    this.ahead ??= this.decode();
    return this.ahead;
  }

  next(): Posting | undefined {
    const p = this.peek();
    this.ahead = undefined;
    return p;
  }

  /** Consumes the postings with at ≥ lo, pushing those with at < hi onto `out` (newest first). */
  take(lo: number, hi: number, out: Posting[]): void {
    for (let p = this.peek(); p && p.at >= lo; p = this.peek()) {
      this.ahead = undefined;
      if (p.at < hi) out.push(p);
    }
  }

  private decode(): Posting | undefined {
    const s = this.packed;
    if (this.i >= s.length) return undefined;
    let n = 0;
    let i = this.i;
    for (let c = s.charCodeAt(i); c !== 32; c = s.charCodeAt(++i)) {
      if (i >= s.length) return undefined; // no id after the time: a damaged list ends here
      n = n * 36 + digit(c);
    }
    this.at = this.i === 0 ? n : this.at - n;
    let end = s.indexOf(',', ++i);
    if (end < 0) end = s.length;
    const id = decodeId(s.substring(i, end));
    this.i = end + 1;
    return { at: this.at, id };
  }
}

/** The union of two sorted lists, each posting once (a message folded again after an edit repeats its unchanged terms). */
export function mergePostings(a: readonly Posting[], b: readonly Posting[]): Posting[] {
  const out: Posting[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const c = i >= a.length ? 1 : j >= b.length ? -1 : comparePostings(a[i]!, b[j]!);
    const next = c <= 0 ? a[i++]! : b[j++]!;
    if (c === 0) j++;
    const last = out[out.length - 1];
    if (!last || comparePostings(last, next) !== 0) out.push(next);
  }
  return out;
}

/** Postings within [since, until) of their createdAt. */
export function withinWindow(list: readonly Posting[], since?: number, until?: number): Posting[] {
  if (since === undefined && until === undefined) return [...list];
  return list.filter((p) => (since === undefined || p.at >= since) && (until === undefined || p.at < until));
}

/** A journal entry (src/store/searchJournal.ts): enough to order and filter the message before reading it. */
export interface JournalEntry extends Posting {
  dialogueId: string;
}

export const packJournalEntry = (e: JournalEntry) => `${e.at.toString(36)} ${encodeId(e.dialogueId)} ${encodeId(e.id)}`;

export function unpackJournalEntry(raw: string): JournalEntry | undefined {
  const [at, dialogueId, id] = raw.split(' ');
  if (at === undefined || dialogueId === undefined || id === undefined) return undefined;
  return { at: parseInt(at, 36), dialogueId: decodeId(dialogueId), id: decodeId(id) };
}
