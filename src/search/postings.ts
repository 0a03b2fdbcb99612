// Postings of the message search index (pure). A posting is (createdAt in ms, message id); a
// term's postings are kept sorted by (at, id) and packed into one string per stored document:
// entries joined by ',', each `<delta of at from the previous entry, base 36> <id>`. A string
// rather than BSON arrays: the embedded FerretDB reads a document at roughly 10 MB/s, so
// bytes are what a search pays for, and one string is decoded in JS far faster than thousands
// of sub-documents. Ids are URI-escaped only when they hold a separator or `%`.

export interface Posting {
  at: number;
  id: string;
}

const UNSAFE = /[ ,%]/;

const encodeId = (id: string) => (UNSAFE.test(id) ? encodeURIComponent(id) : id);
const decodeId = (raw: string) => (raw.includes('%') ? decodeURIComponent(raw) : raw);

export const comparePostings = (a: Posting, b: Posting): number =>
  a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Packs postings already sorted by (at, id). */
export function packPostings(sorted: readonly Posting[]): string {
  let prev = 0;
  const parts: string[] = [];
  for (const p of sorted) {
    parts.push(`${(p.at - prev).toString(36)} ${encodeId(p.id)}`);
    prev = p.at;
  }
  return parts.join(',');
}

export function unpackPostings(packed: string): Posting[] {
  if (packed === '') return [];
  const out: Posting[] = [];
  let at = 0;
  for (const part of packed.split(',')) {
    const space = part.indexOf(' ');
    at += parseInt(part.slice(0, space), 36);
    out.push({ at, id: decodeId(part.slice(space + 1)) });
  }
  return out;
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

/** The union of several sorted lists (a term's generations): one sort, not a merge per list. */
export function unionPostings(lists: ReadonlyArray<readonly Posting[]>): Posting[] {
  if (lists.length === 1) return [...lists[0]!];
  const all = lists.flat().sort(comparePostings);
  return all.filter((p, i) => i === 0 || comparePostings(all[i - 1]!, p) !== 0);
}

/**
 * The postings present in every list (matched by message id), smallest list first so the sets
 * built stay small. An empty list of lists has no intersection (never "everything").
 */
export function intersectPostings(lists: ReadonlyArray<readonly Posting[]>): Posting[] {
  if (lists.length === 0) return [];
  const [first, ...rest] = [...lists].sort((x, y) => x.length - y.length);
  let kept = [...first!];
  for (const list of rest) {
    if (kept.length === 0) break;
    const ids = new Set(list.map((p) => p.id));
    kept = kept.filter((p) => ids.has(p.id));
  }
  return kept;
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
