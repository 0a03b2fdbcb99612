// The reads behind the stats timeline (bucketing is pure, in src/stats/timeline.ts): the
// llm_call events, reflection runs and the responded turns of a window, bounded like the
// latency sample of collectStats.ts. Each uses a time index (events.by_kind, turns.by_time,
// reflections_by_time).
import type { Collections } from './collections.js';
import { REFLECTION_RUNS_MAX } from './collectStats.js';
import { LATENCY_SAMPLE_MAX } from '../stats/statsOf.js';
import { bucketize, type StatsBucket } from '../stats/timeline.js';
import { runUsageOf, usageOf } from '../stats/tokenUsage.js';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export async function collectTimeline(
  c: Collections,
  o: { since: Date; until: Date; dialogueId?: string; buckets: number },
): Promise<StatsBucket[]> {
  const range = { $gte: o.since, $lt: o.until };
  const scope = o.dialogueId ? { dialogueId: o.dialogueId } : {};
  const [calls, turns, runs] = await Promise.all([
    c.events
      .find(
        { ...scope, kind: 'llm_call', at: range },
        { projection: { _id: 0, at: 1, 'data.usage': 1, 'data.tokens': 1 } },
      )
      .sort({ at: -1 })
      .limit(LATENCY_SAMPLE_MAX)
      .toArray(),
    c.turns
      .find(
        { ...scope, startedAt: range, status: 'responded', responseTime: { $exists: true } },
        { projection: { _id: 0, startedAt: 1, responseTime: 1 } },
      )
      .sort({ startedAt: -1 })
      .limit(LATENCY_SAMPLE_MAX)
      .toArray(),
    // Self-reflection is agent-wide (see collectStats.ts): each run counted when it started.
    o.dialogueId
      ? Promise.resolve([])
      : c.reflections
          .find({ startedAt: range }, { projection: { _id: 0, startedAt: 1, 'budget.used': 1 } })
          .limit(REFLECTION_RUNS_MAX)
          .toArray(),
  ]);
  const tokens = [
    ...calls.map((e) => ({ at: e.at, calls: 1, ...usageOf(e.data) })),
    ...runs.flatMap((r) => (r.startedAt ? [{ at: r.startedAt, ...runUsageOf(r.budget?.used) }] : [])),
  ];
  const latencies = turns.map((t) => ({ at: t.startedAt, ms: num(t.responseTime) }));
  return bucketize(o, o.buckets, tokens, latencies);
}
