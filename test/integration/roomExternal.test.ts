// External agents in a room (SPEC §8): an IDE-style agent driven by the official MCP client SDK
// over Streamable HTTP joins with its seat token, waits for its turn, reads the context,
// answers, is refused a skip when @mentioned and out-of-turn sends, and skips when it may; a
// webhook agent is POSTed a signed agent_turn and answers over REST. The same rules as for the
// room's internal agents.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import type { Room, RoomRound } from '../../src/domain/room.js';
import { SIGNATURE_HEADER, verifySignature, type AgentTurnEvent } from '../../src/rooms/agentTurnEvent.js';

const GROUP = PLACES.group.chatId;

interface ToolOut {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}
const parsed = (r: unknown): Record<string, unknown> =>
  JSON.parse((r as ToolOut).content[0]!.text) as Record<string, unknown>;
const errorCode = (r: unknown): string | undefined =>
  (r as ToolOut).isError ? (parsed(r).error as { code: string }).code : undefined;

describe('rooms: external agents', () => {
  let h: Harness;
  let room: Room;
  let update = 0;
  beforeEach(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline' });
    const at = new Date();
    await h.app.store.participants.createAgent({ _id: 'agt_aria', name: 'Aria', basePersona: 'You are Aria.' }, at);
    await h.app.store.participants.createAgent({ _id: 'agt_bo', name: 'Bo', basePersona: 'You are Bo.' }, at);
    room = await createRoom(
      h.app.store,
      {
        chat: { platform: 'telegram', chatId: String(GROUP) },
        name: 'Mixed',
        mode: 'default',
        agentIds: ['agt_aria', 'agt_bo'],
        password: 'hike2026',
      },
      at,
    );
  });
  afterEach(() => h.stop());

  const say = (text: string) => {
    update += 1;
    h.tg.pushUpdate(
      textUpdate({ updateId: 40_000 + update, place: PLACES.group, userId: 4242, firstName: 'Lin', text }),
    );
  };
  const roundDone = (seq: number): Promise<RoomRound> =>
    eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${room._id}.r${seq}`);
        return r?.completed ? r : undefined;
      },
      30_000,
      `round ${seq}`,
    );
  const seat = async (kind: 'MCP' | 'WEBHOOK', webhookUrl?: string) => {
    const r = await h.gql<{ createAgentSeat: { seatId: string; token: string; signingKey: string | null } }>(
      'mutation($r: ID!, $k: SeatKind!, $u: String) { createAgentSeat(roomId: $r, kind: $k, webhookUrl: $u) { seatId token signingKey } }',
      { r: room._id, k: kind, u: webhookUrl ?? null },
    );
    expect(r.body.errors).toBeUndefined();
    return r.body.data!.createAgentSeat;
  };

  it('an MCP agent joins, waits for its turn, reads the room, answers, and obeys the skip rules', async () => {
    const { token } = await seat('MCP');
    // No token, no entry.
    const anonymous = await fetch(`${h.app.apiUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);

    const client = new Client({ name: 'ide-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.app.apiUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual([
      'export_chat_history',
      'get_context',
      'get_full_message',
      'register_agent',
      'search_messages',
      'send_message',
      'skip_response',
      'wait_for_turn',
    ]);
    const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

    expect(errorCode(await call('register_agent', { name: 'Ext', password: 'wrong' }))).toBe('FORBIDDEN');
    const reg = parsed(
      await call('register_agent', {
        name: 'Ext',
        introduction: 'An IDE agent',
        capabilities: ['code review', '翻译'],
        password: 'hike2026',
      }),
    );
    const extId = String(reg.agentId);
    // What it said it can do is kept: the room sees it, and so does an operator.
    const members = parsed(await call('get_context')).members as Array<{ id: string; capabilities: string[] }>;
    expect(members.find((m) => m.id === extId)?.capabilities).toEqual(['code review', '翻译']);
    expect(members.find((m) => m.id === 'agt_aria')?.capabilities).toEqual([]);
    const op = await h.gql<{ agent: { capabilities: string[] } }>(
      'query($id: ID!) { agent(id: $id) { capabilities } }',
      {
        id: extId,
      },
    );
    expect(op.body.data?.agent.capabilities).toEqual(['code review', '翻译']);
    expect((await h.app.store.rooms.get(room._id))?.members.map((m) => m.id)).toEqual(['agt_aria', 'agt_bo', extId]);
    expect(errorCode(await call('send_message', { text: 'me first!' }))).toBe('NOT_YOUR_TURN');

    // Round 1: Aria and Bo answer through the model, then the external agent is asked.
    h.llm.enqueue({ kind: 'reply', chunks: ['Aria: lake.'] }, { kind: 'reply', chunks: ['Bo: ridge.'] });
    say('Lake or ridge?');
    const turn = parsed(await call('wait_for_turn', { timeoutSeconds: 20 }));
    expect(turn).toMatchObject({ asked: true, canSkip: true });
    const ctx = parsed(await call('get_context'));
    expect((ctx.messages as Array<{ text: string; from: string }>).map((m) => [m.from, m.text])).toEqual([
      ['Lin', 'Lake or ridge?'],
      ['Aria', 'Aria: lake.'],
      ['Bo', 'Bo: ridge.'],
    ]);
    const sent = parsed(await call('send_message', { text: 'Both, in one day.' }));
    const first = await roundDone(1);
    expect(first.answers.map((a) => a.agentId)).toEqual(['agt_aria', 'agt_bo', extId]);
    expect(first.answers.at(-1)!.messageId).toBe(sent.messageId);
    expect(h.tg.sentText(GROUP).at(-1)).toBe('Ext: Both, in one day.');
    const full = parsed(await call('get_full_message', { messageId: String(sent.messageId) }));
    expect(full.text).toBe('Both, in one day.');
    const found = parsed(await call('search_messages', { query: 'ridge' }));
    // Seed 002: in the order they were said.
    expect((found.matches as Array<{ text: string }>).map((m) => m.text)).toEqual(['Lake or ridge?', 'Bo: ridge.']);

    // Round 2: @mentioned, it is asked first and may not skip.
    say('@Ext how long is that?');
    expect(parsed(await call('wait_for_turn', { timeoutSeconds: 20 }))).toMatchObject({ asked: true, canSkip: false });
    expect(errorCode(await call('skip_response'))).toBe('SKIP_NOT_ALLOWED');
    await call('send_message', { text: 'About six hours.' });
    expect((await roundDone(2)).endedBy).toBe('mention_answered');

    // Round 3: asked last, it may pass; the skip is stored invisible and shown nowhere.
    h.llm.enqueue({ kind: 'reply', chunks: ['Aria: ok.'] }, { kind: 'reply', chunks: ['Bo: ok.'] });
    say('Great, thanks all.');
    expect(parsed(await call('wait_for_turn', { timeoutSeconds: 20 }))).toMatchObject({ asked: true, canSkip: true });
    expect(parsed(await call('skip_response', { reason: 'nothing to add' }))).toEqual({ skipped: true });
    const third = await roundDone(3);
    expect(third.skips).toMatchObject([{ agentId: extId, reason: 'chose' }]);
    expect(h.tg.sentText(GROUP).filter((t) => t.startsWith('Ext:'))).toHaveLength(2);
    const exported = parsed(await call('export_chat_history', { format: 'markdown' }));
    expect(String(exported.content)).toContain('About six hours.');
    await client.close();
  }, 90_000);

  it('an announcement reaches the chat and the agents; a removed member is refused, and skipped if asked', async () => {
    const { token } = await seat('MCP');
    const client = new Client({ name: 'ide-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.app.apiUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
    const extId = String(parsed(await call('register_agent', { name: 'Ext', password: 'hike2026' })).agentId);
    const ann = await h.gql(
      'mutation($r: ID!) { postRoomAnnouncement(id: $r, text: "Meet at 8, north gate.") { id } }',
      {
        r: room._id,
      },
    );
    expect(ann.body.errors).toBeUndefined();
    expect(h.tg.sentText(GROUP)).toContain('Meet at 8, north gate.');
    expect(parsed(await call('get_context')).announcement).toBe('Meet at 8, north gate.');

    // Asked third; Aria and Bo answer, then the operator removes the external agent while it is asked.
    h.llm.enqueue({ kind: 'reply', chunks: ['Aria: ok'] }, { kind: 'reply', chunks: ['Bo: ok'] });
    say('See you there?');
    expect(parsed(await call('wait_for_turn', { timeoutSeconds: 20 }))).toMatchObject({ asked: true });
    // Each built-in agent knows its room: the announcement and who is in it, itself marked.
    for (const [i, self] of ['Aria', 'Bo'].entries()) {
      const system = String(h.llm.requests.at(i - 2)!.body.messages[0]!.content);
      expect(system).toContain('[This room]');
      expect(system).toContain('Announcement: Meet at 8, north gate.');
      expect(system).toContain(`- ${self} (you)`);
      expect(system).toContain('- Ext (an AI)');
    }
    const removed = await h.gql('mutation($r: ID!, $m: ID!) { removeRoomMember(id: $r, memberId: $m) { id } }', {
      r: room._id,
      m: extId,
    });
    expect(removed.body.errors).toBeUndefined();
    const round = await roundDone(1);
    expect(round.skips).toMatchObject([{ agentId: extId, reason: 'left' }]);
    expect(errorCode(await call('send_message', { text: 'wait for me' }))).toBe('NOT_A_MEMBER');
    const unknown = await h.gql('mutation($r: ID!) { removeRoomMember(id: $r, memberId: "agt_nobody") { id } }', {
      r: room._id,
    });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_A_MEMBER');
    await client.close();
  }, 60_000);

  describe('a webhook agent', () => {
    let server: Server;
    const events: Array<{ body: string; signature: string }> = [];
    beforeEach(async () => {
      server = createServer((req: IncomingMessage, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          events.push({ body, signature: String(req.headers[SIGNATURE_HEADER] ?? '') });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    });
    afterEach(() => new Promise<void>((r) => server.close(() => r())));

    it('is POSTed a signed agent_turn when asked, answers over REST; forgeries and strangers are refused', async () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const { token, signingKey } = await seat('WEBHOOK', url);
      const rest = (path: string, body?: unknown, bearer: string | null = token) =>
        fetch(`${h.app.apiUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
          body: JSON.stringify(body ?? {}),
        });
      const reg = (await (await rest('/agents/register', { name: 'Hooky', password: 'hike2026' })).json()) as {
        agentId: string;
      };
      h.llm.enqueue({ kind: 'reply', chunks: ['Aria: sure.'] }, { kind: 'reply', chunks: ['Bo: sure.'] });
      say('Who is coming?');
      const event = await eventually(() => Promise.resolve(events[0]), 20_000, 'the agent_turn event');
      const parsedEvent = JSON.parse(event.body) as AgentTurnEvent;
      expect(parsedEvent).toMatchObject({ type: 'agent_turn', agentId: reg.agentId, roomId: room._id, canSkip: true });
      const now = Math.floor(Date.now() / 1000);
      expect(verifySignature(event.body, event.signature, signingKey!, now)).toBe(true);
      // A forged event (another key, or an altered body) does not verify.
      expect(verifySignature(event.body, event.signature, 'not-the-key', now)).toBe(false);
      expect(verifySignature(event.body.replace('true', 'false'), event.signature, signingKey!, now)).toBe(false);

      expect((await rest('/agents/send_message', { text: 'me!' }, `${token.split('.')[0]}.forged`)).status).toBe(401);
      expect((await rest('/agents/send_message', { text: 'me!' }, null)).status).toBe(401);
      expect((await rest('/agents/send_message', { text: '' })).status).toBe(400);
      const ok = await rest('/agents/send_message', { text: 'I am coming too.' });
      expect(ok.status).toBe(200);
      const round = await roundDone(1);
      expect(round.answers.map((a) => a.agentId)).toEqual(['agt_aria', 'agt_bo', reg.agentId]);
      const late = await rest('/agents/send_message', { text: 'again!' });
      expect(late.status).toBe(409);
      expect(((await late.json()) as { error: { code: string } }).error.code).toBe('NOT_YOUR_TURN');
    }, 60_000);
  });
});
