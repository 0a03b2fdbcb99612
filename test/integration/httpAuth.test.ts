// One bearer reader for every HTTP surface (src/auth/bearer.ts): the scheme is case-insensitive
// (RFC 9110 §11.1) on /graphql, /api, /mcp, /metrics and the seat endpoints alike, and every 401
// names the scheme in `WWW-Authenticate` so a client knows what to send. /mcp refuses a browser
// origin it was not told to allow, as the MCP transport requires (DNS rebinding). Issue 35.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_OPS_TOKEN } from '../support/testEnv.js';
import { createRoom } from '../../src/rooms/createRoom.js';

const ALLOWED_ORIGIN = 'https://agents.example.com';

const MCP_INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
};

describe('bearer tokens over HTTP', () => {
  let h: Harness;
  let seatToken: string;
  beforeAll(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline', MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN });
    const at = new Date();
    await h.app.store.participants.createAgent({ _id: 'agt_auth', name: 'Auth', basePersona: 'You are Auth.' }, at);
    const room = await createRoom(
      h.app.store,
      { chat: { platform: 'telegram', chatId: '-100777' }, name: 'Auth', mode: 'default', agentIds: ['agt_auth'] },
      at,
    );
    const seat = await h.gql<{ createAgentSeat: { token: string } }>(
      'mutation($r: ID!) { createAgentSeat(roomId: $r, kind: MCP) { token } }',
      { r: room._id },
    );
    seatToken = seat.body.data!.createAgentSeat.token;
  });
  afterAll(() => h.stop());

  const base = () => h.app.apiUrl!;
  /** Each surface: how to ask it, with the token that opens it. */
  const surfaces = () => [
    {
      name: '/graphql',
      token: TEST_OPS_TOKEN,
      ask: (auth?: string) =>
        fetch(`${base()}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
          body: JSON.stringify({ query: '{ viewer { name } }' }),
        }),
    },
    {
      name: '/api',
      token: TEST_OPS_TOKEN,
      ask: (auth?: string) => fetch(`${base()}/api/conversations`, { headers: auth ? { authorization: auth } : {} }),
    },
    {
      name: '/metrics',
      token: TEST_OPS_TOKEN,
      ask: (auth?: string) => fetch(h.app.metricsUrl!, { headers: auth ? { authorization: auth } : {} }),
    },
    {
      name: '/mcp',
      token: seatToken,
      ask: (auth?: string) =>
        fetch(`${base()}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(auth ? { authorization: auth } : {}),
          },
          body: JSON.stringify(MCP_INIT),
        }),
    },
    {
      name: '/agents (seat REST)',
      token: seatToken,
      ask: (auth?: string) =>
        fetch(`${base()}/agents/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
          body: JSON.stringify({ name: 'Probe' }),
        }),
    },
  ];

  it('accept the scheme in any case, with the token it opens', async () => {
    for (const s of surfaces())
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const r = await s.ask(`${scheme} ${s.token}`);
        expect(r.status, `${s.name} with "${scheme}"`).toBeLessThan(300);
        await r.body?.cancel();
      }
  });

  it('answer 401 with WWW-Authenticate: Bearer without a token, with a wrong one, or another scheme', async () => {
    for (const s of surfaces())
      for (const auth of [undefined, 'Bearer not-a-real-token-at-all', `Basic ${s.token}`]) {
        const r = await s.ask(auth);
        expect(r.status, `${s.name} with ${auth ?? 'nothing'}`).toBe(401);
        expect(r.headers.get('www-authenticate'), `${s.name} with ${auth ?? 'nothing'}`).toBe('Bearer');
        await r.body?.cancel();
      }
  });

  it('lets the official MCP client in without an Origin or from a listed one, and refuses any other with 403', async () => {
    const connect = async (origin?: string) => {
      const client = new Client({ name: 'origin-probe', version: '1.0.0' });
      const headers: Record<string, string> = { authorization: `Bearer ${seatToken}` };
      if (origin) headers.origin = origin;
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), { requestInit: { headers } }));
      const tools = (await client.listTools()).tools.length;
      await client.close();
      return tools;
    };
    expect(await connect()).toBeGreaterThan(0);
    expect(await connect(ALLOWED_ORIGIN)).toBeGreaterThan(0);
    await expect(connect('http://evil.example.com')).rejects.toMatchObject({ code: 403 });
    // A bare request shows the refusal comes before the token is even looked at.
    const r = await fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://evil.example.com',
      },
      body: JSON.stringify(MCP_INIT),
    });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
  });
});
