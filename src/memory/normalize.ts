// Memory text rules (pure): the normalised form behind the dedupe key, so the same fact written
// with other spacing, case or punctuation is stored once, and the length limit that keeps an
// oversized extraction from being stored whole.
import { createHash } from 'node:crypto';
import type { MemoryOrigin } from '../domain/model.js';
import { homeOf, PRIVATE_HOME } from '../domain/memoryOrigin.js';

/** NFKC, lower case, punctuation and symbols dropped, whitespace collapsed. */
export function normalizeMemoryText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Hash of owner, subject, normalised text and — for a group's or room's memory — its home
 * (`homeOf`), so the same words said in two places are two memories, each recalled only in
 * its own. Private memories keep the key they had before origins existed.
 */
export function dedupeKeyOf(
  ownerId: string,
  subjectId: string | undefined,
  text: string,
  origin?: MemoryOrigin,
): string {
  const home = homeOf(origin);
  const parts = [ownerId, subjectId ?? '', normalizeMemoryText(text)];
  return createHash('sha256')
    .update((home === PRIVATE_HOME ? parts : [...parts, home]).join('\u0000'))
    .digest('hex')
    .slice(0, 40);
}

// Sentence ends in English and Chinese; the cut keeps the terminator.
const SENTENCE_END = /[.!?;。！？；…]+["'”’)）]*(?=\s|$)|[。！？；…]+["'”’)）]*|\n+/gu;
const ELLIPSIS = '…';

/**
 * Trims and, over `maxChars` (counted in code points), cuts at the last sentence end that keeps
 * at least a third of the budget; otherwise at the last word break (English) or hard (Chinese),
 * marked with an ellipsis. The result is never longer than `maxChars`.
 */
export function clampMemoryText(text: string, maxChars: number): string {
  const trimmed = text.replace(/[ \t]+/g, ' ').trim();
  const chars = Array.from(trimmed);
  if (chars.length <= maxChars) return trimmed;
  const window = chars.slice(0, maxChars).join('');
  let cut = -1;
  for (const m of window.matchAll(SENTENCE_END)) {
    const end = Array.from(window.slice(0, m.index + m[0].length)).length;
    if (end >= maxChars / 3) cut = end;
  }
  if (cut > 0) return chars.slice(0, cut).join('').trim();
  const room = chars.slice(0, Math.max(1, maxChars - 1)).join('');
  const space = room.lastIndexOf(' ');
  const body = space >= room.length / 3 ? room.slice(0, space) : room;
  return body.trimEnd() + ELLIPSIS;
}
