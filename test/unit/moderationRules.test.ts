// Moderation's keyword rule (src/domain/moderation.ts): case and width do not hide a keyword,
// Latin keywords match whole words only ("class" never trips "ass"), Chinese ones match inside
// running text, and replies are held back only when there is something to check them with.
import { describe, expect, it } from 'vitest';
import { keywordVerdict, moderationForm, repliesChecked } from '../../src/domain/moderation.js';

const flags = (text: string, keywords: string[]) => keywordVerdict(text, keywords).flagged;

describe('keywordVerdict', () => {
  it('flags a keyword whatever its case or width, and names the keyword as the operator wrote it', () => {
    expect(keywordVerdict('You ASS!', ['Ass'])).toEqual({ flagged: true, by: 'keyword', matched: 'Ass' });
    expect(flags('ＡＳＳ hat', ['ass'])).toBe(true); // full-width letters (NFKC)
    expect(flags('ﬁnance scam', ['finance'])).toBe(true); // the ligature ﬁ is f + i
    expect(flags('a\u200Bss', ['ass'])).toBe(true); // a zero-width space cannot split it
  });

  it('matches Latin keywords as whole words only', () => {
    expect(flags('this class is fun', ['ass'])).toBe(false);
    expect(flags('an assassin', ['ass'])).toBe(false);
    expect(flags('sass', ['ass'])).toBe(false);
    expect(flags('spam-bot', ['spam'])).toBe(true);
    expect(flags('"spam".', ['spam'])).toBe(true);
    expect(flags('buy   now, please', ['buy now'])).toBe(true); // white space runs count as one
    expect(flags('buynow', ['buy now'])).toBe(false);
  });

  it('matches Chinese keywords anywhere in running text, and Latin ones beside Chinese', () => {
    expect(keywordVerdict('我想去赌博网站看看', ['赌博'])).toMatchObject({ flagged: true, matched: '赌博' });
    expect(flags('你是ass吗', ['ass'])).toBe(true);
    expect(flags('今天天气很好', ['赌博'])).toBe(false);
  });

  it('is clean without keywords, for blank text and blank keywords, and says which keyword came first', () => {
    expect(keywordVerdict('anything', [])).toEqual({ flagged: false });
    expect(keywordVerdict('   ', ['a'])).toEqual({ flagged: false });
    expect(keywordVerdict('hello', ['  ', ''])).toEqual({ flagged: false });
    expect(keywordVerdict('spam and scam', ['scam', 'spam']).matched).toBe('scam');
  });

  it('compares in one form: NFKC, lower case, single spaces, no invisible characters', () => {
    expect(moderationForm('  Ｈｅｌｌｏ\u00AD  World ')).toBe('hello world');
  });
});

describe('repliesChecked', () => {
  it('holds replies only when check_replies is on and there are keywords or an endpoint', () => {
    expect(repliesChecked({ keywords: ['x'], check_replies: true }, false)).toBe(true);
    expect(repliesChecked({ keywords: [], check_replies: true }, true)).toBe(true);
    expect(repliesChecked({ keywords: [], check_replies: true }, false)).toBe(false);
    expect(repliesChecked({ keywords: ['x'], check_replies: false }, true)).toBe(false);
  });
});
