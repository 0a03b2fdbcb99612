// Text features shared by the offline embedder, the keyword index and query synthesis (pure).
// Chinese has no spaces, so CJK runs become character n-grams; Latin text becomes lowercased
// words. Keywords are stemmed by Porter2 (Snowball English: adoption → adopt, inspiring →
// inspir), the embedder's features by a light plural/verb stem (lives → live) that stays as it
// was, so stored offline vectors never need recomputing.
import { stem as porter2 } from 'porter2';
import { baseForm } from './irregularVerbs.js';

/** A run of CJK characters or one Latin/digit word, in text order. */
export interface Segment {
  kind: 'cjk' | 'word';
  text: string;
}

// Han, kana and Hangul: scripts written without spaces between words.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
// A word stops where a CJK run starts (Han letters are \p{L} too): 2019年在Tokyo → 2019 | 年在 | tokyo.
const WORD_CHAR = `(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}])`;
const SEGMENT = new RegExp(`[${CJK_CLASS}]+|${WORD_CHAR}+(?:['’]${WORD_CHAR}+)*`, 'gu');

export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  for (const m of text.normalize('NFKC').matchAll(SEGMENT)) {
    const t = m[0];
    if (CJK.test(t[0] ?? '')) out.push({ kind: 'cjk', text: t });
    else
      out.push({
        kind: 'word',
        text: t
          .toLowerCase()
          .replace(/['’]s$/, '')
          .replace(/['’]/g, ''),
      });
  }
  return out;
}

/** The keyword index's stem: Porter2 for words, digits (years, ages, prices) as written. */
export function keywordStem(word: string): string {
  return /^\d/.test(word) ? word : porter2(word);
}

/**
 * A light stemmer (the offline embedder's): lives/lived/living/live → liv, parties → party, walked → walk, running → run.
 * Both sides of every comparison go through it, so the stems only need to agree, not be words.
 */
export function stem(word: string): string {
  const s = stemSuffix(word);
  return s.length > 3 && s.endsWith('e') && !s.endsWith('ee') ? s.slice(0, -1) : s;
}

function stemSuffix(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  return word;
}
const undouble = (w: string): string =>
  /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;

// Words that carry no topic; dropped from keyword queries and keyword search.
export const EN_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then so of to in on at by for with from about into over after before as is am are was were be been being ' +
    'do does did doing have has had having i me my mine myself you your yours we us our they them their he him his she her it its ' +
    'this that these those there here what which who whom whose when where why how can could would should will shall may might must ' +
    'not no yes just also too very really than more most some any all each every both few other such only own same up down out off ' +
    'again once go get got hi hello hey please thanks thank ok okay oh yeah lol know think tell said say let me something anything'
  ).split(' '),
);

// Function words the embedder's list lacks; dropped from keywords only (the embedder keeps its
// features as they were). "during" would otherwise stem to "dure" and match nothing useful.
const EN_KEYWORD_STOPWORDS: ReadonlySet<string> = new Set([
  ...EN_STOPWORDS,
  ...'during while until between through throughout within without upon onto toward towards via per whether though although because unless whose'.split(
    ' ',
  ),
]);

/** A Latin word that carries no topic for keyword search. */
export const isKeywordStopword = (word: string): boolean => EN_KEYWORD_STOPWORDS.has(word);

// Chinese function words and pronouns; removed from CJK runs before they become keywords.
export const ZH_STOPWORDS: readonly string[] = [
  '我们',
  '你们',
  '他们',
  '她们',
  '它们',
  '咱们',
  '自己',
  '什么',
  '怎么',
  '怎样',
  '如何',
  '为什么',
  '哪里',
  '哪儿',
  '这个',
  '那个',
  '这些',
  '那些',
  '这样',
  '那样',
  '一下',
  '一些',
  '一个',
  '有点',
  '还是',
  '就是',
  '但是',
  '因为',
  '所以',
  '可以',
  '知道',
  '觉得',
  '告诉',
  '现在',
  '然后',
  '已经',
  '没有',
  '不是',
  '是不是',
  '吗',
  '呢',
  '吧',
  '啊',
  '呀',
  '哦',
  '嗯',
  '了',
  '的',
  '地',
  '得',
  '着',
  '过',
  '是',
  '在',
  '和',
  '与',
  '跟',
  '也',
  '都',
  '就',
  '还',
  '很',
  '又',
  '再',
  '把',
  '被',
  '给',
  '让',
  '我',
  '你',
  '您',
  '他',
  '她',
  '它',
  '这',
  '那',
  '有',
  '个',
  '说',
  '请',
  '么',
  '对',
  '要',
  '会',
  '能',
  '想',
  '总是',
  '一直',
  '真的',
  '非常',
  '其实',
  '可能',
  '应该',
  '说说',
  '聊聊',
  '一点',
];
const ZH_STOP_CHARS: ReadonlySet<string> = new Set(ZH_STOPWORDS.filter((w) => w.length === 1));
const ZH_STOP_LONGEST_FIRST = [...ZH_STOPWORDS].sort((a, b) => b.length - a.length);

/** Cuts the given words (longest first) out of a CJK run; returns the remaining pieces in order. */
export function cutOut(run: string, words: readonly string[] = ZH_STOP_LONGEST_FIRST): string[] {
  let rest = run;
  for (const w of words) if (rest.includes(w)) rest = rest.split(w).join(' ');
  return rest.split(' ').filter((p) => p !== '');
}

/**
 * Tokens for keyword search (BM25): CJK bigrams plus the content characters (stopwords cut out)
 * as unigrams, and Porter2-stemmed Latin words without stopwords. Digits are kept (dates, ages, prices
 * are good keys). Both sides get the same unigrams: one-character words (猫, 家, 狗) are common
 * in Chinese, and a question rarely shares a bigram with the memory ("我的猫叫什么名字" and
 * "用户养了一只猫，名叫团子" share none), so bigrams alone would miss it; IDF keeps frequent
 * characters cheap.
 */
export function keywordTokens(text: string): string[] {
  const out: string[] = [];
  for (const s of segments(text)) {
    if (s.kind === 'word') {
      const word = baseForm(s.text);
      if (!isKeywordStopword(word)) out.push(keywordStem(word));
      continue;
    }
    const chars = [...s.text];
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    for (const piece of cutOut(s.text)) for (const c of piece) if (!ZH_STOP_CHARS.has(c)) out.push(c);
  }
  return out;
}

/**
 * Weighted features for the hashed embedder: CJK unigrams (function characters weighted low),
 * bigrams and trigrams; Latin stemmed words plus character trigrams of each word (so typos and
 * inflections overlap). Returns feature → summed weight of its occurrences.
 */
export function embeddingFeatures(text: string): Map<string, number> {
  const f = new Map<string, number>();
  const add = (key: string, w: number): void => void f.set(key, (f.get(key) ?? 0) + w);
  for (const s of segments(text)) {
    if (s.kind === 'word') {
      const stop = EN_STOPWORDS.has(s.text);
      const w = stem(s.text);
      add(`w:${w}`, stop ? 0.15 : 1);
      if (stop) continue;
      const padded = `<${w}>`;
      if (padded.length > 4) for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`, 0.35);
      continue;
    }
    // N-grams inside content pieces only: bigrams across 的/了/吗 are noise ("的猫", "么吗").
    for (const piece of cutOut(s.text)) {
      const c = [...piece];
      if (c.length === 1) add(`u:${c[0]!}`, 1); // a one-character word (猫, 家)
      for (let i = 0; i < c.length && c.length > 1; i++) {
        add(`u:${c[i]!}`, 0.6);
        if (i + 1 < c.length) add(`b:${c[i]!}${c[i + 1]!}`, 1);
        if (i + 2 < c.length) add(`t:${c[i]!}${c[i + 1]!}${c[i + 2]!}`, 0.5);
      }
    }
  }
  return f;
}
