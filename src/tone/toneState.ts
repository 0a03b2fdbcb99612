// The tone carried across turns (SPEC §5, seed 003 "Derive updated tone"): each turn's keyword
// counts are added to the previous scores halved, so a mood fades unless the user keeps
// showing it, and the dominant emotion picks the guidance template by seed 003's rules.
import { TONE_EMOTIONS, type ToneState } from '../domain/model.js';
import { zeroScores, type ToneScores } from './detectTone.js';

/** How much of the previous turn's scores is kept. */
export const TONE_DECAY = 0.5;

export const TONE_TEMPLATES = [
  'high_anxiety',
  'sadness',
  'anger',
  'high_excitement',
  'confusion',
  'trust',
  'neutral',
] as const;
export type ToneTemplate = (typeof TONE_TEMPLATES)[number];

/**
 * Seed 003's getDominantEmotion, extended: anxiety first (焦虑优先处理), then the other heavy
 * negative moods, then excitement, confusion (one sign is enough) and trust.
 */
export function chooseTemplate(s: ToneScores): ToneTemplate {
  if (s.anxiety >= 2) return 'high_anxiety';
  if (s.sadness >= 2) return 'sadness';
  if (s.anger >= 2) return 'anger';
  if (s.excitement >= 2) return 'high_excitement';
  if (s.confusion >= 1) return 'confusion';
  if (s.trust >= 2) return 'trust';
  return 'neutral';
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The state after one more turn: previous × 0.5 + this turn's counts. */
export function nextToneState(prev: ToneState | undefined, scores: ToneScores, now: Date): ToneState {
  const next = zeroScores();
  for (const e of TONE_EMOTIONS) next[e] = round((prev?.scores[e] ?? 0) * TONE_DECAY + scores[e]);
  return { scores: next, template: chooseTemplate(next), updatedAt: now };
}

/** Whether `next` says anything `prev` did not: an unchanged (or still all-zero) state need not be stored. */
export function toneChanged(prev: ToneState | undefined, next: ToneState): boolean {
  if ((prev?.template ?? 'neutral') !== next.template) return true;
  return TONE_EMOTIONS.some((e) => (prev?.scores[e] ?? 0) !== next.scores[e]);
}
