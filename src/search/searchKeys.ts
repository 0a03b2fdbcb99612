// Search keys of a message (pure): the unique character bigrams of its text, normalised (NFKC,
// lower case). Stored on each message (`searchKeys`, a multikey index with createdAt) so a search
// first narrows to messages holding every bigram of the query — which works for Chinese, where
// there are no spaces to split words on — and only then runs the exact regex on those few.
import type { Message } from '../domain/model.js';

/** More distinct bigrams than this (long Chinese texts) are not stored; the message gets CAPPED_KEY instead of the rest. */
export const SEARCH_KEYS_CAP = 1024;
/** Marks a message whose keys were capped: searches always consider it (exactly 2 characters never equals it). */
export const CAPPED_KEY = '*capped*';

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

/** The stored key set of several texts (bigrams never span two texts), capped at `cap` plus the marker. */
export function searchKeysOf(texts: ReadonlyArray<string | undefined>, cap = SEARCH_KEYS_CAP): string[] {
  const keys = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const k of bigrams(text)) {
      if (keys.size >= cap && !keys.has(k)) return [...keys, CAPPED_KEY];
      keys.add(k);
    }
  }
  return [...keys];
}

/** What a message search matches: the text, and the caption or transcription of its media. */
export function searchableTexts(m: Pick<Message, 'content' | 'contentMeta'>): string[] {
  return [m.content, m.contentMeta?.caption, m.contentMeta?.transcription].filter(
    (t): t is string => typeof t === 'string' && t.length > 0,
  );
}

export function messageSearchKeys(m: Pick<Message, 'content' | 'contentMeta'>): string[] {
  return searchKeysOf(searchableTexts(m));
}

/** A regex source matching `text` literally (every metacharacter escaped). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
