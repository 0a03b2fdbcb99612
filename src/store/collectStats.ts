// The reads behind operating statistics over a time window: how many dialogues, sessions, turns
// and messages, how fast replies came, and how many tokens the model used. Every read is an
// indexed count, aggregate or bounded find; src/stats/statsOf.ts folds the rows (pure).
import type { Collections } from './collections.js';
import { LATENCY_SAMPLE_MAX, statsOf, type Stats } from '../stats/statsOf.js';
import { TOKEN_FIELDS, USAGE_PATHS, type TokenField } from '../stats/tokenUsage.js';

/** Reflection runs read per query (a few per agent and day; the bound keeps a read small). */
export const REFLECTION_RUNS_MAX = 10_000;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export async function collectStats(
  c: Collections,
  o: { since: Date; until: Date; dialogueId?: string },
): Promise<Stats> {
  const range = { $gte: o.since, $lt: o.until };
  const scope = o.dialogueId ? { dialogueId: o.dialogueId } : {};
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
  return statsOf(o, {
    created,
    active: num(active[0]?.n),
    sessions,
    turnRows,
    messageRows,
    latencies,
    tokenRows,
    runs,
  });
}
