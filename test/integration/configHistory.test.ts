// Config history (issue 37): every config write that changes something is recorded with the
// operator's name (from their token's entry, never the token), the time and each field's
// old → new value; viewers read it with the config; model prices are validated like the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_OPERATOR_TOKEN, TEST_OPS_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';

const SECOND_ADMIN_TOKEN = 'second-admin-token-0123456789abc';

const UPDATE = `mutation U($patch: ConfigPatchInput!) { updateConfig(patch: $patch) { version } }`;
const HISTORY = `query { configHistory { id at by action version changes { path from to } } }`;

interface Entry {
  id: string;
  at: string;
  by: string | null;
  action: string;
  version: number;
  changes: Array<{ path: string; from: unknown; to: unknown }>;
}

describe('config history', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(
      {
        OPS_TOKENS: `tester:admin:${TEST_OPS_TOKEN},ming:admin:${SECOND_ADMIN_TOKEN},op:operator:${TEST_OPERATOR_TOKEN},watcher:viewer:${TEST_VIEWER_TOKEN}`,
      },
      ['api'],
    );
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('lists two operators’ updates, newest first, with names, times and old → new values', async () => {
    const before = Date.now();
    const first = await h.gql(UPDATE, { patch: { thresholds: { recall_top_k: 7 } } }, TEST_OPS_TOKEN);
    expect(first.body.errors).toBeUndefined();
    const second = await h.gql(
      UPDATE,
      {
        patch: {
          limits: { max_reply_tokens: 3000 },
          preferences: { active_recall: false },
          pricing: [{ model: 'gpt-4o-mini', promptPerMillion: 0.15, completionPerMillion: 0.6 }],
        },
      },
      SECOND_ADMIN_TOKEN,
    );
    expect(second.body.errors).toBeUndefined();

    // A viewer reads it (the config is readable by every role).
    const r = await h.gql<{ configHistory: Entry[] }>(HISTORY, {}, TEST_VIEWER_TOKEN);
    expect(r.body.errors).toBeUndefined();
    const list = r.body.data!.configHistory;
    expect(list.map((e) => e.by)).toEqual(['ming', 'tester']);
    expect(list.map((e) => e.version)).toEqual([2, 1]);
    for (const e of list) {
      expect(e.action).toBe('update');
      const at = Date.parse(e.at);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(list[1]!.changes).toEqual([{ path: 'thresholds.recall_top_k', from: 5, to: 7 }]);
    expect(list[0]!.changes).toEqual([
      { path: 'limits.max_reply_tokens', from: 2000, to: 3000 },
      { path: 'preferences.active_recall', from: true, to: false },
      { path: 'pricing.gpt-4o-mini', from: null, to: { promptPerMillion: 0.15, completionPerMillion: 0.6 } },
    ]);

    // Nothing secret: no token (of anyone) appears in what the history returns.
    const raw = JSON.stringify(r.body);
    for (const token of [TEST_OPS_TOKEN, SECOND_ADMIN_TOKEN, TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN])
      expect(raw).not.toContain(token);
  });

  it('records a reset as one entry, skips a write that changed nothing, and refuses bad prices', async () => {
    const same = await h.gql(UPDATE, { patch: { thresholds: { recall_top_k: 7 } } }, TEST_OPS_TOKEN);
    expect(same.body.errors).toBeUndefined();
    const bad = await h.gql(
      UPDATE,
      { patch: { pricing: [{ model: 'gpt-4o-mini', promptPerMillion: -1, completionPerMillion: 5000 }] } },
      TEST_OPS_TOKEN,
    );
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('CONFIG_INVALID');
    expect(bad.body.errors?.[0]?.message).toContain('pricing[0].promptPerMillion must be a number between 0 and 1000');
    const reset = await h.gql(`mutation { resetConfig { version } }`, {}, SECOND_ADMIN_TOKEN);
    expect(reset.body.errors).toBeUndefined();

    const r = await h.gql<{ configHistory: Entry[]; config: { pricing: unknown[] } }>(
      `query { configHistory { by action version changes { path from to } } config { pricing { model } } }`,
      {},
      TEST_VIEWER_TOKEN,
    );
    const list = r.body.data!.configHistory;
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ by: 'ming', action: 'reset', version: 4 });
    expect(list[0]!.changes.map((c) => c.path).sort()).toEqual([
      'limits.max_reply_tokens',
      'preferences.active_recall',
      'pricing.gpt-4o-mini',
      'thresholds.recall_top_k',
    ]);
    expect(r.body.data!.config.pricing).toEqual([]);
    // Only admins change the config; the history does not open that to anyone else.
    const denied = await h.gql(UPDATE, { patch: { thresholds: { recall_top_k: 3 } } }, TEST_VIEWER_TOKEN);
    expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
