// Seed 001's director as pure rules: how the outline and the progress instruction read in the
// prompt, which `[PROGRESS:n:status]` markers a reply carries, what they do to the plot state,
// and when the fallback reminder is due. The stream stage hides markers from people whether or
// not the director is on; only an enabled director parses them.
import {
  applyStep,
  beatsWithStatus,
  BEAT_STATUSES,
  type Background,
  type Beat,
  type BeatStatus,
  type PlotState,
} from './story.js';

export const PROGRESS_MARKER = 'PROGRESS';

export const PROGRESS_INSTRUCTION =
  'You are also the story director. Move the story along the outline naturally, one beat at a time, ' +
  'without mentioning the outline. When a beat starts, is reached or is left out, add a marker ' +
  '[PROGRESS:<beat number>:<active|done|skipped>] anywhere in your reply; people never see it.';

/** The outline as the prompt shows it: each beat with its status. */
export const outlineText = (background: Background, plot: PlotState): string =>
  beatsWithStatus(background, plot)
    .map((b) => `${b.n}. [${b.status}] ${b.text}`)
    .join('\n');

export type ParsedMarker = { n: number; status: BeatStatus } | { malformed: string };

const MARKER = /\[PROGRESS:([^\]\n]{0,40})\]/g;

/** A reply's text as people saw it: every marker out (and the space after it). */
export const withoutMarkers = (text: string): string => text.replace(/\s?\[PROGRESS:[^\]\n]{0,40}\]/g, '').trim();

/** Seed 001's own status words (`[PROGRESS:3:in_progress]`), read as the statuses they mean. */
const STATUS_WORDS: Readonly<Record<string, BeatStatus>> = {
  ...Object.fromEntries(BEAT_STATUSES.map((s) => [s, s])),
  completed: 'done',
  in_progress: 'active',
};

/** Every `[PROGRESS:…]` marker of a reply, well-formed or not, in order. */
export function parseProgressMarkers(text: string): ParsedMarker[] {
  return [...text.matchAll(MARKER)].map((m) => {
    const [n, word, ...rest] = (m[1] ?? '').split(':').map((x) => x.trim());
    const num = Number(n);
    const status = STATUS_WORDS[(word ?? '').toLowerCase()];
    return Number.isInteger(num) && num > 0 && rest.length === 0 && status ? { n: num, status } : { malformed: m[0] };
  });
}

export interface DirectorOutcome {
  plot: PlotState;
  applied: Array<{ n: number; status: BeatStatus }>;
  /** Markers that did nothing: malformed, or naming a beat the outline lacks. */
  refused: Array<{ marker: string; reason: 'MALFORMED' | 'UNKNOWN_BEAT' }>;
}

/**
 * A reply's effect on the plot: each valid marker a step with the reply (and what it answered) as
 * evidence; a reply that moved nothing — no marker, or a failed, empty or stopped reply — counts
 * one more turn without progress.
 */
export function directReply(
  plot: PlotState,
  background: Background,
  reply: { text: string; at: Date; messageIds: string[] },
): DirectorOutcome {
  let current = plot;
  const applied: DirectorOutcome['applied'] = [];
  const refused: DirectorOutcome['refused'] = [];
  for (const m of parseProgressMarkers(reply.text)) {
    if ('malformed' in m) {
      refused.push({ marker: m.malformed, reason: 'MALFORMED' });
      continue;
    }
    const r = applyStep(current, background, { ...m, at: reply.at, by: 'director', messageIds: reply.messageIds });
    if (r.ok) {
      current = r.plot;
      applied.push(m);
    } else refused.push({ marker: `[PROGRESS:${m.n}:${m.status}]`, reason: 'UNKNOWN_BEAT' });
  }
  if (applied.length === 0) current = { ...current, noUpdateCount: current.noUpdateCount + 1, updatedAt: reply.at };
  return { plot: current, applied, refused };
}

/** Seed 001: after `threshold` replies without progress the next context carries a reminder. */
export const fallbackDue = (plot: PlotState, threshold: number): boolean => plot.noUpdateCount >= threshold;

/** What the fallback reminder shows besides the beat: this story's events and other storylines'. */
export interface ReminderEvidence {
  /** What already happened in this story (its progress replies, recalled events), oldest first. */
  happened: string[];
  /** How the beat went in other dialogues of the same agent and background. */
  elsewhere: string[];
}

/** Longest line of evidence the reminder quotes. */
export const EVIDENCE_CHARS = 300;

/** Seed 001's 导演提醒: the beat to steer toward, the story so far, other storylines for reference. */
export function reminderText(beat: Beat, noUpdateCount: number, evidence: ReminderEvidence): string {
  const lines = [
    `The story has not moved for ${noUpdateCount} replies. It is at beat ${beat.n}: ${beat.text}. ` +
      'Steer the conversation toward it in a natural way, and mark progress when it comes.',
  ];
  const list = (head: string, items: string[]) => {
    if (items.length > 0) lines.push(head, ...items.map((t) => `- ${clip(t)}`));
  };
  list('What has happened in this story so far:', evidence.happened);
  list('How this beat went in other storylines (for reference only; do not copy them):', evidence.elsewhere);
  return lines.join('\n');
}

const clip = (t: string): string => {
  const one = t.replace(/\s+/g, ' ').trim();
  return one.length > EVIDENCE_CHARS ? `${one.slice(0, EVIDENCE_CHARS - 1)}…` : one;
};

/** The messages that moved beat `n` forward in a plot (started or reached), newest first. */
export const beatEvidence = (plot: PlotState, n: number): string[] =>
  plot.steps
    .filter((s) => s.n === n && (s.status === 'active' || s.status === 'done'))
    .reverse()
    .flatMap((s) => s.messageIds);

/** Every message that moved this plot, oldest first, without repeats. */
export const storySoFar = (plot: PlotState): string[] => [
  ...new Set(plot.steps.filter((s) => s.status !== 'pending').flatMap((s) => s.messageIds)),
];

/** The beat the story is at: the first active one, else the first still pending. */
export function currentBeat(background: Background, plot: PlotState) {
  const beats = beatsWithStatus(background, plot);
  return beats.find((b) => b.status === 'active') ?? beats.find((b) => b.status === 'pending');
}
