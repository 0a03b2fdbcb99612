// Tone guidance templates (seed 003 Q2 TONE_TEMPLATES). The zh texts of high_anxiety,
// high_excitement and confusion are the seed's own; sadness, anger and trust follow the same
// pattern. Every template has an English version; neutral adds nothing to the prompt.
import type { ToneState } from '../domain/model.js';
import { chooseTemplate, TONE_TEMPLATES, type ToneTemplate } from './toneState.js';

export type PromptLanguage = 'zh' | 'en';

export interface ToneTemplateSpec {
  empathy: 'low' | 'medium' | 'high';
  pace: 'slow' | 'normal';
  zh: string;
  en: string;
  /** How the user's mood reads on the persona card. */
  label: { zh: string; en: string };
}

export const TONE_TEMPLATE_TEXTS: Record<ToneTemplate, ToneTemplateSpec> = {
  high_anxiety: {
    empathy: 'high',
    pace: 'slow',
    zh: `用户目前显得比较焦虑，请：
1. 用温和稳重的语气回复
2. 先表达理解和共情
3. 给出明确的、有安全感的建议
4. 避免使用可能引发更多担忧的词汇`,
    en: `The user seems quite anxious right now. Please:
1. Reply in a calm, steady, gentle tone
2. Show understanding and empathy first
3. Give clear advice that makes them feel safe
4. Avoid words that could cause more worry`,
    label: { zh: '焦虑', en: 'anxious' },
  },
  high_excitement: {
    empathy: 'medium',
    pace: 'normal',
    zh: `用户情绪积极，请：
1. 保持专业的同时呼应用户的热情
2. 给出详细的实用建议
3. 适当管理期望，提醒注意事项`,
    en: `The user is in high spirits. Please:
1. Match their enthusiasm while staying competent
2. Give detailed, practical suggestions
3. Manage expectations gently and mention what to watch out for`,
    label: { zh: '兴奋', en: 'excited' },
  },
  confusion: {
    empathy: 'medium',
    pace: 'slow',
    zh: `用户似乎有些困惑，请：
1. 用简单易懂的语言解释
2. 分点列出关键信息
3. 主动询问哪里不清楚`,
    en: `The user seems a bit confused. Please:
1. Explain in simple, plain language
2. List the key points one by one
3. Ask which part is still unclear`,
    label: { zh: '困惑', en: 'confused' },
  },
  sadness: {
    empathy: 'high',
    pace: 'slow',
    zh: `用户情绪低落，请：
1. 先倾听和安慰，不急于给建议
2. 用温暖、真诚的语气回复
3. 肯定用户的感受，避免说教
4. 如有需要，轻轻询问是否想多聊聊`,
    en: `The user seems sad or low. Please:
1. Listen and comfort first; do not rush to advice
2. Reply warmly and sincerely
3. Acknowledge their feelings; do not lecture
4. If it fits, gently ask whether they want to talk more`,
    label: { zh: '低落', en: 'sad' },
  },
  anger: {
    empathy: 'high',
    pace: 'slow',
    zh: `用户似乎有些生气或不满，请：
1. 保持冷静和尊重，不要争辩
2. 承认用户的不满，表示理解
3. 聚焦于能解决问题的具体办法
4. 语句简短清楚，避免辩解`,
    en: `The user seems angry or frustrated. Please:
1. Stay calm and respectful; do not argue
2. Acknowledge the frustration and show you understand
3. Focus on concrete ways to fix the problem
4. Keep sentences short and clear; avoid excuses`,
    label: { zh: '生气', en: 'angry' },
  },
  trust: {
    empathy: 'medium',
    pace: 'normal',
    zh: `用户对你比较信任，请：
1. 珍惜这份信任，保持真诚可靠
2. 给出负责任的建议，不夸大
3. 不确定的地方如实说明`,
    en: `The user trusts you. Please:
1. Honour that trust; stay sincere and reliable
2. Give responsible advice without overstating
3. Say plainly when you are not sure`,
    label: { zh: '信任', en: 'trusting' },
  },
  neutral: {
    empathy: 'medium',
    pace: 'normal',
    zh: '',
    en: '',
    label: { zh: '平静', en: 'calm' },
  },
};

export interface ToneGuidance {
  template: ToneTemplate;
  /** Empty for neutral: nothing goes into the prompt. */
  text: string;
}

const isTemplate = (t: string): t is ToneTemplate => (TONE_TEMPLATES as readonly string[]).includes(t);

/** The template a stored state stands for (a state written by an older version is re-derived). */
export function templateOf(state: ToneState | undefined): ToneTemplate {
  if (!state) return 'neutral';
  return isTemplate(state.template) ? state.template : chooseTemplate(state.scores);
}

export function toneGuidance(state: ToneState | undefined, lang: PromptLanguage): ToneGuidance {
  const template = templateOf(state);
  return { template, text: TONE_TEMPLATE_TEXTS[template][lang] };
}

/** How a template reads as the user's mood ("焦虑", "anxious"). */
export function moodLabel(template: ToneTemplate, lang: PromptLanguage): string {
  return TONE_TEMPLATE_TEXTS[template].label[lang];
}
