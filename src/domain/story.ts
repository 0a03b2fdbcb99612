// Backgrounds and plot state (seed 001): a world setting and a story outline of ordered beats,
// attached to a dialogue (a room's too: it has one). Each (dialogue, background) pair keeps its
// own plot state, so switching background and back resumes where that story was. Pure rules.
import { derivedId } from './ids.js';

export const BEAT_STATUSES = ['pending', 'active', 'done', 'skipped'] as const;
export type BeatStatus = (typeof BEAT_STATUSES)[number];

/** Bounds of an outline: what a prompt's fixed head can carry (seed 001: the head is ~4K tokens). */
export const STORY_LIMITS = { beats: 30, beatChars: 500, settingChars: 6_000, nameChars: 100 } as const;

export interface Beat {
  /** 1-based position in the outline (what `[PROGRESS:n:status]` names). */
  n: number;
  text: string;
}

export interface Background {
  _id: string;
  name: string;
  worldSetting: string;
  outline: Beat[];
  createdAt: Date;
  updatedAt: Date;
}

/** One change of a beat's status, with the messages that show it. */
export interface PlotStep {
  n: number;
  status: BeatStatus;
  at: Date;
  by: 'director' | 'operator';
  messageIds: string[];
}

export interface PlotState {
  /** Derived from the dialogue and the background (plotIdOf). */
  _id: string;
  dialogueId: string;
  backgroundId: string;
  /** Status by beat number; a beat missing here is pending. */
  beats: Record<string, BeatStatus>;
  /** Replies in a row without progress (seed 001's no_update_count). */
  noUpdateCount: number;
  steps: PlotStep[];
  updatedAt: Date;
}

export const plotIdOf = (dialogueId: string, backgroundId: string) => derivedId('plot', dialogueId, backgroundId);

/** A story that has not started: the first beat is under way, the rest wait. */
export function freshPlot(dialogueId: string, background: Background, at: Date): PlotState {
  const first = background.outline[0];
  return {
    _id: plotIdOf(dialogueId, background._id),
    dialogueId,
    backgroundId: background._id,
    beats: first ? { [String(first.n)]: 'active' } : {},
    noUpdateCount: 0,
    steps: [],
    updatedAt: at,
  };
}

/** Each beat of the outline with its status in this plot. */
export const beatsWithStatus = (background: Background, plot: PlotState): Array<Beat & { status: BeatStatus }> =>
  background.outline.map((b) => ({ ...b, status: plot.beats[String(b.n)] ?? 'pending' }));

export type StepRefusal = 'UNKNOWN_BEAT';

/**
 * A beat's status changed (by the director's marker or an operator): recorded with its evidence;
 * progress resets the no-update count. A beat the outline does not have is refused.
 */
export function applyStep(
  plot: PlotState,
  background: Background,
  step: PlotStep,
): { ok: true; plot: PlotState } | { ok: false; refusal: StepRefusal } {
  if (!background.outline.some((b) => b.n === step.n)) return { ok: false, refusal: 'UNKNOWN_BEAT' };
  return {
    ok: true,
    plot: {
      ...plot,
      beats: { ...plot.beats, [String(step.n)]: step.status },
      noUpdateCount: 0,
      steps: [...plot.steps, step],
      updatedAt: step.at,
    },
  };
}

export type OutlineProblem = { field: string; message: string };

/** What is wrong with a background's fields (empty when nothing): sizes bounded, beats non-empty. */
export function outlineProblems(o: { name: string; worldSetting: string; beats: readonly string[] }): OutlineProblem[] {
  const out: OutlineProblem[] = [];
  const L = STORY_LIMITS;
  if (!o.name.trim() || o.name.length > L.nameChars)
    out.push({ field: 'name', message: `1 to ${L.nameChars} characters` });
  if (o.worldSetting.length > L.settingChars)
    out.push({ field: 'worldSetting', message: `at most ${L.settingChars} characters` });
  if (o.beats.length === 0 || o.beats.length > L.beats)
    out.push({ field: 'beats', message: `1 to ${L.beats} beats (got ${o.beats.length})` });
  o.beats.forEach((b, i) => {
    if (!b.trim() || b.length > L.beatChars)
      out.push({ field: `beats[${i}]`, message: `1 to ${L.beatChars} characters` });
  });
  return out;
}

/**
 * Seed 001's "other instances": the dialogues in which one agent follows one background, newest
 * last, by derived `_id` (agent, background), so the director's fallback finds them without a query.
 */
export interface StoryInstances {
  _id: string;
  agentId: string;
  backgroundId: string;
  dialogueIds: string[];
  updatedAt: Date;
}

/** How many dialogues an instance list keeps (the fallback reads a few of the newest). */
export const INSTANCES_KEPT = 50;

export const instancesIdOf = (agentId: string, backgroundId: string) => derivedId('sti', agentId, backgroundId);

/** The list with `dialogueId` as its newest, bounded. */
export function withInstance(list: readonly string[], dialogueId: string): string[] {
  return [...list.filter((d) => d !== dialogueId), dialogueId].slice(-INSTANCES_KEPT);
}
