// The web channel (SPEC §12, seed 004) over real HTTP: every endpoint, its errors and statuses,
// the SSE events in order, abort, resume with Last-Event-ID, and a web conversation going
// through the same pipeline (record, trace, GraphQL) as Telegram's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { streamedText, webApi, type SseEvent } from '../support/webClient.js';

let h: Harness;
let token: string;
let api: ReturnType<typeof webApi>;

async function issueToken(name: string): Promise<{ id: string; token: string }> {
  const r = await h.gql<{ issueWebToken: { token: string; user: { id: string } } }>(
    'mutation($n: String!) { issueWebToken(name: $n) { token user { id } } }',
    { n: name },
  );
  const issued = r.body.data!.issueWebToken;
  return { id: issued.user.id, token: issued.token };
}

async function newConversation(): Promise<string> {
  const r = await api.createConversation();
  expect(r.status).toBe(201);
  return String(r.json!.id);
}

const names = (events: SseEvent[]) => events.map((e) => e.event);

beforeAll(async () => {
  h = await startHarness({ LLM_TIMEOUT_MS: '3000', KNOWLEDGE_MAX_BYTES: '20000' });
  ({ token } = await issueToken('Ada'));
  api = webApi(h.app.apiUrl!, token);
});
afterAll(() => h.stop());

describe('web channel: tokens and conversations', () => {
  it('refuses a missing, wrong or revoked token with 401 and a viewer’s change with 403', async () => {
    for (const t of [null, 'nope', `wus_0000.${'x'.repeat(32)}`]) {
      const r = await webApi(h.app.apiUrl!, t).list();
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) as string } });
    }
    const viewer = await webApi(h.app.apiUrl!, TEST_VIEWER_TOKEN).createConversation();
    expect(viewer.status).toBe(403);
    expect((viewer.json!.error as { code: string }).code).toBe('FORBIDDEN');

    const bob = await issueToken('Bob');
    expect((await webApi(h.app.apiUrl!, bob.token).list()).status).toBe(200);
    await h.gql('mutation($id: ID!) { revokeWebToken(id: $id) { revoked } }', { id: bob.id });
    expect((await webApi(h.app.apiUrl!, bob.token).list()).status).toBe(401);
  });

  it('creates, lists, reads and deletes a conversation; others’ and unknown ids are 404', async () => {
    const created = await api.createConversation();
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      id: expect.stringMatching(/^conv_/) as string,
      dialogueId: expect.stringMatching(/^dlg_/) as string,
      assistantId: 'agt_default',
      status: 'active',
      messageCount: 0,
    });
    const id = String(created.json!.id);
    const listed = await api.list();
    expect((listed.json!.conversations as Array<{ id: string }>).map((c) => c.id)).toContain(id);

    // An operator token works too, as its own person: Ada's conversation is not theirs.
    const op = webApi(h.app.apiUrl!, TEST_OPERATOR_TOKEN);
    expect((await op.get(id)).status).toBe(404);
    expect((await op.createConversation()).status).toBe(201);

    for (const unknown of ['conv_0000000000000000000000', 'not-an-id']) {
      const r = await api.get(unknown);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: { code: 'CONVERSATION_NOT_FOUND', message: expect.any(String) as string } });
    }
    expect((await api.send('conv_0000000000000000000000', { content: 'hi' })).status).toBe(404);
    expect((await api.createConversation({ agentId: 'agt_nobody' })).status).toBe(404);

    expect((await api.remove(id)).status).toBe(204);
    expect((await api.get(id)).status).toBe(404);
    expect((await api.remove(id)).status).toBe(404);
  });
});

describe('web channel: messages and the stream', () => {
  it('streams seed 004’s events in order and keeps the conversation like any dialogue', async () => {
    const id = await newConversation();
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello ', 'there, ', 'Ada.'], chunkDelayMs: 150 });
    const r = await api.send(id, { content: 'What is a gateway?' });
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^text\/event-stream/);
    const order = names(r.events);
    expect(order[0]).toBe('message_start');
    expect(order.at(-1)).toBe('message_complete');
    expect(order.slice(1, -1).every((n) => n === 'content_delta')).toBe(true);
    expect(order.filter((n) => n === 'content_delta').length).toBeGreaterThan(1); // streamed, not all at once
    expect(streamedText(r.events)).toBe('Hello there, Ada.');
    const messageId = String(r.events[0]!.data.messageId);
    expect(r.events.every((e) => e.id?.startsWith(`${messageId}:`))).toBe(true);
    const usage = r.events.at(-1)!.data.usage as { inputTokens: number; outputTokens: number };
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);

    // FR-006 history, FR-007 title from the first message.
    const got = await api.get(id);
    expect(got.json!.conversation).toMatchObject({ title: 'What is a gateway?' });
    const messages = got.json!.messages as Array<{ id: string; role: string; content: string; metadata: object }>;
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'What is a gateway?'],
      ['assistant', 'Hello there, Ada.'],
    ]);
    expect(messages[1]).toMatchObject({ id: messageId, metadata: { tokensUsed: usage } });
    // Every message carries the documented fields, the person's own included.
    for (const m of messages)
      expect(Object.keys(m).sort()).toEqual(
        ['content', 'conversationId', 'createdAt', 'id', 'metadata', 'role', 'state'].sort(),
      );
    expect(messages.map((m) => (m as { state?: string }).state)).toEqual(['complete', 'complete']);
    expect(messages.every((m) => (m as { conversationId?: string }).conversationId === id)).toBe(true);

    // The same record through GraphQL: a dialogue on platform web, with its turn's trace.
    const dialogueId = String(got.json!.conversation && (got.json!.conversation as { dialogueId: string }).dialogueId);
    const g = await h.gql<{ dialogue: { chat: { platform: string }; humans: Array<{ displayName: string }> } }>(
      'query($id: ID!) { dialogue(id: $id) { chat { platform } humans { displayName } } }',
      { id: dialogueId },
    );
    expect(g.body.data?.dialogue).toEqual({ chat: { platform: 'web' }, humans: [{ displayName: 'Ada' }] });
  });

  it('refuses empty, too long and malformed messages before any stream, storing nothing', async () => {
    const id = await newConversation();
    const cases: Array<[unknown, number, string]> = [
      [{ content: '' }, 400, 'MESSAGE_CONTENT_REQUIRED'],
      [{ content: '   ' }, 400, 'MESSAGE_CONTENT_REQUIRED'],
      [{}, 400, 'MESSAGE_CONTENT_REQUIRED'],
      [{ content: 'x'.repeat(10_001) }, 400, 'MESSAGE_TOO_LONG'],
      [{ content: 42 }, 400, 'BAD_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const r = await api.send(id, body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(status);
      expect((r.json!.error as { code: string }).code).toBe(code);
    }
    const bad = await api.raw('POST', `/conversations/${id}/messages`, '{"content": "unterminated');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) as string } });
    expect(JSON.stringify(bad.json)).not.toMatch(/at \w+ \(/); // no stack trace
    expect((await api.get(id)).json!.messages).toEqual([]);
  });

  it('answers a failure before any text with its status (502, 504) and the stored reply keeps it', async () => {
    const id = await newConversation();
    h.llm.enqueue({ kind: 'error', status: 400, message: 'bad request upstream' });
    const failed = await api.send(id, { content: 'first' });
    expect(failed.status).toBe(502);
    expect(failed.json).toEqual({ error: { code: 'LLM_SERVICE_ERROR', message: expect.any(String) as string } });

    h.llm.enqueue({ kind: 'hang' }); // BR-004, at this file's LLM_TIMEOUT_MS of 3 s
    const slow = await api.send(id, { content: 'second' });
    expect(slow.status).toBe(504);
    expect((slow.json!.error as { code: string }).code).toBe('GENERATION_TIMEOUT');

    const states = ((await api.get(id)).json!.messages as Array<{ role: string; state?: string }>)
      .filter((m) => m.role === 'assistant')
      .map((m) => m.state);
    expect(states).toEqual(['error', 'timeout']);
  });

  it('answers 499 GENERATION_ABORTED when the reply is stopped before its first word', async () => {
    const id = await newConversation();
    // Long enough that a loaded machine still stops it before its first word; the stop ends it at once.
    h.llm.enqueue({ kind: 'reply', chunks: ['too late'], firstByteDelayMs: 10_000 });
    const pending = api.send(id, { content: 'think hard' });
    // The model is thinking: stop it as soon as a reply is under way.
    await eventually(async () => ((await api.abort(id)).json?.aborted === true ? true : undefined), 5_000, 'abort');
    const r = await pending;
    expect(r.status).toBe(499);
    expect(r.json).toEqual({ error: { code: 'GENERATION_ABORTED', message: expect.any(String) as string } });
  });

  it('aborts mid-stream (FR-008): the stream ends with GENERATION_ABORTED and the partial reply is kept', async () => {
    const id = await newConversation();
    expect((await api.abort(id)).json).toEqual({ aborted: false }); // nothing to stop yet
    const chunks = Array.from({ length: 30 }, (_, i) => `w${i} `);
    h.llm.enqueue({ kind: 'reply', chunks, chunkDelayMs: 100 });
    let aborted: unknown;
    const r = await api.send(
      id,
      { content: 'tell me a long story' },
      {
        until: async (e, all) => {
          if (e.event === 'content_delta' && aborted === undefined) aborted = (await api.abort(id)).json;
          return all.at(-1)?.event === 'error';
        },
      },
    );
    expect(aborted).toEqual({ aborted: true });
    const last = r.events.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({ code: 'GENERATION_ABORTED' });
    const partial = streamedText(r.events);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(chunks.join('').length);
    const reply = ((await api.get(id)).json!.messages as Array<{ role: string; state?: string }>).at(-1);
    expect(reply).toMatchObject({ role: 'assistant', state: 'interrupted' });
  });

  it('resumes a dropped stream from Last-Event-ID with nothing lost or repeated; the reply completes without its client', async () => {
    const id = await newConversation();
    const chunks = Array.from({ length: 12 }, (_, i) => `part${i} `);
    h.llm.enqueue({ kind: 'reply', chunks, chunkDelayMs: 150 });
    // The client goes away after its second delta.
    const first = await api.send(
      id,
      { content: 'stream please' },
      { until: (_e, all) => all.filter((x) => x.event === 'content_delta').length === 2 },
    );
    const lastId = first.events.at(-1)!.id!;
    const resumed = await api.send(id, {}, { lastEventId: lastId });
    expect(resumed.status).toBe(200);
    expect(names(resumed.events).at(-1)).toBe('message_complete');
    expect(streamedText(first.events) + streamedText(resumed.events)).toBe(chunks.join(''));

    // A client that never comes back: the reply is stored complete all the same.
    h.llm.enqueue({ kind: 'reply', chunks: ['stored ', 'anyway'], chunkDelayMs: 200 });
    await api.send(
      id,
      { content: 'again' },
      { until: (e) => e.event === 'message_start' || e.event === 'content_delta' },
    );
    await eventually(
      async () => {
        const m = ((await api.get(id)).json!.messages as Array<{ content: string; state?: string }>).at(-1);
        return m?.state === 'complete' && m.content === 'stored anyway';
      },
      10_000,
      'the reply to complete without its client',
    );

    const bad = await api.send(id, {}, { lastEventId: 'garbage' });
    expect(bad.status).toBe(400);
    const elsewhere = await api.send(id, {}, { lastEventId: 'msg_000000000000000000000000:3' });
    expect(elsewhere.status).toBe(404);
    expect((elsewhere.json!.error as { code: string }).code).toBe('MESSAGE_NOT_FOUND');
  });

  it('answers a retried message (same clientMessageId) once, following the same reply', async () => {
    const id = await newConversation();
    const before = h.llm.requests.length;
    h.llm.enqueue({ kind: 'reply', chunks: ['only ', 'once'] });
    const a = await api.send(id, { content: 'retry me', clientMessageId: 'client-1' });
    const b = await api.send(id, { content: 'retry me', clientMessageId: 'client-1' });
    expect(streamedText(a.events)).toBe('only once');
    expect(streamedText(b.events)).toBe('only once');
    expect(b.events[0]!.data.messageId).toBe(a.events[0]!.data.messageId);
    expect(h.llm.requests.length - before).toBe(1);
    expect(((await api.get(id)).json!.messages as unknown[]).length).toBe(2);
  });
});

describe('web channel: no model configured', () => {
  it('says so plainly and names the two settings', async () => {
    const bare = await startHarness({ OPENAI_API_KEY: '', OPENAI_BASE_URL: 'https://api.openai.com/v1' });
    try {
      const issued = await bare.gql<{ issueWebToken: { token: string } }>(
        'mutation { issueWebToken(name: "Newcomer") { token } }',
      );
      const client = webApi(bare.app.apiUrl!, issued.body.data!.issueWebToken.token);
      const id = String((await client.createConversation()).json!.id);
      const r = await client.send(id, { content: 'hello?' });
      expect(r.status).toBe(503);
      const error = r.json!.error as { code: string; message: string };
      expect(error.code).toBe('MODEL_NOT_CONFIGURED');
      expect(error.message).toContain('OPENAI_API_KEY');
      expect(error.message).toContain('OPENAI_BASE_URL');
      expect(bare.llm.requests).toHaveLength(0);
    } finally {
      await bare.stop();
    }
  });
});

describe('web channel: knowledge documents and cited answers', () => {
  const upload = (token: string, agentId: string, name: string, body: string | Blob, type: string) =>
    fetch(`${h.app.apiUrl!}/api/agents/${agentId}/documents?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body,
    });
  const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  it('uploads, lists and deletes an agent’s documents; refuses other types, oversize and non-operators', async () => {
    const handbook = '# Refunds\n\nRefunds are paid within 30 days of the request.\n';
    const ok = await upload(TEST_OPERATOR_TOKEN, 'agt_default', 'handbook.md', handbook, 'text/markdown');
    expect(ok.status).toBe(201);
    const doc = (await ok.json()) as { id: string; name: string; type: string; chunkCount: number; status: string };
    expect(doc).toMatchObject({ name: 'handbook.md', type: 'markdown', status: 'ready' });
    expect(doc.chunkCount).toBeGreaterThan(0);

    expect((await upload(token, 'agt_default', 'x.md', handbook, 'text/markdown')).status).toBe(403);
    const docx = await upload(
      TEST_OPERATOR_TOKEN,
      'agt_default',
      'notes.docx',
      new Blob([new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])]),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(docx.status).toBe(415);
    expect(await errorCode(docx)).toBe('DOCUMENT_TYPE_UNSUPPORTED');
    const big = await upload(TEST_OPERATOR_TOKEN, 'agt_default', 'big.txt', 'word '.repeat(6_000), 'text/plain');
    expect(big.status).toBe(413);
    expect(await errorCode(big)).toBe('DOCUMENT_TOO_LARGE');
    const empty = await upload(TEST_OPERATOR_TOKEN, 'agt_default', 'empty.txt', '', 'text/plain');
    expect(empty.status).toBe(400);
    const nobody = await upload(TEST_OPERATOR_TOKEN, 'agt_nobody', 'a.txt', 'some text here', 'text/plain');
    expect(nobody.status).toBe(404);

    const listed = await api.raw('GET', '/agents/agt_default/documents');
    expect((listed.json!.documents as Array<{ id: string }>).map((d) => d.id)).toEqual([doc.id]);
    const removed = await fetch(`${h.app.apiUrl!}/api/documents/${doc.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
    });
    expect(removed.status).toBe(204);
    expect((await api.raw('GET', '/agents/agt_default/documents')).json!.documents).toEqual([]);

    const unknown = await api.raw('GET', '/nothing-here');
    expect(unknown.status).toBe(404);
    expect((unknown.json!.error as { code: string }).code).toBe('NOT_FOUND');
  });

  it('streams a cited answer: the invalid citation never shows, the valid one arrives as source_reference', async () => {
    const text = '# Shipping\n\nParcels to Lisbon arrive within 4 working days by courier.\n';
    expect((await upload(TEST_OPERATOR_TOKEN, 'agt_default', 'shipping.md', text, 'text/markdown')).status).toBe(201);
    const id = await newConversation();
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['Parcels to Lisbon take 4 working days [', '1]. Also [', '9].'],
      chunkDelayMs: 50,
    });
    const before = h.llm.requests.length;
    const r = await api.send(id, { content: 'How long do parcels to Lisbon take?' });
    expect(JSON.stringify(h.llm.requests[before]!.body.messages)).toContain('4 working days by courier');

    const shown = streamedText(r.events);
    expect(shown).toContain('4 working days [1]');
    expect(shown).not.toContain('9');
    expect(shown).not.toContain('shipping.md'); // sources come as events here, never as footnotes
    const sources = r.events.filter((e) => e.event === 'source_reference');
    expect(sources).toHaveLength(1);
    expect(sources[0]!.data).toMatchObject({
      documentName: 'shipping.md',
      documentId: expect.stringMatching(/^doc_/) as string,
    });
    expect(String(sources[0]!.data.content)).toContain('4 working days');
    expect(Number(sources[0]!.data.relevanceScore)).toBeGreaterThan(0);
    expect(names(r.events).slice(-2)).toEqual(['source_reference', 'message_complete']);

    // History shows what was shown, with its source; the record keeps what the model said.
    const reply = (
      (await api.get(id)).json!.messages as Array<{ id: string; content: string; metadata: { sources?: unknown[] } }>
    ).at(-1)!;
    expect(reply.content).toBe(shown);
    expect(reply.metadata.sources).toHaveLength(1);
    const stored = await h.app.store.messages.get(reply.id);
    expect(stored?.content).toContain('[9]');
  });
});
