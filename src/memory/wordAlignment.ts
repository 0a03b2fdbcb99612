// Word alignment of a message with a memory (pure): each English content word of the message is
// matched to the memory's word nearest in meaning ("hurt" → injury), and the matches are averaged,
// weighted as SIF weighs words (sentenceMeaning.ts: rare words count most). Unlike the averaged
// sentence vector, one rare question word that the memory also says (or nearly says) is not
// blurred by the rest. Only similarities above ALIGNMENT_FLOOR count: below it GloVe neighbours
// are mere topic words, and every pair of English words has some similarity.
import { baseForm } from './irregularVerbs.js';
import { sifWeight } from './sentenceMeaning.js';
import { isKeywordStopword, segments } from './textFeatures.js';
import type { WordVectors } from './wordVectors.js';

/** Least cosine that counts, rescaled so that it gives 0 and the word itself 1 (dev: 0.3 gave less, 0.6 and 0.7 the same). */
export const ALIGNMENT_FLOOR = 0.5;

export interface WeightedWord {
  word: string;
  weight: number;
}

/** The text's English content words the vectors know (as written, else their base form), each once, with its SIF weight. */
export function contentWords(words: WordVectors, text: string): WeightedWord[] {
  const out = new Map<string, number>();
  for (const s of segments(text)) {
    if (s.kind !== 'word' || /^\d/.test(s.text) || isKeywordStopword(s.text)) continue;
    const word = words.rank(s.text) !== undefined ? s.text : baseForm(s.text);
    const rank = words.rank(word);
    if (rank !== undefined) out.set(word, sifWeight(rank));
  }
  return [...out].map(([word, weight]) => ({ word, weight }));
}

/** 0..1: how well the memory's words cover the message's, by meaning (0 when the message has none). */
export function alignment(words: WordVectors, asked: readonly WeightedWord[], memory: readonly WeightedWord[]): number {
  let sum = 0;
  let total = 0;
  for (const q of asked) {
    sum += q.weight * matchOf(words, q.word, memory);
    total += q.weight;
  }
  return total > 0 ? sum / total : 0;
}

/** The best match of one word among the memory's, rescaled above the floor. */
function matchOf(words: WordVectors, word: string, memory: readonly WeightedWord[]): number {
  let best = 0;
  for (const m of memory) {
    const s = m.word === word ? 1 : (words.similarity(word, m.word) ?? 0);
    if (s > best) best = s;
  }
  return Math.max(0, (best - ALIGNMENT_FLOOR) / (1 - ALIGNMENT_FLOOR));
}
