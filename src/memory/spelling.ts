// Misspelt query words (pure): a word neither the memories nor the word vectors know ("educaton",
// "persue", "torunament") is most likely a typo of a near word that they do — the most frequent
// vocabulary word within one edit (two for long words), with the same first letter, that the
// memories use. A rare real word outside the vectors' 20k can be mistaken ("cooker" → cooked):
// the cost is one near word searched instead of a word no memory has. Only words unknown to both
// are looked up, so a typical message costs nothing; one that is scans the vocabulary once
// (20k words, length-filtered), independent of how many memories there are.
// LoCoMo dev (bench/locomo.ts): 9 of 760 questions have such a word; +0.1 coverage@5 on both forms.
import type { WordVectors } from './wordVectors.js';

/** Shortest word corrected, and the length from which two edits are allowed. */
export const SPELLING = { minLength: 5, twoEditsFrom: 8 } as const;

/** The correction of a lowercase `word` that `known` (the memories) lacks, or undefined when none is close enough. */
export function correctSpelling(words: WordVectors, word: string, known: (w: string) => boolean): string | undefined {
  if (word.length < SPELLING.minLength || !/^[a-z]+$/.test(word) || words.rank(word) !== undefined) return undefined;
  const max = word.length >= SPELLING.twoEditsFrom ? 2 : 1;
  for (let rank = 0; rank < words.size; rank++) {
    const w = words.wordAt(rank);
    if (w === undefined || Math.abs(w.length - word.length) > max || w[0] !== word[0]) continue;
    if (editDistance(word, w, max) <= max && known(w)) return w;
  }
  return undefined;
}

/** Optimal-string-alignment distance (a swap of neighbours is one edit), capped at max + 1. */
export function editDistance(a: string, b: string, max: number): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return Math.min(prev[b.length]!, max + 1);
}

/** The text with its misspelt English words replaced (as above); the rest as written. */
export function correctText(words: WordVectors, text: string, known: (w: string) => boolean): string {
  return text.replace(/[A-Za-z]+/g, (w) => {
    const lower = w.toLowerCase();
    if (known(lower)) return w;
    return correctSpelling(words, lower, known) ?? w;
  });
}
