// Self-reflection (seed 000 SelfReflectionSession / IntrospectionTurn, SPEC §9) as plain data and
// pure rules: the order of a run's steps, the budget a run spends (tokens and memory writes),
// the agent's values and mood and how one run may move them, when the schedule starts a run
// (a 5-field cron in the agent's time zone, outside quiet hours), and what rolling a run back
// must undo. No I/O: src/reflection/ does the reading, calling and writing.
import { derivedId } from './ids.js';
import type { MemoryEntry, MemoryKind, MemoryStatus } from './model.js';

// ---------------------------------------------------------------- steps

/** Seed 000's example run: search → summarise per human → evaluate persona → adjust values → report. */
export const REFLECTION_STEPS = [
  'search_memories',
  'summarize_human',
  'evaluate_persona',
  'adjust_values',
  'write_report',
] as const;
export type ReflectionStep = (typeof REFLECTION_STEPS)[number];

/** What each step is for and the tool it uses (stored on its turn: seed 000's purpose and tool_used). */
export const STEP_INFO: Record<ReflectionStep, { purpose: string; tool: string }> = {
  search_memories: { purpose: 'Look back over recent memories and conversations', tool: 'memory.search' },
  summarize_human: { purpose: 'Summarise how things stand with one person', tool: 'memory.summarize' },
  evaluate_persona: { purpose: 'Evaluate the persona against recent conversations', tool: 'persona.evaluate' },
  adjust_values: { purpose: 'Adjust values and mood', tool: 'values.adjust' },
  write_report: { purpose: 'Write the reflection report', tool: 'report.generate' },
};

/** People summarised per run; the others are named on the search turn (never dropped silently). */
export const MAX_HUMANS_PER_RUN = 5;

export interface PlannedStep {
  seq: number;
  step: ReflectionStep;
  /** The human a summarize_human step is about. */
  subjectId?: string;
}

/**
 * The steps after the search, in order: one summary per person (at most `maxHumans`, in the order
 * given: most recent first), then the persona, the values, the report. `omitted` are the people
 * left for a later run.
 */
export function stepsAfterSearch(
  humanIds: readonly string[],
  maxHumans = MAX_HUMANS_PER_RUN,
): { steps: PlannedStep[]; omitted: string[] } {
  const unique = [...new Set(humanIds)];
  const kept = unique.slice(0, maxHumans);
  const steps: PlannedStep[] = [
    ...kept.map((subjectId, i) => ({ seq: i + 1, step: 'summarize_human' as const, subjectId })),
    ...(['evaluate_persona', 'adjust_values', 'write_report'] as const).map((step, i) => ({
      seq: kept.length + 1 + i,
      step,
    })),
  ];
  return { steps, omitted: unique.slice(maxHumans) };
}

/** A turn's id derives from its run and position, so a retried write lands on the same document. */
export const introspectionTurnIdOf = (reflectionId: string, seq: number): string =>
  derivedId('itn', reflectionId, String(seq));

/** A scheduled run's id derives from the agent and the cron slot: two schedulers start it once. */
export const scheduledReflectionIdOf = (agentId: string, slot: Date): string =>
  derivedId('rfl', agentId, slot.toISOString());

// ---------------------------------------------------------------- records

export type ReflectionTrigger = 'schedule' | 'operator';
/** queued → running → completed | failed | budget_exceeded. A rollback is recorded beside the status. */
export type ReflectionStatus = 'queued' | 'running' | 'completed' | 'failed' | 'budget_exceeded';
export const FINISHED_STATUSES: readonly ReflectionStatus[] = ['completed', 'failed', 'budget_exceeded'];

export interface AgentMood {
  label: string;
  /** −1 (low) .. 1 (bright). */
  valence: number;
  /** 0 (still) .. 1 (stirred). */
  arousal: number;
}

/** Value name → weight 0..1 (seed 000: "稳定与陪伴" 0.6 → 0.7). */
export type AgentValues = Record<string, number>;

export const DEFAULT_MOOD: AgentMood = { label: 'calm', valence: 0.2, arousal: 0.3 };
export const DEFAULT_VALUES: AgentValues = { companionship: 0.6, honesty: 0.7, curiosity: 0.5, empathy: 0.6 };

export interface ReflectionBudget {
  /** Tokens the run's model calls may spend (prompt + answer). */
  maxTokens: number;
  /** Memories the run may propose for writing. */
  maxMemories: number;
}

export interface BudgetUse {
  tokens: number;
  memories: number;
  calls: number;
  /** The split of `tokens` for the operators' stats (runs of earlier versions lack it). */
  promptTokens?: number;
  completionTokens?: number;
}

export interface BudgetHit {
  resource: 'tokens' | 'memories';
  limit: number;
  /** Spent before the step that hit the limit. */
  used: number;
  /** What the step wanted (a call's tokens, its proposed memories). */
  wanted: number;
  seq: number;
  step: ReflectionStep;
  /** before_call: the call was not made; after_call: it was made and its output not applied. */
  when: 'before_call' | 'after_call' | 'before_write';
}

/** One memory a run wrote or retired, with the entry as it was before (null: the run created it). */
export interface MemoryChange {
  memoryId: string;
  seq: number;
  turnId: string;
  before: MemoryEntry | null;
  /** The entry right after the run's write: a later change of it blocks the rollback. */
  after: { updatedAt: Date; status: MemoryStatus };
}

export interface InnerState {
  values: AgentValues;
  mood: AgentMood;
}

export interface ReflectionRollback {
  at: Date;
  by: string;
  /** Entries put back as they were before the run. */
  restoredIds: string[];
  /** Entries the run created, removed from the memory set (their text stays in this run's turns). */
  removedIds: string[];
  /** Entries left alone, with why (deleted since with their dialogue, already removed). */
  skipped: Array<{ memoryId: string; reason: string }>;
  innerRestored: boolean;
}

/** Seed 000's SelfReflectionSession: one run of an agent's reflection. */
export interface ReflectionRun {
  _id: string;
  kind: 'self_reflection';
  agentId: string;
  trigger: { source: ReflectionTrigger; by?: string; slot?: Date };
  goal: string;
  status: ReflectionStatus;
  budget: { limits: ReflectionBudget; used: BudgetUse };
  budgetHit?: BudgetHit;
  failure?: { code: string; message: string; seq?: number; step?: ReflectionStep };
  moodAtStart?: AgentMood;
  /** Turn ids in order (derived from the run id and their position). */
  turnIds: string[];
  report?: string;
  /** The rollback ledger: every memory write and retirement, in order. */
  changes: MemoryChange[];
  /**
   * Values and mood before and after the run's adjustment (absent: not adjusted), and the run
   * that had set them before (a rollback hands them back to it).
   */
  inner?: { before: InnerState; after: InnerState; beforeBy?: string };
  rollback?: ReflectionRollback;
  queuedAt: Date;
  startedAt?: Date;
  endedAt?: Date;
  updatedAt: Date;
}

export interface ValueChange {
  name: string;
  before: number | null;
  proposed: number;
  after: number;
  /** The proposal moved further than one run may and was limited to VALUE_MAX_DELTA. */
  limited: boolean;
}

/** Seed 000's IntrospectionTurn: one step of a run, with what it read, called, produced and changed. */
export interface IntrospectionTurn {
  _id: string;
  kind: 'introspection';
  reflectionId: string;
  agentId: string;
  seq: number;
  step: ReflectionStep;
  purpose: string;
  subjectId?: string;
  /** What it read: memory, message, conversation turn and human ids, and anything left out. */
  inputContext: {
    memoryIds: string[];
    messageIds: string[];
    turnIds: string[];
    humanIds: string[];
    omitted?: Record<string, number | string | string[]>;
  };
  tool: string;
  /** The tool's input: the model's task input, or the search's parameters. */
  toolInput: unknown;
  /** The tool's output: the model's validated answer, or what the search found. */
  toolOutput: unknown;
  status: 'done' | 'failed' | 'budget_exceeded';
  error?: { code: string; message: string };
  generatedMemoryIds: string[];
  supersededMemoryIds: string[];
  /** Proposals not stored, with why (invalid, cut to the length limit, over budget). */
  notes: string[];
  moodShift: { before: AgentMood; after: AgentMood } | null;
  valueImpact: { changes: ValueChange[] } | null;
  model?: string;
  tokens: number;
  startedAt: Date;
  durationMs: number;
}

// ---------------------------------------------------------------- budget

/** A model call may start when its prompt still fits: nothing is spent past the limit knowingly. */
export function checkBeforeCall(
  b: ReflectionBudget,
  used: BudgetUse,
  promptTokens: number,
  at: Pick<PlannedStep, 'seq' | 'step'>,
): BudgetHit | undefined {
  return overBudget(b, used, { resource: 'tokens', wanted: promptTokens, ...at, when: 'before_call' });
}

/** Charges a finished call; over the limit its output is not applied and the run stops. */
export function chargeCall(
  b: ReflectionBudget,
  used: BudgetUse,
  tokens: number,
  at: Pick<PlannedStep, 'seq' | 'step'>,
): { used: BudgetUse; hit?: BudgetHit } {
  const next = { ...used, tokens: used.tokens + tokens, calls: used.calls + 1 };
  const hit = overBudget(b, used, { resource: 'tokens', wanted: tokens, ...at, when: 'after_call' });
  return hit ? { used: next, hit } : { used: next };
}

/** A step's memories are written all or none: a step that would pass the limit writes none. */
export function checkMemories(
  b: ReflectionBudget,
  used: BudgetUse,
  proposed: number,
  at: Pick<PlannedStep, 'seq' | 'step'>,
): BudgetHit | undefined {
  return overBudget(b, used, { resource: 'memories', wanted: proposed, ...at, when: 'before_write' });
}

/**
 * The one budget rule behind the three checks: what a step wants fits while the resource's use
 * plus it stays within the limit; past it, the hit records the limit and the use before the step.
 */
function overBudget(
  b: ReflectionBudget,
  used: BudgetUse,
  want: Omit<BudgetHit, 'limit' | 'used'>,
): BudgetHit | undefined {
  const { resource, wanted, ...where } = want;
  const limit = resource === 'tokens' ? b.maxTokens : b.maxMemories;
  if (used[resource] + wanted <= limit) return undefined;
  return { resource, limit, used: used[resource], wanted, ...where };
}

// ---------------------------------------------------------------- values and mood

/** How far one run may move a value; a larger proposal is limited and says so on its turn. */
export const VALUE_MAX_DELTA = 0.2;
/** Values an agent holds; proposals of new ones past this are listed as not applied. */
export const MAX_VALUES = 12;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Applies proposed weights: each within 0..1 and at most VALUE_MAX_DELTA from where it was (a
 * new value starts from its proposal, limited to 0.5 ± the delta). Returns the new values, every
 * change, and the proposals not applied (new values past MAX_VALUES).
 */
export function adjustValues(
  current: AgentValues,
  proposals: ReadonlyArray<{ name: string; weight: number }>,
): { values: AgentValues; changes: ValueChange[]; refused: string[] } {
  const values: AgentValues = { ...current };
  const changes: ValueChange[] = [];
  const refused: string[] = [];
  for (const p of proposals) {
    const name = p.name.trim().toLowerCase();
    if (!name || !Number.isFinite(p.weight)) continue;
    const before = name in values ? values[name]! : null;
    if (before === null && Object.keys(values).length >= MAX_VALUES) {
      refused.push(name);
      continue;
    }
    const proposed = clamp(p.weight, 0, 1);
    const from = before ?? 0.5;
    const after = round(clamp(proposed, from - VALUE_MAX_DELTA, from + VALUE_MAX_DELTA));
    values[name] = after;
    changes.push({ name, before, proposed: round(proposed), after, limited: after !== round(proposed) });
  }
  return { values, changes, refused };
}

/** A mood within its ranges; the label is kept short. */
export function normalizeMood(m: AgentMood): AgentMood {
  return {
    label: m.label.trim().slice(0, 40) || DEFAULT_MOOD.label,
    valence: round(clamp(m.valence, -1, 1)),
    arousal: round(clamp(m.arousal, 0, 1)),
  };
}

// ---------------------------------------------------------------- memory kinds

/** What a run may write about a person, and about itself (no subject). */
export const HUMAN_REFLECTION_KINDS = ['summary', 'fact', 'preference', 'event'] as const satisfies MemoryKind[];
export const SELF_REFLECTION_KINDS = ['reflection'] as const satisfies MemoryKind[];

// ---------------------------------------------------------------- rollback

export interface RollbackPlan {
  /** Entries to put back exactly as they were before the run (recall statistics keep counting). */
  restore: MemoryEntry[];
  /** Entries the run created: removed from the memory set. */
  remove: string[];
  skipped: Array<{ memoryId: string; reason: string }>;
  /** Entries changed after the run: rolling back would lose that change, so nothing is done. */
  conflicts: Array<{ memoryId: string; reason: string }>;
}

/**
 * What a rollback must do, from the run's ledger and the entries as they are now (null: gone).
 * Per entry, the first change's `before` is the state to return to and the last change's
 * `after` the state the run left: an entry changed since then conflicts (roll back newer runs
 * first). An entry that existed before the run and is gone now was deleted with its dialogue
 * (BR-006) and is not brought back.
 */
export function planRollback(
  changes: readonly MemoryChange[],
  current: ReadonlyMap<string, Pick<MemoryEntry, 'updatedAt'> | null>,
): RollbackPlan {
  const first = new Map<string, MemoryChange>();
  const last = new Map<string, MemoryChange>();
  for (const c of changes) {
    if (!first.has(c.memoryId)) first.set(c.memoryId, c);
    last.set(c.memoryId, c);
  }
  const plan: RollbackPlan = { restore: [], remove: [], skipped: [], conflicts: [] };
  for (const [id, c] of first) {
    const now = current.get(id) ?? null;
    const leftAt = last.get(id)!.after.updatedAt;
    if (now === null) {
      plan.skipped.push({ memoryId: id, reason: c.before ? 'deleted since the reflection' : 'already removed' });
      continue;
    }
    if (now.updatedAt.getTime() > leftAt.getTime()) {
      plan.conflicts.push({ memoryId: id, reason: `changed at ${now.updatedAt.toISOString()}, after the reflection` });
      continue;
    }
    if (c.before) plan.restore.push(c.before);
    else plan.remove.push(id);
  }
  return plan;
}

/** Values and mood go back when the run's adjustment is still the latest one. */
export function innerRollback(
  run: Pick<ReflectionRun, '_id' | 'inner'>,
  current: { innerUpdatedBy?: string },
): { restore?: InnerState; conflict?: string } {
  if (!run.inner) return {};
  if (current.innerUpdatedBy !== run._id)
    return {
      conflict: `values and mood were changed since by ${current.innerUpdatedBy ?? 'an operator'}; roll that back first`,
    };
  return { restore: run.inner.before };
}

// ---------------------------------------------------------------- schedule

export interface QuietHours {
  /** Local "HH:MM"; a start after the end spans midnight; equal means none. */
  start: string;
  end: string;
}

export interface ReflectionSettings {
  enabled: boolean;
  /** Five-field cron (minute hour day-of-month month day-of-week) in `timezone`. */
  cron: string;
  /** IANA zone; absent: the deployment's DISPLAY_TIMEZONE. */
  timezone?: string;
  quietHours?: QuietHours;
  /** How far back "recent" memories and conversations reach. */
  lookbackHours: number;
}

export const DEFAULT_REFLECTION_SETTINGS: ReflectionSettings = {
  enabled: false,
  cron: '0 3 * * *',
  lookbackHours: 72,
};

/** A scheduler tick that came late still finds a slot this many minutes old. */
export const SLOT_CATCH_UP_MINUTES = 5;

interface CronField {
  any: boolean;
  values: ReadonlySet<number>;
}
export interface CronSpec {
  minute: CronField;
  hour: CronField;
  dayOfMonth: CronField;
  month: CronField;
  dayOfWeek: CronField;
}

const CRON_RANGES: Array<[keyof CronSpec, number, number]> = [
  ['minute', 0, 59],
  ['hour', 0, 23],
  ['dayOfMonth', 1, 31],
  ['month', 1, 12],
  ['dayOfWeek', 0, 7],
];

function parseCronField(text: string, name: string, lo: number, hi: number): CronField {
  const values = new Set<number>();
  const bad = (why: string) => new Error(`cron ${name} "${text}": ${why}`);
  for (const item of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!m) throw bad(`"${item}" is not *, n, a-b or a step of them`);
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (step < 1) throw bad('a step must be at least 1');
    const from = m[1] === '*' ? lo : Number(m[2]);
    const to = m[1] === '*' ? hi : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? hi : from;
    if (from < lo || to > hi || from > to) throw bad(`values must be within ${lo}-${hi}`);
    for (let v = from; v <= to; v += step) values.add(name === 'day-of-week' && v === 7 ? 0 : v);
  }
  return { any: text === '*', values };
}

/** Parses a five-field cron; throws an Error naming the bad field. */
export function parseCron(expr: string): CronSpec {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5)
    throw new Error(`cron "${expr}" must have 5 fields (minute hour day-of-month month day-of-week)`);
  const spec: Partial<CronSpec> = {};
  CRON_RANGES.forEach(([key, lo, hi], i) => {
    const label = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    spec[key] = parseCronField(parts[i]!, label, lo, hi);
  });
  return spec as CronSpec;
}

import { localTime, type LocalTime } from './wallClock.js';

export { localTime, type LocalTime };

/** Vixie cron's day rule: with both day fields restricted, either one matching is enough. */
export function cronMatches(spec: CronSpec, t: LocalTime): boolean {
  if (!spec.minute.values.has(t.minute) || !spec.hour.values.has(t.hour) || !spec.month.values.has(t.month))
    return false;
  const dom = spec.dayOfMonth.values.has(t.day);
  const dow = spec.dayOfWeek.values.has(t.weekday);
  if (spec.dayOfMonth.any) return dow;
  if (spec.dayOfWeek.any) return dom;
  return dom || dow;
}

const minutesOf = (hhmm: string): number => {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (!m) throw new Error(`"${hhmm}" is not a time HH:MM`);
  return Number(m[1]) * 60 + Number(m[2]);
};

export function inQuietHours(at: Date, quiet: QuietHours | undefined, timeZone: string): boolean {
  if (!quiet) return false;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  const t = localTime(at, timeZone);
  const now = t.hour * 60 + t.minute;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

export type ScheduleDecision =
  { due: true; slot: Date } | { due: false; reason: 'disabled' | 'no_slot' | 'already_ran' | 'quiet_hours' };

/**
 * Whether the schedule starts a run at `now`: the latest minute within SLOT_CATCH_UP_MINUTES
 * that the cron names (in the agent's zone) is the slot; a slot already run, or a `now` inside
 * quiet hours, starts nothing (a slot that falls in quiet hours is skipped, not deferred).
 */
export function scheduleDecision(
  now: Date,
  settings: ReflectionSettings,
  o: { defaultTimezone: string; lastSlot?: Date },
): ScheduleDecision {
  if (!settings.enabled) return { due: false, reason: 'disabled' };
  const tz = settings.timezone ?? o.defaultTimezone;
  const spec = parseCron(settings.cron);
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  let slot: Date | undefined;
  for (let back = 0; back <= SLOT_CATCH_UP_MINUTES && !slot; back++) {
    const at = new Date(minute - back * 60_000);
    if (cronMatches(spec, localTime(at, tz))) slot = at;
  }
  if (!slot) return { due: false, reason: 'no_slot' };
  if (o.lastSlot && o.lastSlot.getTime() >= slot.getTime()) return { due: false, reason: 'already_ran' };
  if (inQuietHours(now, settings.quietHours, tz)) return { due: false, reason: 'quiet_hours' };
  return { due: true, slot };
}

/** Checks settings an operator sends; returns the problems (empty: fine). */
export function settingsProblems(s: ReflectionSettings): string[] {
  const problems: string[] = [];
  try {
    parseCron(s.cron);
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (s.timezone !== undefined) {
    try {
      localTime(new Date(0), s.timezone);
    } catch {
      problems.push(`timezone "${s.timezone}" is not an IANA time zone`);
    }
  }
  if (s.quietHours) {
    for (const v of [s.quietHours.start, s.quietHours.end]) {
      try {
        minutesOf(v);
      } catch (err) {
        problems.push(`quietHours: ${(err as Error).message}`);
      }
    }
  }
  if (!Number.isInteger(s.lookbackHours) || s.lookbackHours < 1 || s.lookbackHours > 24 * 90)
    problems.push('lookbackHours must be a whole number of hours between 1 and 2160');
  return problems;
}

// ---------------------------------------------------------------- per-agent state

/** An agent's reflection settings, values and mood (collection `reflectionAgents`, `_id` = agent id). */
export interface ReflectionAgentState {
  _id: string;
  settings: ReflectionSettings;
  values: AgentValues;
  mood: AgentMood;
  /** The run that last set values and mood (a rollback puts them back only if it still is). */
  innerUpdatedBy?: string;
  /** The latest cron slot the schedule started a run for. */
  lastSlot?: Date;
  updatedAt: Date;
}

/**
 * The agents whose schedule is on, in one document (collection `reflectionSchedule`, `_id`
 * 'enabled'): the scheduler's tick reads it and each listed agent by `_id`, never a query.
 */
export interface ReflectionScheduleIndex {
  _id: 'enabled';
  agentIds: string[];
  updatedAt: Date;
}

export function defaultAgentState(agentId: string, at: Date): ReflectionAgentState {
  return {
    _id: agentId,
    settings: { ...DEFAULT_REFLECTION_SETTINGS },
    values: { ...DEFAULT_VALUES },
    mood: { ...DEFAULT_MOOD },
    updatedAt: at,
  };
}
