// How a reflection run reads: its status's tone, whether it is finished, a mood in one line and
// how it was started.
import type { I18n } from './i18n.js';
import { isMessageKey } from '../i18n/messages.js';
import type { Mood } from './reflectionQueries.js';

export const STATUS_TONE: Record<string, 'ok' | 'warn' | 'bad' | 'info'> = {
  queued: 'warn',
  running: 'info',
  completed: 'ok',
  failed: 'bad',
  budget_exceeded: 'warn',
  done: 'ok',
};
export const FINISHED = new Set(['completed', 'failed', 'budget_exceeded']);

export const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;
export const moodText = (t: I18n['t'], m: Mood) =>
  t('reflections.moodText', { label: m.label, valence: signed(m.valence), arousal: m.arousal.toFixed(2) });
/** How a run was started (operator, schedule) as a word; an unknown trigger as stored. */
export const triggerText = (t: I18n['t'], trigger: string) => {
  const key = `reflections.trigger.${trigger}`;
  return isMessageKey(key) ? t(key) : trigger;
};
