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

// The marker grammar, written once: the stream stage hides what it matches from people, the
// director parses it, and quotes of past replies (withoutMarkers, src/context/storyFallback.ts)
// strip it. A marker is `[NAME:` then anything but `]` or a line break, then `]`, all of it at
// most MARKER_MAX_CHARS long; anything else — unclosed, broken by a line, or longer — is text.

/** What every progress marker opens with. */
export const PROGRESS_OPEN = `[${PROGRESS_MARKER}:`;

/**
 * The longest marker, brackets included. The longest well-formed one, `[PROGRESS:30:in_progress]`
 * (STORY_LIMITS.beats is 30), is 25 characters; 64 leaves room for the malformed variants models
 * write (`[PROGRESS: beat 3 : completed]`), which are still hidden and refused as MALFORMED rather
 * than shown. Longer is prose that happens to start like a marker: it is shown, never parsed. The
 * stream holds text back while it may still be a marker, so the limit also bounds that wait: an
 * opened, never-closed `[PROGRESS:` delays at most 64 characters of the reply.
 */
export const MARKER_MAX_CHARS = 64;

/** One progress marker; group 1 is what it says between `[PROGRESS:` and `]`. Not global: safe to share. */
export const PROGRESS_PATTERN = new RegExp(
  `\\[${PROGRESS_MARKER}:([^\\]\\n]{0,${MARKER_MAX_CHARS - PROGRESS_OPEN.length - 1}})\\]`,
);

/** What a text starting with `[` holds at its start: a whole marker, the start of one, or text. */
export type MarkerScan = { kind: 'marker'; length: number } | { kind: 'partial' } | { kind: 'text' };

/**
 * The grammar for text that is still arriving (the stream stage): whether `text`, which starts
 * with `[`, starts with a whole marker opening with `open`, may still become one once more text
 * comes (`partial`), or cannot (`text`). Agrees with PROGRESS_PATTERN for the progress marker.
 */
export function scanMarker(text: string, open: string = PROGRESS_OPEN, max: number = MARKER_MAX_CHARS): MarkerScan {
  if (text.length < open.length) return open.startsWith(text) ? { kind: 'partial' } : { kind: 'text' };
  if (!text.startsWith(open)) return { kind: 'text' };
  const close = text.search(/[\]\n]/);
  if (close < 0) return text.length < max ? { kind: 'partial' } : { kind: 'text' };
  return text[close] === ']' && close < max ? { kind: 'marker', length: close + 1 } : { kind: 'text' };
}

/** Every progress marker of a text, in order (a fresh global copy of the pattern per use). */
const allMarkers = (): RegExp => new RegExp(PROGRESS_PATTERN.source, 'g');

/** A reply's text as people saw it: every marker out (and the space before it). */
export const withoutMarkers = (text: string): string =>
  text.replace(new RegExp(`\\s?${PROGRESS_PATTERN.source}`, 'g'), '').trim();

/** Seed 001's own status words (`[PROGRESS:3:in_progress]`), read as the statuses they mean. */
const STATUS_WORDS: Readonly<Record<string, BeatStatus>> = {
  ...Object.fromEntries(BEAT_STATUSES.map((s) => [s, s])),
  completed: 'done',
  in_progress: 'active',
};

/** Every `[PROGRESS:…]` marker of a reply, well-formed or not, in order. */
export function parseProgressMarkers(text: string): ParsedMarker[] {
  return [...text.matchAll(allMarkers())].map((m) => {
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
