// Recall's two retrievers merged into one relevance per memory (pure over the index). Keywords
// alone (the offline embedder, or embeddings down): the keyword retriever's own scores, relative
// to its best, so recency and importance (rrf.ts) only reorder near-ties; with English word
// vectors, the message's misspelt words are corrected first (spelling.ts), its query also searches
// near words and its candidates are reranked by meaning (wordExpansion.ts, meaningRerank.ts).
// With vectors from an
// embedder that understands meaning: reciprocal rank fusion of the keyword ranking and the
// vector lists (one per query), the two retrievers weighing the same, as SPEC §5 asks.
import type { IndexEntry, IndexHit, MemoryIndex, SearchFilter } from './memoryIndex.js';
import { rankByKeywords } from './keywordRanking.js';
import { rerankByMeaning } from './meaningRerank.js';
import { weightedRankFusion } from './rrf.js';
import { correctText } from './spelling.js';
import { keywordStem } from './textFeatures.js';
import { asksWhen, timeWindow } from './timeCues.js';
import type { WordVectors } from './wordVectors.js';

/** Memories per vector list. */
const PER_LIST = 20;

export interface RetrieverInput {
  keywordQueries: readonly string[];
  /** One per synthesised query; absent: keywords alone. */
  vectors?: readonly Float32Array[];
  filter: SearchFilter;
  /** The user's message: the period it names and whether it asks "when". */
  message: string;
  now: Date;
  /** English word vectors for keyword-only recall (left out when `vectors` carry meaning). */
  words?: WordVectors;
}

export interface Fused {
  relevance: Map<string, number>;
  candidates: Map<string, IndexEntry>;
}

export function fuseRetrievers(index: MemoryIndex, input: RetrieverInput): Fused {
  const words = input.vectors ? undefined : input.words;
  const o = words ? spellingCorrected(index, input, words) : input;
  const window = timeWindow(o.message, o.now);
  const keyword = rankByKeywords(index, o.keywordQueries, {
    filter: o.filter,
    asksWhen: asksWhen(o.message),
    ...(window ? { window } : {}),
    ...(words ? { words } : {}),
  });
  const vectorLists = o.vectors ? index.searchMany(o.vectors, PER_LIST, o.filter).filter((l) => l.length > 0) : [];
  const candidates = new Map<string, IndexEntry>();
  for (const list of [keyword, ...vectorLists]) for (const h of list) candidates.set(h.entry.id, h.entry);
  if (vectorLists.length === 0) {
    const relevance = words
      ? rerankByMeaning(words, o.message, keyword)
      : new Map(keyword.map((h) => [h.entry.id, h.score]));
    return { relevance, candidates };
  }
  const ids = (l: IndexHit[]) => l.map((h) => h.entry.id);
  const relevance = weightedRankFusion([
    { ids: ids(keyword), weight: 1 },
    ...vectorLists.map((l) => ({ ids: ids(l), weight: 1 / vectorLists.length })),
  ]);
  return { relevance, candidates };
}

/** The message and keyword queries with the words that neither the memories nor the vectors know corrected. */
function spellingCorrected(index: MemoryIndex, o: RetrieverInput, words: WordVectors): RetrieverInput {
  const known = (word: string): boolean => index.idf(keywordStem(word)) > 0;
  return {
    ...o,
    message: correctText(words, o.message, known),
    keywordQueries: o.keywordQueries.map((q) => correctText(words, q, known)),
  };
}
