// What the operator console asks of the API beyond the rest of it: who the token belongs to
// (viewer), operator corrections of memories that keep their history (editMemory supersedes,
// retireMemory prunes), stats over time (stats.timeline), and the console's own HTTP plugin
// when no build is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { dedupeKeyOf } from '../../src/memory/normalize.js';
import type { MemoryEntry } from '../../src/domain/model.js';
import { createLogger } from '../../src/log.js';
import { createHttpServer } from '../../app/http/server.js';
import { mountConsole } from '../../app/http/console.js';

const OWNER = 'agt_default';
const SUBJECT = 'hum_console_test';

function memory(text: string, at: Date): Omit<MemoryEntry, '_id'> {
  return {
    ownerId: OWNER,
    subjectId: SUBJECT,
    kind: 'preference',
    text,
    dedupeKey: dedupeKeyOf(OWNER, SUBJECT, text),
    importance: 0.7,
    sources: { dialogueId: 'dlg_x', turnIds: ['trn_x'] },
    occurredAt: at,
    status: 'active',
    recall: { count: 0 },
    createdAt: at,
    updatedAt: at,
  };
}

type M = { id: string; text: string; status: string; chain: Array<{ id: string; text: string; status: string }> };
const FIELDS = 'id text status chain { id text status }';

describe('the API the console uses', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, ['api']);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('tells each token who it is, with the display time zone', async () => {
    const admin = await h.gql<{ viewer: { name: string; role: string; timezone: string } }>(
      '{ viewer { name role timezone } }',
    );
    expect(admin.body.data?.viewer).toEqual({ name: 'tester', role: 'admin', timezone: h.env.DISPLAY_TIMEZONE });
    const viewer = await h.gql<{ viewer: { role: string } }>('{ viewer { role } }', {}, TEST_VIEWER_TOKEN);
    expect(viewer.body.data?.viewer.role).toBe('viewer');
    expect((await h.gql('{ viewer { role } }', {}, 'wrong-token-000000000000')).status).toBe(401);
  });

  it('edits a memory into a new entry that supersedes it, and retires one without deleting it', async () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const { entry: old } = await h.app.store.memories.insertOnce(memory('User likes green tea.', at));

    const refused = await h.gql(
      `mutation($id: ID!) { editMemory(id: $id, text: "x") { id } }`,
      { id: old._id },
      TEST_VIEWER_TOKEN,
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const empty = await h.gql(`mutation($id: ID!) { editMemory(id: $id, text: "  ") { id } }`, { id: old._id });
    expect(empty.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');

    const edited = await h.gql<{ editMemory: M }>(
      `mutation($id: ID!, $text: String!) { editMemory(id: $id, text: $text) { ${FIELDS} } }`,
      { id: old._id, text: 'User prefers oolong tea now.' },
      TEST_OPERATOR_TOKEN,
    );
    const next = edited.body.data!.editMemory;
    expect(next).toMatchObject({ text: 'User prefers oolong tea now.', status: 'active', chain: [] });
    const before = await h.gql<{ memory: M & { supersededBy: { id: string } | null } }>(
      `query($id: ID!) { memory(id: $id) { ${FIELDS} supersededBy { id } } }`,
      { id: old._id },
    );
    expect(before.body.data?.memory).toMatchObject({
      text: 'User likes green tea.',
      status: 'superseded',
      supersededBy: { id: next.id },
      chain: [{ id: next.id, status: 'active' }],
    });
    // The new entry keeps the old one's provenance.
    expect((await h.app.store.memories.get(next.id))?.sources).toMatchObject({
      dialogueId: 'dlg_x',
      turnIds: ['trn_x'],
    });
    const again = await h.gql(`mutation($id: ID!) { editMemory(id: $id, text: "Other.") { id } }`, { id: old._id });
    expect(again.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');

    const retired = await h.gql<{ retireMemory: M }>(`mutation($id: ID!) { retireMemory(id: $id) { ${FIELDS} } }`, {
      id: next.id,
    });
    expect(retired.body.data?.retireMemory).toMatchObject({ id: next.id, status: 'pruned' });
    expect(await h.app.store.memories.get(next.id)).not.toBeNull();
    const twice = await h.gql(`mutation($id: ID!) { retireMemory(id: $id) { id } }`, { id: next.id });
    expect(twice.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const missing = await h.gql(`mutation { retireMemory(id: "mem_nope") { id } }`);
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('cuts the stats window into buckets of tokens and reply latency', async () => {
    const since = new Date('2026-03-01T00:00:00Z');
    const hour = 3_600_000;
    const at = (h: number) => new Date(since.getTime() + h * hour);
    const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });
    await h.app.store.c.events.insertMany([
      { _id: 'evt_t1', kind: 'llm_call', dialogueId: 'dlg_s', at: at(0.5), data: { usage: usage(100, 10) } },
      { _id: 'evt_t2', kind: 'llm_call', dialogueId: 'dlg_s', at: at(0.7), data: { usage: usage(50, 5) } },
      { _id: 'evt_t3', kind: 'llm_call', dialogueId: 'dlg_s', at: at(2.5), data: { usage: null } },
    ]);
    const turn = (id: string, startedAt: Date, responseTime: number) => ({
      _id: id,
      dialogueId: 'dlg_s',
      sessionId: 'ses_s',
      kind: 'dialogue' as const,
      initiatorRole: 'human' as const,
      initiatorId: 'hum_s',
      responderRole: 'ai' as const,
      responderId: OWNER,
      startedAt,
      responseWindowMs: hour,
      deadlineAt: new Date(startedAt.getTime() + hour),
      status: 'responded' as const,
      responseTime,
      closedAt: new Date(startedAt.getTime() + responseTime),
    });
    await h.app.store.c.turns.insertMany([
      turn('trn_s1', at(0.5), 800),
      turn('trn_s2', at(0.6), 1200),
      turn('trn_s3', at(3.2), 400),
    ]);

    const r = await h.gql<{
      stats: {
        timeline: Array<{
          start: string;
          calls: number;
          totalTokens: number;
          replies: number;
          p50Ms: number | null;
          p90Ms: number | null;
        }>;
      };
    }>(
      `query($since: DateTime!, $until: DateTime!) { stats(since: $since, until: $until) {
        timeline(buckets: 4) { start calls totalTokens replies p50Ms p90Ms } } }`,
      { since: since.toISOString(), until: at(4).toISOString() },
    );
    expect(r.body.data?.stats.timeline).toEqual([
      { start: since.toISOString(), calls: 2, totalTokens: 165, replies: 2, p50Ms: 800, p90Ms: 1200 },
      { start: at(1).toISOString(), calls: 0, totalTokens: 0, replies: 0, p50Ms: null, p90Ms: null },
      { start: at(2).toISOString(), calls: 1, totalTokens: 0, replies: 0, p50Ms: null, p90Ms: null },
      { start: at(3).toISOString(), calls: 0, totalTokens: 0, replies: 1, p50Ms: 400, p90Ms: 400 },
    ]);
    const bad = await h.gql('{ stats { timeline(buckets: 0) { start } } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  });
});

describe('the console without a build', () => {
  it('says how to build it, and still leaves API paths to the API', async () => {
    const http = createHttpServer({ log: createLogger('silent'), port: 0, host: '127.0.0.1', readiness: {} });
    mountConsole(http.app, { dist: '/nonexistent/console/dist' });
    const base = await http.listen();
    try {
      const page = await fetch(`${base}/dialogues/x`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('npm run build:console');
      expect((await fetch(`${base}/api/conversations`)).status).toBe(404);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      await http.close();
    }
  });
});
