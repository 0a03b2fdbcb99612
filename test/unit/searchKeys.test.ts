import { describe, expect, it } from 'vitest';
import {
  bigrams,
  CAPPED_KEY,
  escapeRegex,
  messageSearchKeys,
  normalizeForSearch,
  searchKeysOf,
} from '../../src/search/searchKeys.js';

describe('search keys', () => {
  it('are the distinct lower-case bigrams of Chinese and English text', () => {
    expect(bigrams('你好世界')).toEqual(['你好', '好世', '世界']);
    expect(bigrams('Hello')).toEqual(['he', 'el', 'll', 'lo']);
    expect(bigrams('aaaa')).toEqual(['aa']);
    expect(bigrams('x')).toEqual([]);
  });

  it('normalise width and case (NFKC, lower case) so full-width and upper-case text meet', () => {
    expect(normalizeForSearch('ＨＥＬＬＯ')).toBe('hello');
    expect(bigrams('ＡＢ')).toEqual(bigrams('ab'));
  });

  it('keep punctuation and single spaces but skip pairs of blanks', () => {
    expect(bigrams('a.b')).toEqual(['a.', '.b']);
    expect(bigrams('a  b')).toEqual(['a ', ' b']);
  });

  it('a query found in a text has all of its bigrams among the text’s keys', () => {
    const keys = new Set(searchKeysOf(['说你好世界吧', 'Say HELLO there']));
    for (const q of ['好世', '你好世界', 'hello', 'hELLo th'])
      for (const k of bigrams(q)) expect(keys.has(k)).toBe(true);
  });

  it('never form a bigram across two texts', () => {
    expect(searchKeysOf(['ab', 'cd'])).toEqual(['ab', 'cd']);
  });

  it('index the caption and transcription of media messages', () => {
    const keys = messageSearchKeys({ content: '', contentMeta: { caption: '猫咪', transcription: 'Voice' } });
    expect(keys).toEqual(['猫咪', 'vo', 'oi', 'ic', 'ce']);
  });

  it('are capped for very long texts, marked so searches still consider the message', () => {
    const text = Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const keys = searchKeysOf([text], 100);
    expect(keys).toHaveLength(101);
    expect(keys.at(-1)).toBe(CAPPED_KEY);
    expect(new Set(keys).size).toBe(keys.length);
    expect(searchKeysOf(['short'], 100)).not.toContain(CAPPED_KEY);
  });

  it('escape every regex metacharacter so the text matches literally', () => {
    for (const s of ['a.b*c(', '(', '[x]', '^$', 'a+b?', '{1}', 'a|b', 'back\\slash']) {
      const re = new RegExp(escapeRegex(s), 'i');
      expect(re.test(`before ${s} after`)).toBe(true);
    }
    expect(new RegExp(escapeRegex('a.b'), 'i').test('axb')).toBe(false);
  });
});
