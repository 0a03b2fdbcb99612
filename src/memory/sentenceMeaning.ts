// A sentence's meaning from its words' vectors (pure): the smooth-inverse-frequency average of
// Arora et al. ("A Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR 2017) — each
// content word weighs a / (a + p(word)), so rare words carry the meaning and frequent ones little.
// p(word) comes from the word's frequency rank by Zipf's law (the vectors are listed most
// frequent first), so a sentence's vector never depends on what else is stored.
import { baseForm } from './irregularVerbs.js';
import { isKeywordStopword, segments } from './textFeatures.js';
import type { WordVectors } from './wordVectors.js';
import { normalizeInPlace } from './vectors.js';

/** SIF's smoothing constant (the paper's usual value). */
export const SIF_A = 1e-3;
/** Zipf normaliser: the harmonic number of GloVe 6B's 400k-word vocabulary (ln n + γ). */
const ZIPF_NORM = Math.log(400_000) + 0.5772;

/** The SIF weight of the word of frequency rank `rank` (0: the most frequent). */
export function sifWeight(rank: number): number {
  const p = 1 / ((rank + 1) * ZIPF_NORM);
  return SIF_A / (SIF_A + p);
}

/** Unit-length meaning of the text's English content words; undefined when none has a vector (e.g. Chinese). */
export function sentenceMeaning(words: WordVectors, text: string): Float32Array | undefined {
  const sum = new Float32Array(words.dims);
  let found = false;
  for (const s of segments(text)) {
    if (s.kind !== 'word' || isKeywordStopword(s.text)) continue;
    // The word as written, else its base form (an irregular past the vectors lack).
    const word = words.rank(s.text) !== undefined ? s.text : baseForm(s.text);
    const rank = words.rank(word);
    if (rank === undefined) continue;
    found = words.addTo(sum, word, sifWeight(rank)) || found;
  }
  if (!found) return undefined;
  const v = normalizeInPlace(sum);
  return v.some((x) => x !== 0) ? v : undefined;
}
