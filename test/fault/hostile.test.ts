// Hostile input against the real gateway process (issue 16 C): hundreds of malformed or hostile
// Telegram updates, GraphQL requests and web API requests, with valid messages among them. The
// process must not crash, no client may see a 5xx or a stack trace, and every valid message must
// still be answered once.
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultRig, type FaultRig } from './faultRig.js';
import { malformedUpdates, partlyMalformedUpdates, textUpdate } from '../fixtures/telegramUpdates.js';
import { TEST_OPS_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { freePort } from '../../src/localServices/reachability.js';

let rig: FaultRig | undefined;
afterAll(() => rig?.stop());

/** Malformed Telegram updates: the fixtures' own, then mutations of a valid message. */
function hostileUpdates(firstId: number, count: number): object[] {
  const out: object[] = [];
  let id = firstId;
  const valid = () => textUpdate({ updateId: id, text: 'x' }).message as unknown as Record<string, unknown>;
  const deep = (n: number): object => (n === 0 ? { x: 1 } : { nested: deep(n - 1) });
  const mutations: Array<(m: Record<string, unknown>) => unknown> = [
    (m) => ({ ...m, text: 12345 }),
    (m) => ({ ...m, text: null }),
    (m) => ({ ...m, from: 'nobody' }),
    (m) => ({ ...m, from: null }),
    (m) => ({ ...m, chat: [] }),
    (m) => ({ ...m, chat: { id: 'not-a-number', type: 'private' } }),
    (m) => ({ ...m, date: -1 }),
    (m) => ({ ...m, message_id: 'abc' }),
    (m) => ({ ...m, entities: [{ type: 'bold', offset: -5, length: 1e9 }] }),
    (m) => ({ ...m, entities: 'all of them' }),
    (m) => ({ ...m, text: 'x'.repeat(200_000) }),
    (m) => ({ ...m, text: '\u0000\uFFFF\uD800 broken surrogate' }),
    (m) => ({ ...m, photo: [{ file_id: 42 }] }),
    (m) => ({ ...m, reply_to_message: { message_id: 'self', reply_to_message: deep(40) } }),
    (m) => ({ ...m, forward_origin: { type: 'martian', date: 'never' } }),
    (m) => ({ ...m, poll: { id: 1, question: { nested: true }, options: 'yes' } }),
    (m) => ({ ...m, location: { latitude: 'north', longitude: null } }),
    (m) => ({ ...m, sticker: {} }),
    (m) => ({ ...m, __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } }),
    () => [],
    () => 'just a string',
    () => deep(60),
  ];
  while (out.length < count) {
    id += 1;
    for (const m of malformedUpdates(id)) out.push(m.update);
    for (const m of partlyMalformedUpdates(id)) out.push(m.update);
    for (const mutate of mutations) {
      id += 1;
      out.push({ update_id: id, message: mutate(valid()) });
    }
    id += 1;
    out.push({ update_id: id, unknown_kind: { whatever: true } });
    out.push({ update_id: id + 1, edited_message: { message_id: 1 } });
    id += 1;
  }
  return out.slice(0, count);
}

const stackTrace = /\n\s+at .+\(.*:\d+:\d+\)|node_modules|\.ts:\d+/;

describe('hostile input', () => {
  it('500+ malformed updates and hostile API requests: no crash, no 5xx, no stack trace; valid messages answered', async () => {
    rig = await startFaultRig({ env: { PORT: String(await freePort()) } });
    const r = rig;
    const port = r.raw.PORT;
    const base = `http://127.0.0.1:${port}`;

    // Telegram: the hostile updates with valid messages between them.
    const bad = hostileUpdates(5_000_000, 300);
    const loading = r.load({ chats: 6, perChat: 2, gapMs: 300 });
    // Stamped with the rig's increasing update ids, as Telegram numbers updates.
    for (const u of bad) r.tg.pushUpdate({ ...u, update_id: r.nextUpdateId() });

    // GraphQL and the web API.
    const requests: Array<{ path: string; init: RequestInit }> = [];
    const gql = (body: string, token: string | null = TEST_OPS_TOKEN, type = 'application/json') =>
      requests.push({
        path: '/graphql',
        init: {
          method: 'POST',
          headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body,
        },
      });
    const api = (method: string, path: string, body?: string, token: string | null = TEST_OPS_TOKEN) =>
      requests.push({
        path,
        init: {
          method,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body === undefined ? {} : { body }),
        },
      });
    for (let i = 0; i < 10; i++) {
      gql('{"query": "{ dialogues(first: 5) { edges { node { id ');
      gql('not json at all');
      gql(JSON.stringify({ query: 42 }));
      gql(JSON.stringify({ query: `{ ${'a: agents { id } '.repeat(500)} }` }));
      gql(
        JSON.stringify({ query: `{ ${'dialogues(first: 1) { edges { node { '.repeat(40)}id${' } } }'.repeat(40)} }` }),
      );
      gql(JSON.stringify({ query: '{ dialogue(id: "nope") { id } }' }));
      gql(JSON.stringify({ query: 'mutation { issueWebToken(name: "") { token } }' }));
      gql(JSON.stringify({ query: 'mutation { issueWebToken(name: "x") { token } }' }), TEST_VIEWER_TOKEN);
      gql(JSON.stringify({ query: '{ agents { id } }' }), 'wrong-token');
      gql(JSON.stringify({ query: '{ agents { id } }' }), null);
      gql(JSON.stringify({ query: '{ __schema { types { name fields { name } } } }' }));
      gql(JSON.stringify({ query: '{ agents { id } }', variables: 'not an object' }));
      gql(
        JSON.stringify({ query: 'query($x: Int!) { dialogues(first: $x) { totalCount } }', variables: { x: 'many' } }),
      );
      gql(JSON.stringify({ query: '{ agents { id } }' }), TEST_OPS_TOKEN, 'text/plain');
      gql('x'.repeat(2_000_000));
      api('POST', '/api/conversations', '{"agentId": ');
      api('POST', '/api/conversations', JSON.stringify({ agentId: { $ne: null } }));
      api('POST', '/api/conversations', JSON.stringify({ agentId: 'agt_default', extra: true }));
      api('GET', '/api/conversations/..%2F..%2Fetc%2Fpasswd');
      api('GET', `/api/conversations/conv_${'9'.repeat(30)}`);
      api('DELETE', '/api/conversations/%00');
      api('POST', '/api/conversations/conv_x/messages', JSON.stringify({ content: ['array'] }));
      api('POST', '/api/conversations/conv_x/messages', 'x'.repeat(3_000_000));
      api('GET', '/api/conversations', undefined, 'Bearer-ish');
      api('PUT', '/api/conversations');
      api('POST', '/api/link-code', undefined, null);
      api('POST', '/api/agents/agt_default/documents?name=../../x.txt', 'hello', TEST_VIEWER_TOKEN);
      api('GET', `/api/${'deep/'.repeat(200)}`);
      api('GET', '/metrics', undefined, 'nope');
      api('GET', '/%E0%A4%A');
    }
    expect(bad.length + requests.length).toBeGreaterThanOrEqual(500);

    const answers = await Promise.all(
      requests.map(async ({ path, init }) => {
        const res = await fetch(`${base}${path}`, init);
        return { path, status: res.status, body: await res.text() };
      }),
    );
    const failures = answers.filter((a) => a.status >= 500 || stackTrace.test(a.body));
    expect(failures.map((f) => `${f.status} ${f.path} ${f.body.slice(0, 200)}`)).toEqual([]);

    const sent = await loading;
    await r.settled(sent, 60_000);
    expect(await r.problems(sent)).toEqual([]);
    expect(r.gateway.process.exitCode).toBeNull(); // still running
    expect(r.gateway.output()).not.toMatch(/uncaught|unhandled promise rejection/i);
  }, 180_000);
});
