// Recall's keyword retriever (pure over the index): BM25 per keyword query (recallQueries.ts),
// the main one widened by the parts of a word written as one that the memories write as two
// (compoundWords.ts), by its words' nearest words when word vectors are given (wordExpansion.ts)
// and by pseudo-relevance feedback (queryExpansion.ts), then three nudges that use
// what a memory is besides its words:
// - time: when the message names a period ("in May 2023", "去年"), memories that occurred in it
//   and share its keywords rise (PERIOD_BONUS); a "when" question prefers memories that state a time;
// - context: a memory remembered right after a strong hit (within half an hour) is often its
//   continuation — the answer to a question, the rest of a story — so it inherits part of the
//   hit's score, and the one right before a smaller part.
// Weights were chosen on LoCoMo dev (bench/locomo.ts): each mechanism is kept because it helped
// there on both memory forms, not tuned per category.
import type { IndexEntry, IndexHit, MemoryIndex, SearchFilter } from './memoryIndex.js';
import { placeAccepts, queryTerms } from './memoryIndex.js';
import { compoundParts } from './compoundWords.js';
import { feedbackTerms } from './queryExpansion.js';
import { statesTime, type TimeWindow } from './timeCues.js';
import { expansionTerms } from './wordExpansion.js';
import type { WordVectors } from './wordVectors.js';

/** Candidates per keyword search: deeper than recall's top k, so the nudges have room to act. */
export const KEYWORD_POOL = 50;
/** A "when" question's preference for memories that say when (relative to the score). */
export const DATED_BOOST = 0.3;
/**
 * What a memory of the named period sharing the query's words gains (relative to the best hit,
 * 1): half the best's score rather than all of it (dev: +0.3 coverage@5 on observations, +0.9
 * on dialog turns), so a period match that shares only a frequent word (the person's name) no
 * longer outranks a strong match from a day outside the period.
 */
export const PERIOD_BONUS = 0.5;
/** Share of a hit's score passed to the memory right after it, and right before it. */
export const CONTEXT_AFTER = 0.3;
export const CONTEXT_BEFORE = 0.15;
/** Memories further apart than this are not one conversation moment. */
export const CONTEXT_GAP_MS = 30 * 60_000;

export interface KeywordRankingOptions {
  filter: SearchFilter;
  /** The period the message names. */
  window?: TimeWindow;
  /** The message asks when something happened. */
  asksWhen: boolean;
  /** English word vectors: the main query also searches its words' nearest words. */
  words?: WordVectors;
}

type Scores = Map<string, { entry: IndexEntry; score: number }>;

/** Every candidate with its keyword relevance (the best = 1), best first; the first query is the main one. */
export function rankByKeywords(index: MemoryIndex, queries: readonly string[], o: KeywordRankingOptions): IndexHit[] {
  const [main, ...others] = queries;
  if (main === undefined) return [];
  const first = queryTerms(main);
  for (const part of compoundParts(first.keys(), (s) => index.idf(s))) if (!first.has(part)) first.set(part, 1);
  if (o.words) for (const [t, w] of expansionTerms(o.words, main, first, (s) => index.idf(s))) first.set(t, w);
  const { hits: mainHits, terms: mainTerms } = index.feedbackKeywordSearch(first, KEYWORD_POOL, o.filter, (hits) =>
    feedbackTerms(index, first, hits),
  );
  const scores: Scores = new Map();
  addBest(scores, mainHits);
  for (const query of others) addBest(scores, index.weightedKeywordSearch(queryTerms(query), KEYWORD_POOL, o.filter));
  if (o.asksWhen) for (const s of scores.values()) if (statesTime(s.entry.text)) s.score *= 1 + DATED_BOOST;
  const mainTop = mainHits[0]?.score ?? 0;
  if (o.window && mainTop > 0) preferPeriod(scores, index, mainTerms, mainTop, o);
  return sorted(withContext(scores, index, o.filter));
}

/** Each hit's score relative to its list's best; an entry found by several queries keeps its best. */
function addBest(scores: Scores, hits: readonly IndexHit[]): void {
  const top = hits[0]?.score ?? 0;
  if (top <= 0) return;
  for (const h of hits) {
    const s = h.score / top;
    const had = scores.get(h.entry.id);
    if (!had || had.score < s) scores.set(h.entry.id, { entry: h.entry, score: s });
  }
}

/** Memories of the named period sharing the main query's words rise by PERIOD_BONUS. */
function preferPeriod(
  scores: Scores,
  index: MemoryIndex,
  terms: ReadonlyMap<string, number>,
  top: number,
  o: KeywordRankingOptions,
): void {
  const inPeriod = index.weightedKeywordSearch(terms, KEYWORD_POOL, { ...o.filter, occurred: o.window });
  for (const h of inPeriod) {
    const had = scores.get(h.entry.id);
    scores.set(h.entry.id, { entry: h.entry, score: (had?.score ?? h.score / top) + PERIOD_BONUS });
  }
}

/** Adds to each candidate's neighbours in time a share of its score (from the scores before sharing). */
function withContext(scores: Scores, index: MemoryIndex, filter: SearchFilter): Scores {
  const out: Scores = new Map([...scores].map(([id, s]) => [id, { ...s }]));
  const share = (entry: IndexEntry | undefined, amount: number): void => {
    if (!entry || !accepts(filter, entry)) return;
    const had = out.get(entry.id);
    if (had) had.score += amount;
    else out.set(entry.id, { entry, score: amount });
  };
  for (const { entry, score } of scores.values()) {
    const { before, after } = index.around(entry.id, CONTEXT_GAP_MS);
    share(after, CONTEXT_AFTER * score);
    share(before, CONTEXT_BEFORE * score);
  }
  return out;
}

function accepts(filter: SearchFilter, entry: IndexEntry): boolean {
  return (!filter.kinds || filter.kinds.includes(entry.kind)) && placeAccepts(filter, entry);
}

/** Best first, relative to the best (1); ties by id so the order is stable. */
function sorted(scores: Scores): IndexHit[] {
  const hits = [...scores.values()].sort(
    (a, b) => b.score - a.score || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0),
  );
  const top = hits[0]?.score ?? 0;
  return top > 0 ? hits.map((h) => ({ entry: h.entry, score: h.score / top })) : [];
}
