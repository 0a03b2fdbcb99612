// Seed 001's director as pure rules: how the outline and the progress instruction read in the
// prompt, which `[PROGRESS:n:status]` markers a reply carries, what they do to the plot state,
// and when the fallback reminder is due. The stream stage hides markers from people whether or
// not the director is on; only an enabled director parses them.
import {
  applyStep,
  beatsWithStatus,
  BEAT_STATUSES,
  type Background,
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

/** Every `[PROGRESS:…]` marker of a reply, well-formed or not, in order. */
export function parseProgressMarkers(text: string): ParsedMarker[] {
  return [...text.matchAll(MARKER)].map((m) => {
    const [n, status, ...rest] = (m[1] ?? '').split(':').map((x) => x.trim());
    const num = Number(n);
    return Number.isInteger(num) &&
      num > 0 &&
      rest.length === 0 &&
      (BEAT_STATUSES as readonly string[]).includes(status ?? '')
      ? { n: num, status: status as BeatStatus }
      : { malformed: m[0] };
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

/** The beat the story is at: the first active one, else the first still pending. */
export function currentBeat(background: Background, plot: PlotState) {
  const beats = beatsWithStatus(background, plot);
  return beats.find((b) => b.status === 'active') ?? beats.find((b) => b.status === 'pending');
}
