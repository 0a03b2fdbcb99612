// Who may do what (viewer < operator < admin, per field), query limits against abusive
// queries, the introspection switch, and masked errors: what an operator of the API relies on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, gqlRequest, type Harness } from '../support/harness.js';
import { TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';

describe('GraphQL auth and limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, ['api']);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('lets a viewer read but not change the config; an operator neither changes it; an admin does', async () => {
    const read = await h.gql<{ config: { version: number } }>(
      '{ config { version thresholds { recall_top_k } } }',
      {},
      TEST_VIEWER_TOKEN,
    );
    expect(read.body.errors).toBeUndefined();
    const before = read.body.data!.config.version;
    const patch =
      'mutation { updateConfig(patch: { thresholds: { recall_top_k: 7 } }) { version thresholds { recall_top_k } } }';
    for (const token of [TEST_VIEWER_TOKEN, TEST_OPERATOR_TOKEN]) {
      const denied = await h.gql(patch, {}, token);
      expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(denied.body.errors?.[0]?.message).toMatch(/may not use Mutation\.updateConfig/);
      const reset = await h.gql('mutation { resetConfig { version } }', {}, token);
      expect(reset.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect((await h.app.store.config.get()).version).toBe(before);
    const done = await h.gql<{ updateConfig: { version: number; thresholds: { recall_top_k: number } } }>(patch);
    expect(done.body.errors).toBeUndefined();
    expect(done.body.data!.updateConfig).toEqual({ version: before + 1, thresholds: { recall_top_k: 7 } });
    expect((await h.app.store.config.get()).config.thresholds.recall_top_k).toBe(7);
  });

  it('rejects out-of-range and mistyped config values, naming the field, and changes nothing', async () => {
    const before = await h.app.store.config.get();
    const range = await h.gql('mutation { updateConfig(patch: { limits: { max_total_tokens: 500 } }) { version } }');
    expect(range.body.errors?.[0]?.extensions?.code).toBe('CONFIG_INVALID');
    expect(range.body.errors?.[0]?.message).toMatch(
      /limits\.max_total_tokens must be an integer between 10000 and 200000/,
    );
    const typed = await h.gql('mutation { updateConfig(patch: { preferences: { summary_order: 7 } }) { version } }');
    expect(typed.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const unknown = await h.gql('mutation { updateConfig(patch: { limits: { no_such_limit: 5 } }) { version } }');
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect((await h.app.store.config.get()).version).toBe(before.version);
  });

  it('lists every config field with its range and default', async () => {
    const r = await h.gql<{
      configFields: Array<{
        path: string;
        min: number | null;
        max: number | null;
        values: string[] | null;
        default: unknown;
      }>;
    }>('{ configFields { path type min max values default doc } }', {}, TEST_VIEWER_TOKEN);
    const byPath = new Map(r.body.data!.configFields.map((f) => [f.path, f]));
    expect(byPath.get('limits.max_total_tokens')).toMatchObject({ min: 10_000, max: 200_000, default: 100_000 });
    expect(byPath.get('preferences.summary_order')).toMatchObject({
      values: ['summary_first', 'last_n_first'],
      default: 'summary_first',
    });
  });

  it('rejects a depth bomb (relations followed in a cycle) before running it', async () => {
    await h.app.store.c.dialogues.insertOne({
      _id: 'dlg_deep',
      type: 'human_ai',
      chat: { platform: 'telegram', chatId: '4242' },
      humanIds: [],
      agentIds: [],
      status: 'active',
      messageCount: 0,
      lastActivityAt: new Date(),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    // dialogue → latestSession → dialogue → … : each hop is legal, the whole is 40 levels deep.
    const deep = `{ dialogue(id: "dlg_deep") { ${'latestSession { dialogue { '.repeat(20)}id${' } }'.repeat(20)} } }`;
    const r = await h.gql(deep, {}, TEST_VIEWER_TOKEN);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(r.body.errors?.[0]?.message).toMatch(/depth/i);
    expect(r.body.data).toBeUndefined();
    // The same path within the limit runs.
    const shallow = await h.gql<{ dialogue: { id: string; latestSession: null } }>(
      '{ dialogue(id: "dlg_deep") { id latestSession { dialogue { id } } } }',
      {},
      TEST_VIEWER_TOKEN,
    );
    expect(shallow.body.errors).toBeUndefined();
    expect(shallow.body.data?.dialogue).toEqual({ id: 'dlg_deep', latestSession: null });
  });

  it('rejects an alias bomb, a cost bomb and a token flood before running them', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: config { version }`).join(' ');
    const aliasBomb = await h.gql(`{ ${aliases} }`, {}, TEST_VIEWER_TOKEN);
    expect(aliasBomb.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(aliasBomb.body.data).toBeUndefined();
    const costBomb =
      await h.gql(`{ dialogues(first: 100) { edges { node { sessions(first: 100) { edges { node { turns(first: 100) { edges { node {
      messages(first: 100) { edges { node { id content } } } } } } } } } } } } }`);
    expect(costBomb.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const flood = await h.gql(`{ config { ${'version '.repeat(4000)} } }`);
    expect(flood.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('answers malformed queries with BAD_REQUEST and hides internal failures behind INTERNAL', async () => {
    const bad = await h.gql('{ dialogues(first: "ten") { edges { node { id } } } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    // A corrupt record (a date stored as text) makes the resolver throw: the client learns only INTERNAL.
    await h.app.store.c.messages.insertOne({
      _id: 'msg_corrupt',
      dialogueId: 'dlg_x',
      sessionId: 'ses_x',
      senderRole: 'human',
      senderId: 'hum_x',
      contentType: 'text',
      content: 'x',
      mentions: [],
      visible: true,
      createdAt: 'yesterday' as unknown as Date, // deliberately wrong type
      updatedAt: new Date(),
    });
    const broken = await h.gql('{ message(id: "msg_corrupt") { id createdAt } }');
    expect(broken.body.errors?.[0]).toEqual(
      expect.objectContaining({ message: 'internal error', extensions: { code: 'INTERNAL' } }),
    );
    expect(JSON.stringify(broken.body)).not.toMatch(/toISOString|\.ts:|at /);
  });

  it('serves introspection here (development/test) and not when it is switched off', async () => {
    const on = await h.gql<{ __schema: { queryType: { name: string } } }>(
      '{ __schema { queryType { name } } }',
      {},
      TEST_VIEWER_TOKEN,
    );
    expect(on.body.data?.__schema.queryType.name).toBe('Query');
    const off = await startHarness({ GRAPHQL_INTROSPECTION: 'off', TELEGRAM_BOT_TOKEN: '' }, ['api']);
    try {
      const denied = await gqlRequest(`${off.app.apiUrl}/graphql`, '{ __schema { queryType { name } } }');
      expect(denied.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(denied.body.errors?.[0]?.message).toMatch(/introspection/i);
      // No "did you mean …" hints that would leak the schema either.
      const typo = await gqlRequest(`${off.app.apiUrl}/graphql`, '{ dialogus(first: 1) { edges { node { id } } } }');
      expect(typo.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
    } finally {
      await off.stop();
    }
  });
});
