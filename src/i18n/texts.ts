// User-facing system texts (SPEC §11: zh-CN by default, English available).
export type Locale = 'zh-CN' | 'en';

const TEXTS = {
  MESSAGE_CONTENT_REQUIRED: {
    'zh-CN': '消息内容不能为空。请发送文字消息。',
    en: 'Your message is empty. Please send some text.',
  },
  MESSAGE_TOO_LONG: {
    'zh-CN': '消息太长了（最多 10000 字）。请缩短后再发送。',
    en: 'That message is too long (at most 10,000 characters). Please shorten it and send it again.',
  },
  LLM_SERVICE_ERROR: {
    'zh-CN': '抱歉，AI 服务暂时出错了，请稍后再试。',
    en: 'Sorry, the AI service had an error. Please try again in a moment.',
  },
  GENERATION_TIMEOUT: {
    'zh-CN': '抱歉，回复生成超时了，请再试一次。',
    en: 'Sorry, the reply took too long and was stopped. Please try again.',
  },
  INTERRUPTED_MARK: {
    'zh-CN': '（已停止）',
    en: '(stopped)',
  },
  NOTHING_TO_STOP: {
    'zh-CN': '当前没有正在生成的回复。',
    en: 'There is no reply in progress to stop.',
  },
  EMPTY_REPLY: {
    'zh-CN': '（没有回复）',
    en: '(no reply)',
  },
} satisfies Record<string, Record<Locale, string>>;

export type TextKey = keyof typeof TEXTS;

export function text(key: TextKey, locale: Locale): string {
  return TEXTS[key][locale];
}

/** The platform's language tag wins when we have that language; otherwise the default. */
export function pickLocale(languageCode: string | undefined, fallback: Locale): Locale {
  if (!languageCode) return fallback;
  const tag = languageCode.toLowerCase();
  if (tag.startsWith('zh')) return 'zh-CN';
  if (tag.startsWith('en')) return 'en';
  return fallback;
}
