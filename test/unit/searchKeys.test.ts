import { describe, expect, it } from 'vitest';
import { bigrams, escapeRegex, normalizeForSearch, searchableTexts } from '../../src/search/searchKeys.js';
import { messageTerms } from '../../src/search/indexTerms.js';

const termsOf = (texts: string[]) =>
  messageTerms({
    _id: 'm',
    dialogueId: 'd',
    content: texts[0] ?? '',
    contentMeta: { caption: texts[1], transcription: texts[2] },
    createdAt: new Date(0),
  });

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

  it('a query found in a text has all of its bigrams among the message’s terms', () => {
    const keys = new Set(termsOf(['说你好世界吧', 'Say HELLO there']));
    for (const q of ['好世', '你好世界', 'hello', 'hELLo th'])
      for (const k of bigrams(q)) expect(keys.has(k)).toBe(true);
  });

  it('never form a bigram across two texts, and read the caption and transcription of media', () => {
    expect(termsOf(['ab', 'cd']).filter((t) => t.length === 2)).toEqual(['ab', 'cd']);
    expect(searchableTexts({ content: '', contentMeta: { caption: '猫咪', transcription: 'Voice' } })).toEqual([
      '猫咪',
      'Voice',
    ]);
  });

  it('are not capped: a long text is filed under every bigram', () => {
    const text = Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    expect(termsOf([text]).filter((t) => t.length === 2)).toHaveLength(2999);
  });

  it('escape every regex metacharacter so the text matches literally', () => {
    for (const s of ['a.b*c(', '(', '[x]', '^$', 'a+b?', '{1}', 'a|b', 'back\\slash']) {
      const re = new RegExp(escapeRegex(s), 'i');
      expect(re.test(`before ${s} after`)).toBe(true);
    }
    expect(new RegExp(escapeRegex('a.b'), 'i').test('axb')).toBe(false);
  });
});
