// Keyword lists of the fast tone detector (seed 003 Q2), Chinese and English. The Chinese lists
// start with seed 003's words; the rest are common ways people say the same in chat. English
// entries match whole words or phrases, case-insensitively; Chinese entries match anywhere.
import type { ToneEmotion } from '../domain/model.js';

export interface EmotionLexicon {
  zh: readonly string[];
  en: readonly string[];
}

export const TONE_LEXICON: Record<ToneEmotion, EmotionLexicon> = {
  anxiety: {
    zh: [
      '担心',
      '害怕',
      '紧张',
      '不安',
      '风险',
      '后悔',
      '焦虑',
      '忐忑',
      '心慌',
      '发愁',
      '着急',
      '睡不着',
      '好怕',
      '很怕',
      '我怕',
      '怕怕',
    ],
    en: [
      'worried',
      'worry',
      'worrying',
      'anxious',
      'anxiety',
      'nervous',
      'scared',
      'afraid',
      'fear',
      'panic',
      'panicking',
      'stressed',
      'freaking out',
      'risky',
      'regret',
      'uneasy',
    ],
  },
  excitement: {
    zh: ['期待', '想要', '终于', '迫不及待', '好想', '太棒了', '太好了', '激动', '兴奋', '开心', '好耶'],
    en: [
      'excited',
      'exciting',
      "can't wait",
      'cannot wait',
      'finally',
      'awesome',
      'amazing',
      'thrilled',
      'yay',
      'woohoo',
      'looking forward',
      'so happy',
      'love it',
    ],
  },
  confusion: {
    zh: ['不懂', '什么意思', '搞不清', '迷茫', '不明白', '看不懂', '不清楚', '糊涂', '为什么会', '怎么回事', '没听懂'],
    en: [
      'confused',
      'confusing',
      "don't understand",
      'do not understand',
      "doesn't make sense",
      'what do you mean',
      'not sure',
      "i'm lost",
      'totally lost',
      'unclear',
      'huh',
      'no idea',
    ],
  },
  trust: {
    zh: ['相信', '放心', '专业', '感谢', '信任', '靠谱', '谢谢', '多亏', '听你的'],
    en: [
      'trust',
      'thank you',
      'thanks',
      'grateful',
      'appreciate',
      'reliable',
      'count on you',
      'believe you',
      'reassured',
    ],
  },
  sadness: {
    zh: ['难过', '伤心', '失落', '沮丧', '想哭', '哭了', '孤独', '寂寞', '心累', '失望', '低落', '郁闷', '痛苦'],
    en: [
      'sad',
      'upset',
      'depressed',
      'lonely',
      'heartbroken',
      'feeling down',
      'feel down',
      'miserable',
      'crying',
      'cried',
      'disappointed',
      'hopeless',
      'hurts',
    ],
  },
  anger: {
    zh: ['生气', '气死', '愤怒', '烦死', '讨厌', '受够了', '恼火', '凭什么', '太过分', '火大', '好烦', '烦人', '心烦'],
    en: [
      'angry',
      'furious',
      'annoyed',
      'annoying',
      'pissed',
      'hate',
      'fed up',
      'sick of',
      'ridiculous',
      'outraged',
      'mad at',
    ],
  },
};

/**
 * Negation words: a keyword right after one of these does not count ("不担心", "别紧张",
 * "not worried", "don't worry"). Only the few characters or words just before are checked.
 */
export const NEGATIONS = {
  zh: ['不', '没', '别', '无', '未', '甭'],
  en: [
    'not',
    'no',
    'never',
    "don't",
    'dont',
    "didn't",
    "isn't",
    "aren't",
    "wasn't",
    "won't",
    'without',
    "doesn't",
    "ain't",
    'nothing',
  ],
} as const;
