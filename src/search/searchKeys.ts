// Search keys of a text (pure): the unique character bigrams of its text, normalised (NFKC,
// lower case), and the spans around its word gaps (gapGrams). The message search index
// (src/search/indexTerms.ts) files each message under them, so a search first narrows to messages holding every bigram of the query — which works
// for Chinese, where there are no spaces to split words on — and only then checks the literal
// text on those few.
import type { Message } from '../domain/model.js';

export function normalizeForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const BLANK = /^\s+$/u;

/** Distinct bigrams of the normalised text in order of first appearance; pairs of blanks say nothing and are left out. */
export function bigrams(text: string): string[] {
  const chars = Array.from(normalizeForSearch(text));
  const seen = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) {
    const pair = chars[i]! + chars[i + 1]!;
    if (!BLANK.test(pair)) seen.add(pair);
  }
  return [...seen];
}

/** Whether a character is whitespace. */
const blank = (c: string | undefined) => c === undefined || /^\s$/u.test(c);

/**
 * Distinct spans of two characters, one space and two characters around each word gap ("ie to"
 * in "movie tonight"). Far rarer than the bigrams inside them: a phrase of common words, whose
 * every bigram is in half the record, still narrows to about its own messages.
 */
export function gapGrams(text: string): string[] {
  const chars = Array.from(normalizeForSearch(text));
  const seen = new Set<string>();
  for (let i = 2; i + 2 < chars.length; i++) {
    if (chars[i] !== ' ') continue;
    const around = [chars[i - 2], chars[i - 1], chars[i + 1], chars[i + 2]];
    if (!around.some(blank)) seen.add(chars.slice(i - 2, i + 3).join(''));
  }
  return [...seen];
}

/** What a message search matches: the text, and the caption or transcription of its media. */
export function searchableTexts(m: Pick<Message, 'content' | 'contentMeta'>): string[] {
  return [m.content, m.contentMeta?.caption, m.contentMeta?.transcription].filter(
    (t): t is string => typeof t === 'string' && t.length > 0,
  );
}

/** A regex source matching `text` literally (every metacharacter escaped). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
