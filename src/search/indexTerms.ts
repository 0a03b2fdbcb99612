// Terms of the message search index (pure). A message is filed under every bigram of its
// searchable texts (src/search/searchKeys.ts: NFKC, lower case, so Chinese needs no word
// splitting), every span around a word gap (`g:ie to`), its dialogue (`d:<id>`) and its UTC
// day (`t:<yyyy-mm-dd>`). Pseudo-terms are longer than two characters and prefixed, so they
// never collide with a bigram. Filtering by dialogue
// is then one more list to intersect; a one-character query (no bigram) reads the dialogue's
// list or the days of its window instead of scanning. Sender role is not a term: half of all
// messages share each role, so its list would cost more to read than checking the candidates.
import { bigrams, gapGrams, searchableTexts } from './searchKeys.js';
import type { Message } from '../domain/model.js';

/** How many bucket documents terms hash into (fixed: changing it needs a rebuild of the index). */
export const BUCKETS = 2048;

export const dialogueTerm = (dialogueId: string) => `d:${dialogueId}`;
export const dayTerm = (at: number) => `t:${new Date(at).toISOString().slice(0, 10)}`;
/** A word gap's span ("ie to"): 7 characters with its prefix, never a bigram or another pseudo-term. */
export const gapTerm = (gram: string) => `g:${gram}`;

/** FNV-1a over the UTF-16 code units: stable across processes and versions. */
export function bucketOf(term: string, buckets = BUCKETS): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % buckets;
}

export type IndexedFields = Pick<Message, '_id' | 'dialogueId' | 'content' | 'contentMeta' | 'createdAt'>;

/** Every term a message is filed under (no cap: a 10 000-character text adds at most ~10 000 postings once). */
export function messageTerms(m: IndexedFields): string[] {
  const terms = new Set<string>();
  for (const text of searchableTexts(m)) {
    for (const b of bigrams(text)) terms.add(b);
    for (const g of gapGrams(text)) terms.add(gapTerm(g));
  }
  terms.add(dialogueTerm(m.dialogueId));
  terms.add(dayTerm(m.createdAt.getTime()));
  return [...terms];
}

/** The UTC days touching [since, until), newest last. */
export function dayTerms(since: number, until: number): string[] {
  const out: string[] = [];
  const DAY = 86_400_000;
  for (let d = Math.floor(since / DAY) * DAY; d < until; d += DAY) out.push(dayTerm(d));
  return out;
}

/**
 * At most `max` of a query's bigrams, spread over the query: the phrase check on the
 * candidates decides the match, so a long query need not read a list per bigram — a few
 * spread ones already narrow the candidates to almost exactly the matches.
 */
export function pickSpread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round((i * (items.length - 1)) / (max - 1))]!);
  return [...new Set(out)];
}
