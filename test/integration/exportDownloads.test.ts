// Exports as downloads: exportDialogue, exportRoom (GraphQL over HTTP) and MCP's
// export_chat_history hand out a signed, expiring link; GET /exports/<token> on the API's own
// HTTP server sends the same bytes as the inline content (Markdown and PDF), a room's without
// its invisible skips; a tampered link is 403, an expired one 410, a deleted dialogue's 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN } from '../support/testEnv.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import { signExportLink } from '../../src/export/downloadLink.js';
import type { Agent, Dialogue, Human, Message, Session } from '../../src/domain/model.js';
import type { Room, RoomRound } from '../../src/domain/room.js';

const SECRET = 'export-link-secret-for-tests-0123456789';
const KEY = Buffer.from(SECRET, 'utf8');
const T0 = Date.UTC(2026, 3, 1, 9, 0, 0);
const at = (min: number) => new Date(T0 + min * 60_000);
const ZH = '我养了一只叫麻薯的猫，她喜欢睡在我的键盘上。';
const ZH_REPLY = '麻薯听起来是一只很有个性的猫！';
const GROUP = PLACES.group.chatId;

interface Exported {
  fileName: string;
  mimeType: string;
  format: string;
  content: string;
  byteLength: number;
  downloadUrl: string;
  expiresAt: string;
}
const FIELDS = 'fileName mimeType format content byteLength downloadUrl expiresAt';
const EXPORT = `mutation ($id: ID!, $format: ExportFormat!) { exportDialogue(dialogueId: $id, format: $format) { ${FIELDS} } }`;
const EXPORT_ROOM = `mutation ($id: ID!, $format: ExportFormat!) { exportRoom(id: $id, format: $format) { ${FIELDS} } }`;

/** What the link serves: status, headers and the raw bytes (or the JSON error). */
async function download(url: string) {
  const r = await fetch(url);
  const bytes = Buffer.from(await r.arrayBuffer());
  const json = r.headers.get('content-type')?.startsWith('application/json')
    ? (JSON.parse(bytes.toString('utf8')) as { error: { code: string; message: string } })
    : undefined;
  return { status: r.status, headers: r.headers, bytes, json };
}

const inlineBytes = (e: Exported) => Buffer.from(e.content, e.format === 'PDF' ? 'base64' : 'utf8');

describe('export download links', () => {
  let h: Harness;
  const agents = { aria: 'agt_aria', bo: 'agt_bo', cy: 'agt_cy' };

  beforeAll(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline', EXPORT_LINK_SECRET: SECRET, DISPLAY_TIMEZONE: 'Asia/Shanghai' });
    const { c } = h.app.store;
    await c.humans.insertOne({
      _id: 'hum_mia',
      identities: [{ platform: 'telegram', userId: '42' }],
      displayName: 'Mia',
      createdAt: at(0),
      updatedAt: at(0),
    } satisfies Human);
    await c.agents.insertOne({
      _id: 'agt_rainbow',
      name: 'Rainbow',
      basePersona: 'kind',
      isDefault: false,
      createdAt: at(0),
      updatedAt: at(0),
    } satisfies Agent);
    for (const id of ['dlg_dl', 'dlg_gone'])
      await c.dialogues.insertOne({
        _id: id,
        type: 'human_ai',
        chat: { platform: 'telegram', chatId: id === 'dlg_dl' ? '42' : '43' },
        humanIds: ['hum_mia'],
        agentIds: ['agt_rainbow'],
        title: '麻薯 the cat',
        status: 'active',
        messageCount: 2,
        currentSessionId: `ses_${id}`,
        lastActivityAt: at(2),
        createdAt: at(0),
        updatedAt: at(2),
      } satisfies Dialogue);
    for (const id of ['dlg_dl', 'dlg_gone']) {
      await c.sessions.insertOne({
        _id: `ses_${id}`,
        dialogueId: id,
        kind: 'dialogue',
        status: 'open',
        startedAt: at(0),
        lastActivityAt: at(2),
        stats: { messageCount: 2, turnCount: 1 },
      } satisfies Session);
      const base = {
        dialogueId: id,
        sessionId: `ses_${id}`,
        contentType: 'text' as const,
        mentions: [],
        visible: true,
      };
      await c.messages.insertMany([
        {
          ...base,
          _id: `msg_${id}_1`,
          senderRole: 'human',
          senderId: 'hum_mia',
          content: ZH,
          createdAt: at(1),
          updatedAt: at(1),
        },
        {
          ...base,
          _id: `msg_${id}_2`,
          senderRole: 'ai',
          senderId: 'agt_rainbow',
          content: ZH_REPLY,
          delivery: { state: 'complete', platformMessageIds: ['2'] },
          createdAt: at(2),
          updatedAt: at(2),
        },
      ] satisfies Message[]);
    }
    const now = new Date();
    for (const [key, name] of [
      ['aria', 'Aria'],
      ['bo', 'Bo'],
      ['cy', 'Cy'],
    ] as const)
      await h.app.store.participants.createAgent(
        { _id: agents[key], name, basePersona: `You are ${name}, one of three friends in a hiking group.` },
        now,
      );
  }, 60_000);
  afterAll(() => h.stop());

  const exportDialogue = async (id: string, format: 'MARKDOWN' | 'PDF') => {
    const r = await h.gql<{ exportDialogue: Exported }>(EXPORT, { id, format }, TEST_OPERATOR_TOKEN);
    expect(r.body.errors).toBeUndefined();
    return r.body.data!.exportDialogue;
  };

  it('a Markdown export downloads as the same bytes, as an attachment, for the TTL', async () => {
    const before = Date.now();
    const e = await exportDialogue('dlg_dl', 'MARKDOWN');
    // The link points at the API as this request reached it.
    expect(new URL(e.downloadUrl).origin).toBe(new URL(h.app.apiUrl!).origin);
    expect(new URL(e.downloadUrl).pathname).toMatch(/^\/exports\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(e.expiresAt) - before;
    expect(ttl).toBeGreaterThan(899_000);
    expect(ttl).toBeLessThanOrEqual(900_000 + 5_000);

    const got = await download(e.downloadUrl);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="${e.fileName}"; filename*=UTF-8''${e.fileName}`,
    );
    expect(got.headers.get('cache-control')).toBe('private, no-store');
    expect(got.bytes.equals(inlineBytes(e))).toBe(true);
    expect(got.bytes.toString('utf8')).toContain(ZH);
    // Fetched again, it is still the same file: rendered at the export's own time.
    expect((await download(e.downloadUrl)).bytes.equals(got.bytes)).toBe(true);
  });

  it('a PDF export downloads as the same bytes', async () => {
    const e = await exportDialogue('dlg_dl', 'PDF');
    const got = await download(e.downloadUrl);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; .*filename\*=UTF-8''dialogue-dlg_dl-.*\.pdf$/);
    expect(got.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(got.bytes.length).toBe(e.byteLength);
    expect(got.bytes.equals(inlineBytes(e))).toBe(true);
  });

  it('a tampered or foreign link is 403 EXPORT_LINK_INVALID; an expired one 410 EXPORT_LINK_EXPIRED', async () => {
    const e = await exportDialogue('dlg_dl', 'MARKDOWN');
    const url = new URL(e.downloadUrl);
    const [payload, sig] = url.pathname.slice('/exports/'.length).split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const other = Buffer.from(JSON.stringify({ ...claims, dialogueId: 'dlg_gone' })).toString('base64url');
    const flipped = sig.slice(0, 5) + (sig[5] === 'A' ? 'B' : 'A') + sig.slice(6);
    for (const token of [`${other}.${sig}`, `${payload}.${flipped}`, payload, `${payload}.`, 'nonsense']) {
      const got = await download(`${url.origin}/exports/${token}`);
      expect(got.status, token).toBe(403);
      expect(got.json?.error.code, token).toBe('EXPORT_LINK_INVALID');
      expect(got.bytes.toString('utf8')).not.toContain(ZH);
    }
    const foreign = signExportLink(
      {
        dialogueId: 'dlg_dl',
        format: 'markdown',
        visibleOnly: false,
        exportedAt: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      },
      Buffer.from('another-deployments-secret-0123456789'),
    );
    expect((await download(`${url.origin}/exports/${foreign}`)).json?.error.code).toBe('EXPORT_LINK_INVALID');

    // Signed with this deployment's key, its time up a moment ago.
    const expired = signExportLink(
      {
        dialogueId: 'dlg_dl',
        format: 'markdown',
        visibleOnly: false,
        exportedAt: new Date(Date.now() - 901_000),
        expiresAt: new Date(Date.now() - 1_000),
      },
      KEY,
    );
    const gone = await download(`${url.origin}/exports/${expired}`);
    expect(gone.status).toBe(410);
    expect(gone.json?.error.code).toBe('EXPORT_LINK_EXPIRED');
    expect(gone.bytes.toString('utf8')).not.toContain(ZH);
  });

  it("a deleted dialogue's link is 404", async () => {
    const e = await exportDialogue('dlg_gone', 'MARKDOWN');
    expect((await download(e.downloadUrl)).status).toBe(200);
    const del = await h.gql('mutation { deleteDialogue(id: "dlg_gone") { found } }');
    expect(del.body.errors).toBeUndefined();
    const got = await download(e.downloadUrl);
    expect(got.status).toBe(404);
    expect(got.json?.error.code).toBe('CONVERSATION_NOT_FOUND');
  });

  it("a room's export downloads without its invisible skip, over GraphQL and MCP", async () => {
    const room: Room = await createRoom(
      h.app.store,
      {
        chat: { platform: 'telegram', chatId: String(GROUP) },
        name: 'Hikers',
        mode: 'default',
        agentIds: [agents.aria, agents.bo, agents.cy],
      },
      new Date(),
    );
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria here: ', 'the ridge trail!'] },
      { kind: 'tool_calls', calls: [{ name: 'skip_response', arguments: '{"reason":"nothing to add"}' }] },
      { kind: 'reply', chunks: ['Cy agrees with Aria.'] },
    );
    h.tg.pushUpdate(
      textUpdate({ updateId: 70_001, place: PLACES.group, userId: 4242, firstName: 'Lin', text: 'Where to hike?' }),
    );
    const round = await eventually(
      async () => {
        const r: RoomRound | null = await h.app.store.rooms.getRound(`${room._id}.r1`);
        return r?.completed ? r : undefined;
      },
      20_000,
      'the round to complete',
    );
    expect(round.skips).toMatchObject([{ agentId: agents.bo }]);
    await eventually(() => Promise.resolve(h.tg.sentText(GROUP).length >= 2 || undefined), 5_000, 'two answers');
    // The record holds Bo's invisible skip (the dialogue's full export shows it); the room's does not.
    const BO_SPOKE = '**Bo (AI) ·';
    const full = await exportDialogue(room.dialogueId, 'MARKDOWN');
    expect(full.content).toContain(BO_SPOKE);

    const r = await h.gql<{ exportRoom: Exported }>(EXPORT_ROOM, { id: room._id, format: 'MARKDOWN' });
    expect(r.body.errors).toBeUndefined();
    const e = r.body.data!.exportRoom;
    const got = await download(e.downloadUrl);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(inlineBytes(e))).toBe(true);
    const md = got.bytes.toString('utf8');
    expect(md).toContain('the ridge trail!');
    expect(md).toContain('Cy agrees with Aria.');
    expect(md).not.toContain(BO_SPOKE);
    expect(md).not.toContain('[skipped');

    // An external agent's export_chat_history carries the link too.
    const seat = await h.gql<{ createAgentSeat: { token: string } }>(
      'mutation($r: ID!) { createAgentSeat(roomId: $r, kind: MCP) { token } }',
      { r: room._id },
    );
    expect(seat.body.errors).toBeUndefined();
    const client = new Client({ name: 'ide-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.app.apiUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${seat.body.data!.createAgentSeat.token}` } },
      }),
    );
    const out = (await client.callTool({ name: 'export_chat_history', arguments: { format: 'pdf' } })) as {
      content: Array<{ text: string }>;
    };
    await client.close();
    const mcp = JSON.parse(out.content[0]!.text) as { content: string; downloadUrl: string; expiresAt: string };
    expect(new URL(mcp.downloadUrl).origin).toBe(new URL(h.app.apiUrl!).origin);
    expect(Date.parse(mcp.expiresAt)).toBeGreaterThan(Date.now());
    const pdf = await download(mcp.downloadUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.bytes.equals(Buffer.from(mcp.content, 'base64'))).toBe(true);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.bytes)), { mergePages: true });
    expect(text).toContain('Cy agrees with Aria.');
    expect(text).not.toContain('Bo (AI) ·');
  }, 60_000);
});
