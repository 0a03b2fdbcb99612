// The statistics of a window from the rows the store read (pure; the reads are in
// src/store/collectStats.ts): counts by status and role, the reply-time summary, and the model's
// token use by task — every llm_call's usage plus self-reflection runs' own.
import type { Role, TurnStatus } from '../domain/model.js';
import type { BudgetUse } from '../domain/reflection.js';
import { latencySummary, type LatencySummary } from './percentiles.js';
import { REFLECTION_TASK, runUsageOf, TOKEN_FIELDS, type TokenField } from './tokenUsage.js';

/** Reply times read per query: the most recent this many responded turns of the window. */
export const LATENCY_SAMPLE_MAX = 100_000;
/** The task name of the reply's own LLM calls (memory and summary tasks record theirs). */
export const REPLY_TASK = 'reply';

export interface TokenUse {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface Stats {
  since: Date;
  until: Date;
  dialogueId?: string;
  dialogues: { created: number; active: number };
  sessions: number;
  turns: Record<TurnStatus, number> & { total: number };
  messages: Record<Role, number> & { total: number };
  replyLatency: LatencySummary & { sampled: boolean };
  tokens: TokenUse & { byTask: Array<TokenUse & { task: string }> };
}

/** A `$group` row: the grouped value and its count or sum. */
export interface GroupRow {
  _id?: unknown;
  n?: unknown;
}

/** What the store read for one window. */
export interface StatsRows {
  created: number;
  active: number;
  sessions: number;
  turnRows: GroupRow[];
  messageRows: GroupRow[];
  /** Newest first, at most LATENCY_SAMPLE_MAX + 1 (one more says the sample was cut). */
  latencies: Array<{ responseTime?: unknown }>;
  /** Per token field (and `calls`), the llm_call sums grouped by task. */
  tokenRows: ReadonlyArray<readonly [TokenField | 'calls', GroupRow[]]>;
  runs: Array<{ budget?: { used?: Partial<BudgetUse> } }>;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const byField = (rows: GroupRow[]) => new Map(rows.map((r) => [String(r._id), num(r.n)]));
const noUse = (task: string): TokenUse & { task: string } => ({
  task,
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
});

/** Token use by task, the most spent first: calls without a task are the reply's own. */
export function tokenUseByTask(
  tokenRows: StatsRows['tokenRows'],
  runs: StatsRows['runs'],
): Array<TokenUse & { task: string }> {
  const tasks = new Map<string, TokenUse & { task: string }>();
  for (const [k, rows] of tokenRows) {
    for (const r of rows) {
      const task = typeof r._id === 'string' ? r._id : REPLY_TASK;
      const use = tasks.get(task) ?? noUse(task);
      use[k] += num(r.n);
      tasks.set(task, use);
    }
  }
  if (runs.length > 0) {
    const use = noUse(REFLECTION_TASK);
    for (const r of runs) {
      const u = runUsageOf(r.budget?.used);
      for (const k of ['calls', ...TOKEN_FIELDS] as const) use[k] += u[k];
    }
    tasks.set(REFLECTION_TASK, use);
  }
  return [...tasks.values()].sort((a, b) => b.totalTokens - a.totalTokens || a.task.localeCompare(b.task));
}

export function statsOf(o: { since: Date; until: Date; dialogueId?: string }, rows: StatsRows): Stats {
  const turns = byField(rows.turnRows);
  const messages = byField(rows.messageRows);
  const byTask = tokenUseByTask(rows.tokenRows, rows.runs);
  const sum = (k: keyof TokenUse) => byTask.reduce((n, t) => n + t[k], 0);
  const count = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    since: o.since,
    until: o.until,
    ...(o.dialogueId ? { dialogueId: o.dialogueId } : {}),
    dialogues: { created: rows.created, active: rows.active },
    sessions: rows.sessions,
    turns: {
      total: total(turns),
      pending: count(turns, 'pending'),
      responded: count(turns, 'responded'),
      unresponded: count(turns, 'unresponded'),
    },
    messages: {
      total: total(messages),
      human: count(messages, 'human'),
      ai: count(messages, 'ai'),
      system: count(messages, 'system'),
    },
    replyLatency: {
      ...latencySummary(rows.latencies.slice(0, LATENCY_SAMPLE_MAX).map((t) => num(t.responseTime))),
      sampled: rows.latencies.length > LATENCY_SAMPLE_MAX,
    },
    tokens: {
      calls: sum('calls'),
      promptTokens: sum('promptTokens'),
      completionTokens: sum('completionTokens'),
      totalTokens: sum('totalTokens'),
      byTask,
    },
  };
}
