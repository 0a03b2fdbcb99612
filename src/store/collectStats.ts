// Simple operating statistics over a time window (I/O; the percentile rule is pure, in
// percentiles.ts): how many dialogues, sessions, turns and messages, how fast replies came,
// and how many tokens the model used. Every read is an indexed count, aggregate or bounded find.
import type { Document } from 'mongodb';
import type { Role, TurnStatus } from '../domain/model.js';
import type { Collections } from './collections.js';
import { latencySummary, type LatencySummary } from '../stats/percentiles.js';
import { REFLECTION_TASK, runUsageOf, TOKEN_FIELDS, USAGE_PATHS, type TokenField } from '../stats/tokenUsage.js';

/** Reply times read per query: the most recent this many responded turns of the window. */
export const LATENCY_SAMPLE_MAX = 100_000;
/** The task name of the reply's own LLM calls (memory and summary tasks record theirs). */
export const REPLY_TASK = 'reply';
/** Reflection runs read per query (a few per agent and day; the bound keeps a read small). */
export const REFLECTION_RUNS_MAX = 10_000;

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

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export async function collectStats(
  c: Collections,
  o: { since: Date; until: Date; dialogueId?: string },
): Promise<Stats> {
  const range = { $gte: o.since, $lt: o.until };
  const scope = o.dialogueId ? { dialogueId: o.dialogueId } : {};
  const byField = (rows: Document[]) => new Map(rows.map((r) => [String(r._id), num(r.n)]));
  const [created, active, sessions, turnRows, messageRows, latencies, tokenRows, runs] = await Promise.all([
    c.dialogues.countDocuments({ ...(o.dialogueId ? { _id: o.dialogueId } : {}), createdAt: range }),
    c.messages
      .aggregate([{ $match: { ...scope, createdAt: range } }, { $group: { _id: '$dialogueId' } }, { $count: 'n' }])
      .toArray(),
    c.sessions.countDocuments({ ...scope, startedAt: range }),
    c.turns
      .aggregate([{ $match: { ...scope, startedAt: range } }, { $group: { _id: '$status', n: { $sum: 1 } } }])
      .toArray(),
    c.messages
      .aggregate([{ $match: { ...scope, createdAt: range } }, { $group: { _id: '$senderRole', n: { $sum: 1 } } }])
      .toArray(),
    c.turns
      .find(
        { ...scope, startedAt: range, status: 'responded', responseTime: { $exists: true } },
        { projection: { _id: 0, responseTime: 1 } },
      )
      .sort({ startedAt: -1 })
      .limit(LATENCY_SAMPLE_MAX + 1)
      .toArray(),
    // One accumulator per $group: FerretDB 1.24 computes only the first $sum of a $group
    // correctly when there are several; small aggregations (in parallel) instead, one per field
    // and place a usage is recorded in (tokenUsage.ts: an event has one of them).
    Promise.all(
      [
        ['calls', 1] as const,
        ...TOKEN_FIELDS.flatMap((k) => USAGE_PATHS.map((path) => [k, `$${path}.${k}`] as const)),
      ].map(async ([k, sum]: readonly [TokenField | 'calls', 1 | string]) => {
        const rows = await c.events
          .aggregate([
            { $match: { ...scope, kind: 'llm_call', at: range } },
            { $group: { _id: '$data.task', n: { $sum: sum } } },
          ])
          .toArray();
        return [k, rows] as const;
      }),
    ),
    // Self-reflection is agent-wide: its runs count in the whole deployment's stats only.
    o.dialogueId
      ? Promise.resolve([])
      : c.reflections
          .find({ startedAt: range }, { projection: { _id: 0, 'budget.used': 1 } })
          .limit(REFLECTION_RUNS_MAX)
          .toArray(),
  ]);
  const turns = byField(turnRows);
  const messages = byField(messageRows);
  const sampled = latencies.length > LATENCY_SAMPLE_MAX;
  const tasks = new Map<string, TokenUse & { task: string }>();
  for (const [k, rows] of tokenRows) {
    for (const r of rows) {
      const task = typeof r._id === 'string' ? r._id : REPLY_TASK;
      const use = tasks.get(task) ?? { task, calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
      use[k] += num(r.n);
      tasks.set(task, use);
    }
  }
  if (runs.length > 0) {
    const use = { task: REFLECTION_TASK, calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    for (const r of runs) {
      const u = runUsageOf(r.budget?.used);
      for (const k of ['calls', ...TOKEN_FIELDS] as const) use[k] += u[k];
    }
    tasks.set(REFLECTION_TASK, use);
  }
  const byTask = [...tasks.values()].sort((a, b) => b.totalTokens - a.totalTokens || a.task.localeCompare(b.task));
  const sum = (k: keyof TokenUse) => byTask.reduce((n, t) => n + t[k], 0);
  const count = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
  return {
    since: o.since,
    until: o.until,
    ...(o.dialogueId ? { dialogueId: o.dialogueId } : {}),
    dialogues: { created, active: num(active[0]?.n) },
    sessions,
    turns: {
      total: [...turns.values()].reduce((a, b) => a + b, 0),
      pending: count(turns, 'pending'),
      responded: count(turns, 'responded'),
      unresponded: count(turns, 'unresponded'),
    },
    messages: {
      total: [...messages.values()].reduce((a, b) => a + b, 0),
      human: count(messages, 'human'),
      ai: count(messages, 'ai'),
      system: count(messages, 'system'),
    },
    replyLatency: {
      ...latencySummary(latencies.slice(0, LATENCY_SAMPLE_MAX).map((t) => num(t.responseTime))),
      sampled,
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
