// Stats' token totals are the sum of every model use the record keeps for the window: the
// replies' llm_call events, the memory and summary tasks' (extraction's records of earlier
// versions kept their usage under `data.tokens`), and self-reflection runs (no dialogue: their
// usage is on the run). Seeded through the store, read over GraphQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import type { ReflectionRun } from '../../src/domain/reflection.js';
import { dialogueRecord } from '../support/records.js';

const SINCE = new Date('2026-03-01T00:00:00Z');
const UNTIL = new Date('2026-03-02T00:00:00Z');
const at = (h: number) => new Date(SINCE.getTime() + h * 3_600_000);
const DIALOGUE = 'dlg_stats_tokens';

const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });

function run(id: string, startedAt: Date, used: ReflectionRun['budget']['used']): ReflectionRun {
  return {
    _id: id,
    kind: 'self_reflection',
    agentId: 'agt_default',
    trigger: { source: 'operator', by: 'tester' },
    goal: 'reflect',
    status: 'completed',
    budget: { limits: { maxTokens: 100_000, maxMemories: 20 }, used },
    turnIds: [],
    changes: [],
    queuedAt: startedAt,
    startedAt,
    endedAt: startedAt,
    updatedAt: startedAt,
  };
}

interface TokenRow {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}
type Stats = {
  stats: {
    tokens: TokenRow & { byTask: Array<TokenRow & { task: string }> };
    timeline: TokenRow[];
  };
};

describe('stats: tokens of every kind of model use', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, ['api']);
    await h.app.store.c.dialogues.insertOne(
      dialogueRecord({ id: DIALOGUE, humanIds: ['hum_x'], agentIds: ['agt_default'], at: SINCE }),
    );
    const e = h.app.store.events;
    const call = (hour: number, data: Record<string, unknown>) =>
      e.record({ kind: 'llm_call', dialogueId: DIALOGUE, turnId: `trn_${hour}`, at: at(hour), data });
    // A reply's call, and one that failed without usage (a call, no tokens).
    await call(1, { model: 'm', usage: usage(100, 20) });
    await call(2, { model: 'm', usage: null, error: 'boom' });
    // Memory extraction: an old record (usage under `tokens`) and one of this version.
    await call(3, { task: 'extract_memories', model: 'm', tokens: usage(300, 50) });
    await call(4, { task: 'extract_memories', model: 'm', usage: usage(200, 40) });
    await call(5, { task: 'rolling_summary', model: 'm', usage: usage(400, 60) });
    // Outside the window: never counted.
    await e.record({
      kind: 'llm_call',
      dialogueId: DIALOGUE,
      at: new Date(UNTIL.getTime() + 1000),
      data: { usage: usage(9_000, 9_000) },
    });
    // Self-reflection: a run with its split, an older run with only its total, one outside the window.
    await h.app.store.reflections.insert(
      run('rfl_a', at(6), { tokens: 1_000, calls: 3, memories: 0, promptTokens: 800, completionTokens: 200 }),
    );
    await h.app.store.reflections.insert(run('rfl_b', at(7), { tokens: 500, calls: 2, memories: 1 }));
    await h.app.store.reflections.insert(
      run('rfl_c', new Date(SINCE.getTime() - 1000), { tokens: 7_000, calls: 7, memories: 0 }),
    );
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('sums llm_call, memory-job and reflection usage, old shapes included', async () => {
    const r = await h.gql<Stats>(
      `query($since: DateTime!, $until: DateTime!) { stats(since: $since, until: $until) {
        tokens { calls promptTokens completionTokens totalTokens
          byTask { task calls promptTokens completionTokens totalTokens } }
        timeline(buckets: 4) { calls promptTokens completionTokens totalTokens } } }`,
      { since: SINCE.toISOString(), until: UNTIL.toISOString() },
    );
    expect(r.body.errors).toBeUndefined();
    const s = r.body.data!.stats;
    // 120 + 0 + 350 + 240 + 460 + 1000 + 500
    expect(s.tokens).toMatchObject({ calls: 10, promptTokens: 1_800, completionTokens: 370, totalTokens: 2_670 });
    const byTask = Object.fromEntries(s.tokens.byTask.map(({ task, ...t }) => [task, t]));
    expect(byTask).toEqual({
      reply: { calls: 2, promptTokens: 100, completionTokens: 20, totalTokens: 120 },
      extract_memories: { calls: 2, promptTokens: 500, completionTokens: 90, totalTokens: 590 },
      rolling_summary: { calls: 1, promptTokens: 400, completionTokens: 60, totalTokens: 460 },
      reflection: { calls: 5, promptTokens: 800, completionTokens: 200, totalTokens: 1_500 },
    });
    // The timeline counts the same uses.
    const sum = (k: keyof TokenRow) => s.timeline.reduce((n, b) => n + b[k], 0);
    expect({
      calls: sum('calls'),
      promptTokens: sum('promptTokens'),
      completionTokens: sum('completionTokens'),
      totalTokens: sum('totalTokens'),
    }).toEqual({ calls: 10, promptTokens: 1_800, completionTokens: 370, totalTokens: 2_670 });
  });

  it('leaves the agent-wide reflection runs out of one dialogue’s stats', async () => {
    const r = await h.gql<Stats>(
      `query($since: DateTime!, $until: DateTime!, $d: ID!) { stats(since: $since, until: $until, dialogueId: $d) {
        tokens { calls totalTokens byTask { task } } timeline { calls } } }`,
      { since: SINCE.toISOString(), until: UNTIL.toISOString(), d: DIALOGUE },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.stats.tokens).toMatchObject({ calls: 5, totalTokens: 1_170 });
    expect(r.body.data?.stats.tokens.byTask.map((t) => t.task)).not.toContain('reflection');
  });
});
