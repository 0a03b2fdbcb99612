// Compound words (pure over the index's vocabulary): a query word the memories never use may be
// two words they do, written together ("roadtrip" → road trip, "icecream" → ice cream). Measured on
// LoCoMo dev (bench/locomo.ts): +0.2 coverage@5 on observations, nothing lost on dialog turns.
import { keywordStem } from './textFeatures.js';

/** Shortest part a word is split into. */
export const MIN_PART = 3;

// Latin letters only: digits and CJK tokens are never split.
const SPLITTABLE = /^[a-z]+$/;

/**
 * The parts of each unknown term (idf 0) that splits into two known keyword stems, each a stem as
 * written (so "mentorship" is not read as "mentors" + "hip"); the first split from the left wins.
 */
export function compoundParts(terms: Iterable<string>, idf: (stem: string) => number): string[] {
  const out: string[] = [];
  for (const term of terms) {
    if (idf(term) > 0 || term.length < 2 * MIN_PART || !SPLITTABLE.test(term)) continue;
    for (let i = MIN_PART; i <= term.length - MIN_PART; i++) {
      const head = term.slice(0, i);
      const tail = term.slice(i);
      if (isKnownStem(head, idf) && isKnownStem(tail, idf)) {
        out.push(head, tail);
        break;
      }
    }
  }
  return out;
}

function isKnownStem(part: string, idf: (stem: string) => number): boolean {
  return keywordStem(part) === part && idf(part) > 0;
}
