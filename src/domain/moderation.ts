// Moderation's pure rules (SPEC §14): whether a text holds one of the operator's keywords, and
// when replies are held back to be checked. The endpoint's call lives in src/moderation/; this
// file decides nothing about I/O, so ingest, replies and tests share one matching rule.

/** What a check found. `by` names what flagged it; an endpoint that could not answer is `endpointFailed`. */
export interface ModerationVerdict {
  flagged: boolean;
  by?: 'keyword' | 'endpoint';
  /** The keyword that matched, as the operator wrote it. */
  matched?: string;
  /** The endpoint's categories that were flagged (e.g. `harassment`). */
  categories?: string[];
  /** The endpoint failed or timed out and the text passed unchecked by it (fail open): why. */
  endpointFailed?: string;
}

export const CLEAN: ModerationVerdict = Object.freeze({ flagged: false });

// Letters and digits of scripts that separate words with spaces: a keyword edge made of these
// needs a word boundary there ("ass" must not flag "class"). Han, kana and Hangul are written
// without spaces, so a keyword in them matches anywhere (substring), as people expect in Chinese.
const SPACED_WORD_CHAR =
  /^(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{L}\p{N}\p{M}]$/u;
// Invisible format characters (zero-width space, joiner, soft hyphen) are dropped so they cannot
// split a keyword; runs of white space count as one space.
const INVISIBLE = /\p{Cf}/gu;
const SPACES = /\s+/gu;

/** The form both text and keywords are compared in: NFKC (full-width → ASCII), lower case. */
export function moderationForm(s: string): string {
  return s.normalize('NFKC').replace(INVISIBLE, '').replace(SPACES, ' ').toLowerCase().trim();
}

const isSpacedWordChar = (c: string | undefined): boolean => c !== undefined && SPACED_WORD_CHAR.test(c);

/** Whether `needle` occurs in `hay` (both in moderationForm) with a word boundary at each spaced-script edge. */
function occursAsWord(hay: string, needle: string): boolean {
  const first = [...needle][0];
  const last = [...needle].at(-1);
  const boundStart = isSpacedWordChar(first);
  const boundEnd = isSpacedWordChar(last);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = [...hay.slice(Math.max(0, at - 2), at)].at(-1);
    const after = [...hay.slice(at + needle.length, at + needle.length + 2)][0];
    if (boundStart && isSpacedWordChar(before)) continue;
    if (boundEnd && isSpacedWordChar(after)) continue;
    return true;
  }
  return false;
}

/**
 * The first keyword `text` holds: case-insensitive, after Unicode normalisation (NFKC), whole
 * words for Latin-like scripts and substrings for Chinese and Japanese. Blank keywords are ignored.
 */
export function keywordVerdict(text: string, keywords: readonly string[]): ModerationVerdict {
  if (keywords.length === 0) return CLEAN;
  const hay = moderationForm(text);
  if (!hay) return CLEAN;
  for (const keyword of keywords) {
    const needle = moderationForm(keyword);
    if (needle && occursAsWord(hay, needle)) return { flagged: true, by: 'keyword', matched: keyword };
  }
  return CLEAN;
}

/** The config's moderation section, as this rule reads it. */
export interface ModerationSettings {
  keywords: readonly string[];
  check_replies: boolean;
}

/**
 * Whether replies are checked (and so held back until complete, SPEC §14): `check_replies` on and
 * something to check with — keywords, or a moderation endpoint. Off, replies stream as they come.
 */
export const repliesChecked = (s: ModerationSettings, endpoint: boolean): boolean =>
  s.check_replies && (s.keywords.length > 0 || endpoint);
