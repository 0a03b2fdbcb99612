// Query expansion by word vectors (pure over the index): each English word of the keyword query
// brings its nearest words ("hurt" → injured, injury, pain) that the memories use, at a weight
// below the query's own 1 scaled by how close they are, so a memory that says it in other words
// is found without outranking one that says it in the query's words. Measured on LoCoMo dev
// (bench/locomo.ts) together with the meaning rerank (meaningRerank.ts): see that file.
import { baseForm } from './irregularVerbs.js';
import { isKeywordStopword, keywordStem, segments } from './textFeatures.js';
import type { WordVectors } from './wordVectors.js';

/**
 * Neighbours looked at per query word, the least cosine of one that is added (GloVe's near
 * synonyms and inflections sit above 0.6, mere topic words below), and the weight of an added
 * term per unit of cosine, next to the query's own 1.
 */
export const EXPANSION = { neighbours: 10, minSimilarity: 0.6, weight: 0.3 } as const;

// Vocabulary entries that are plain lowercase words (GloVe also lists punctuation, numbers, "e-mail").
const PLAIN_WORD = /^[a-z]+$/;

/**
 * Keyword terms (stems) to add to `terms`, each with its weight: neighbours of the text's English
 * content words that occur among the memories (`idf` > 0) and are not in the query already.
 */
export function expansionTerms(
  words: WordVectors,
  text: string,
  terms: ReadonlyMap<string, number>,
  idf: (stem: string) => number,
): Map<string, number> {
  const asked = queryWords(words, text);
  const added = new Map<string, number>();
  for (const neighbours of words.neighbours(asked, EXPANSION.neighbours)) {
    for (const { word, similarity } of neighbours) {
      if (similarity < EXPANSION.minSimilarity || !PLAIN_WORD.test(word)) continue;
      const stem = keywordStem(baseForm(word));
      if (terms.has(stem) || idf(stem) <= 0) continue;
      const weight = EXPANSION.weight * similarity;
      if ((added.get(stem) ?? 0) < weight) added.set(stem, weight);
    }
  }
  return added;
}

/** The text's English content words as the vectors know them (as written, else their base form). */
function queryWords(words: WordVectors, text: string): string[] {
  const out = new Set<string>();
  for (const s of segments(text)) {
    if (s.kind !== 'word' || /^\d/.test(s.text) || isKeywordStopword(s.text)) continue;
    const word = words.rank(s.text) !== undefined ? s.text : baseForm(s.text);
    if (words.rank(word) !== undefined) out.add(word);
  }
  return [...out];
}
