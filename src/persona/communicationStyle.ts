// How the user writes, read from their recent messages (seed 003 §阶段3 inferCommunicationStyle):
// language, message length, emoji use and formality. Also decides which language the prompt's
// dynamic guidance (tone, persona card) is written in. Pure.
import type { PromptLanguage } from '../tone/templates.js';

export interface CommunicationStyle {
  language: 'zh' | 'en' | 'mixed';
  length: 'brief' | 'detailed';
  emoji: 'none' | 'some' | 'frequent';
  formality: 'casual' | 'neutral' | 'formal';
}

const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /[A-Za-z]+(?:'[A-Za-z]+)?/g;
const EMOJI = /\p{Extended_Pictographic}|[:;]-?[)(DPp]|\^_\^|[（(][^()（）\s]{0,3}[ω▽＾^][^()（）\s]{0,3}[)）]/gu;

const FORMAL = {
  zh: ['您', '请问', '麻烦', '劳驾', '敬请', '烦请', '此致'],
  en: ['please', 'could you', 'would you', 'kindly', 'dear', 'regards', 'thank you', 'sincerely', 'may i'],
};
const CASUAL = {
  zh: ['哈哈', '嘿嘿', '嗯嗯', '啦', '呀', '嘛', '咋', '啥', '木有', '酱紫', '滴', '哒', 'hh', '666'],
  en: [
    'lol',
    'haha',
    'hahaha',
    'hey',
    'yeah',
    'yep',
    'gonna',
    'wanna',
    'btw',
    'omg',
    'lmao',
    'u',
    'ur',
    'dude',
    'cool',
  ],
};

const countOf = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** Chinese markers match anywhere; English ones only as whole words ("u" is not in "you"). */
function hits(text: string, words: { zh: readonly string[]; en: readonly string[] }): number {
  const lower = text.toLowerCase();
  const zh = words.zh.filter((w) => lower.includes(w)).length;
  const en = words.en.filter((w) => new RegExp(`(?<![a-z'])${w}(?![a-z'])`, 'u').test(lower)).length;
  return zh + en;
}

/** Share of Han characters among Han characters plus Latin words; 0 when there is no text. */
function cjkShare(texts: readonly string[]): number {
  let han = 0;
  let words = 0;
  for (const t of texts) {
    han += countOf(t, HAN);
    words += countOf(t, LATIN_WORD);
  }
  // One English word carries about as much as two Chinese characters.
  const total = han + words * 2;
  return total === 0 ? 0 : han / total;
}

/** The language the prompt's guidance is written in: zh when the user writes mostly Chinese. */
export function promptLanguage(recentTexts: readonly string[], fallback: PromptLanguage = 'en'): PromptLanguage {
  const nonEmpty = recentTexts.filter((t) => t.trim());
  if (nonEmpty.length === 0) return fallback;
  const share = cjkShare(nonEmpty);
  if (share === 0 && nonEmpty.every((t) => countOf(t, LATIN_WORD) === 0)) return fallback;
  return share > 0.5 ? 'zh' : 'en';
}

export function inferCommunicationStyle(recentTexts: readonly string[]): CommunicationStyle | undefined {
  const texts = recentTexts.filter((t) => t.trim());
  if (texts.length === 0) return undefined;
  const share = cjkShare(texts);
  const language = share >= 0.8 ? 'zh' : share <= 0.2 ? 'en' : 'mixed';
  // Length in "words": two Han characters count as one word.
  const words = texts.reduce((n, t) => n + countOf(t, HAN) / 2 + countOf(t, LATIN_WORD), 0) / texts.length;
  const length = words < 15 ? 'brief' : 'detailed';
  const withEmoji = texts.filter((t) => countOf(t, EMOJI) > 0).length / texts.length;
  const emoji = withEmoji === 0 ? 'none' : withEmoji >= 0.5 ? 'frequent' : 'some';
  let formal = 0;
  let casual = 0;
  for (const t of texts) {
    formal += hits(t, FORMAL);
    casual += hits(t, CASUAL);
  }
  const formality = formal > casual ? 'formal' : casual > formal ? 'casual' : 'neutral';
  return { language, length, emoji, formality };
}

const WORDS = {
  zh: {
    language: { zh: '中文', en: '英文', mixed: '中英混用' },
    length: { brief: '消息简短', detailed: '消息较长、描述详细' },
    emoji: { none: '不用表情', some: '偶尔用表情', frequent: '常用表情' },
    formality: { casual: '语气随意', neutral: '语气平常', formal: '语气礼貌正式' },
    sep: '，',
  },
  en: {
    language: { zh: 'writes Chinese', en: 'writes English', mixed: 'mixes Chinese and English' },
    length: { brief: 'short messages', detailed: 'long, detailed messages' },
    emoji: { none: 'no emoji', some: 'some emoji', frequent: 'lots of emoji' },
    formality: { casual: 'casual', neutral: 'neutral tone', formal: 'polite and formal' },
    sep: ', ',
  },
} as const;

export function describeStyle(style: CommunicationStyle, lang: PromptLanguage): string {
  const w = WORDS[lang];
  return [w.language[style.language], w.length[style.length], w.emoji[style.emoji], w.formality[style.formality]].join(
    w.sep,
  );
}
