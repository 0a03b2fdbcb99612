// The user persona card (seed 003 §阶段3 buildUserPersona, Tolan's "User persona"): recomputed
// every turn from what we already have — the display name or a name the user told us, their
// recent messages, remembered facts and preferences, visit count and mood. Pure.
import type { MemoryKind, ToneState } from '../domain/model.js';
import { detectTone } from '../tone/detectTone.js';
import { moodLabel, templateOf, type PromptLanguage } from '../tone/templates.js';
import type { ToneTemplate } from '../tone/toneState.js';
import { describeStyle, inferCommunicationStyle, type CommunicationStyle } from './communicationStyle.js';

export interface PersonaCardInput {
  displayName: string;
  /** A name the user asked to be called by, found in memories. */
  nameFromMemory?: string;
  /** The user's own recent messages, oldest first. */
  recentHumanTexts: string[];
  /** Memories about this user, most relevant or most recent first. */
  memories: Array<{ kind: MemoryKind; text: string; importance: number }>;
  /** Sessions the user has had with this agent. */
  visits: number;
  lastTopic?: string;
  tone?: ToneState;
}

export interface UserPersonaCard {
  name: string;
  communicationStyle?: CommunicationStyle;
  concerns: string[];
  preferences: string[];
  visits: number;
  lastTopic?: string;
  /** The tone template the user's mood maps to (`neutral` when nothing stands out). */
  emotionalState: ToneTemplate;
}

export const MAX_CONCERNS = 3;
export const MAX_PREFERENCES = 5;
const MAX_ITEM_CHARS = 120;

const clip = (t: string) => {
  const one = t.replace(/\s+/g, ' ').trim();
  return one.length <= MAX_ITEM_CHARS ? one : `${one.slice(0, MAX_ITEM_CHARS - 1)}…`;
};

/** Stable sort by importance, highest first; equal importance keeps the caller's order. */
const byImportance = <T extends { importance: number }>(xs: T[]) =>
  xs
    .map((x, i) => ({ x, i }))
    .sort((a, b) => b.x.importance - a.x.importance || a.i - b.i)
    .map(({ x }) => x);

export function buildUserPersonaCard(input: PersonaCardInput): UserPersonaCard {
  // Concerns are what the user keeps returning to: facts and events, worries first.
  const candidates = input.memories.filter((m) => m.kind === 'fact' || m.kind === 'event' || m.kind === 'summary');
  const worried = (text: string) => {
    const s = detectTone([text]);
    return s.anxiety + s.sadness + s.anger + s.confusion > 0 ? 1 : 0;
  };
  const concerns = byImportance(candidates)
    .map((m, i) => ({ m, i, w: worried(m.text) }))
    .sort((a, b) => b.w - a.w || a.i - b.i)
    .slice(0, MAX_CONCERNS)
    .map(({ m }) => clip(m.text));
  const preferences = byImportance(input.memories.filter((m) => m.kind === 'preference'))
    .slice(0, MAX_PREFERENCES)
    .map((m) => clip(m.text));
  const style = inferCommunicationStyle(input.recentHumanTexts);
  const name = input.nameFromMemory?.trim() || input.displayName.trim();
  return {
    name,
    ...(style ? { communicationStyle: style } : {}),
    concerns: dedupe(concerns),
    preferences: dedupe(preferences),
    visits: input.visits,
    ...(input.lastTopic?.trim() ? { lastTopic: clip(input.lastTopic) } : {}),
    emotionalState: templateOf(input.tone),
  };
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

const LABELS = {
  zh: {
    name: '称呼',
    style: '沟通风格',
    concerns: '主要关注',
    preferences: '偏好',
    visits: '访问次数',
    lastTopic: '上次话题',
    mood: '当前情绪',
    list: '；',
    firstVisit: '（首次）',
  },
  en: {
    name: 'Name',
    style: 'Communication style',
    concerns: 'Main concerns',
    preferences: 'Preferences',
    visits: 'Visits',
    lastTopic: 'Last topic',
    mood: 'Current mood',
    list: '; ',
    firstVisit: ' (first visit)',
  },
} as const;

/** The card as prompt lines ("称呼: 小王" …); empty fields are left out. */
export function renderPersonaCard(card: UserPersonaCard, lang: PromptLanguage): string {
  const l = LABELS[lang];
  const lines: string[] = [];
  if (card.name) lines.push(`${l.name}: ${card.name}`);
  if (card.communicationStyle) lines.push(`${l.style}: ${describeStyle(card.communicationStyle, lang)}`);
  if (card.concerns.length) lines.push(`${l.concerns}: ${card.concerns.join(l.list)}`);
  if (card.preferences.length) lines.push(`${l.preferences}: ${card.preferences.join(l.list)}`);
  lines.push(`${l.visits}: ${card.visits}${card.visits <= 1 ? l.firstVisit : ''}`);
  if (card.lastTopic) lines.push(`${l.lastTopic}: ${card.lastTopic}`);
  lines.push(`${l.mood}: ${moodLabel(card.emotionalState, lang)}`);
  return lines.join('\n');
}
