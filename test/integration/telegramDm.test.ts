// One Telegram DM answered end to end through the real pipeline: grammY long polling against
// the fake Bot API, ingest into FerretDB/MongoDB, a BullMQ job on Redis, a streamed reply from
// the fake OpenAI server, delivery by send-then-edit, and the record read back over GraphQL.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';

const CHAT = 777001;

describe('Telegram DM, end to end', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  const turnsOf = (dialogueId: string) => h.app.store.c.turns.find({ dialogueId }).toArray();

  it('answers a DM by streaming into one Telegram message and records the whole turn', async () => {
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello', ' there,', ' Ada.', ' How can I help?'], chunkDelayMs: 120 });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, firstName: 'Ada', text: 'Hi! Can you hear me?' }));

    const dialogue = await eventually(
      async () => (await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) })) ?? undefined,
    );
    const [turn] = await eventually(
      async () => {
        const turns = await turnsOf(dialogue._id);
        return turns[0]?.status === 'responded' ? turns : undefined;
      },
      15_000,
      'turn responded',
    );

    // The record: one dialogue, one session, one responded turn with two messages.
    const messages = await h.app.store.c.messages.find({ dialogueId: dialogue._id }).sort({ createdAt: 1 }).toArray();
    expect(messages.map((m) => [m.senderRole, m.content])).toEqual([
      ['human', 'Hi! Can you hear me?'],
      ['ai', 'Hello there, Ada. How can I help?'],
    ]);
    const reply = messages[1]!;
    expect(reply.delivery?.state).toBe('complete');
    expect(reply.turnId).toBe(turn!._id);
    expect(turn!.responseTime).toBeGreaterThan(0);
    expect(turn!.outcome).toBe('complete');
    const refreshed = await h.app.store.dialogues.get(dialogue._id);
    expect(refreshed).toMatchObject({ type: 'human_ai', title: 'Hi! Can you hear me?', messageCount: 2 });
    expect(await h.app.store.c.sessions.countDocuments({ dialogueId: dialogue._id })).toBe(1);
    // The new chat's documents, created with its first message (src/ingest/founding.ts): the
    // session counts both messages and the turn, its window holds both, the person one visit.
    const session = await h.app.store.sessions.get(refreshed!.currentSessionId!);
    expect(session?.stats).toEqual({ messageCount: 2, turnCount: 1 });
    const window = await h.app.store.windows.get(session!._id);
    expect(Object.keys(window!.entries).sort()).toEqual(messages.map((m) => m._id).sort());
    expect(refreshed!.openTurnId).toBe(turn!._id);
    const person = await h.app.store.participants.getHuman(messages[0]!.senderId);
    expect(person?.visits?.[reply.senderId]).toEqual({ count: 1 });

    // The LLM saw the persona and the user's text.
    const prompt = h.llm.requests[0]!.body.messages;
    expect(prompt[0]!.role).toBe('system');
    expect(String(prompt[0]!.content)).toContain('Rainbow');
    expect(prompt.at(-1)).toMatchObject({ role: 'user', content: 'Hi! Can you hear me?' });

    // Telegram: typing, one sendMessage, then edits; what the user sees equals the stored reply.
    await h.tg.waitFor((calls) => calls.some((c) => c.method === 'sendChatAction'));
    const sends = h.tg.callsOf('sendMessage');
    const edits = h.tg.callsOf('editMessageText');
    expect(sends).toHaveLength(1);
    expect(edits.length).toBeGreaterThanOrEqual(1);
    expect(sends[0]!.at).toBeLessThan(edits[0]!.at);
    expect(String(sends[0]!.params.text).length).toBeLessThan(reply.content.length);
    expect(edits.at(-1)!.params.text).toBe(reply.content);
    expect(h.tg.sentText(CHAT)).toEqual([reply.content]);
    expect(reply.delivery?.platformMessageIds).toHaveLength(1);

    // The trace holds the context build (full prompt), the LLM call and the delivery.
    // (The post-turn memory extraction, a background task on the same turn, may follow.)
    const events = (await h.app.store.events.ofTurn(turn!._id)).filter((e) => e.data.task === undefined);
    expect(events.map((e) => e.kind)).toEqual(['context_built', 'llm_call', 'delivery']);
    expect(events[1]!.data).toMatchObject({ output: reply.content, error: null });

    // The same record over GraphQL.
    const q = await h.gql<{
      dialogue: {
        title: string;
        sessions: {
          edges: Array<{
            node: {
              turns: {
                edges: Array<{
                  node: {
                    status: string;
                    messages: {
                      edges: Array<{
                        node: { senderRole: string; content: string; delivery: { state: string } | null };
                      }>;
                    };
                  };
                }>;
              };
            };
          }>;
        };
      };
    }>(
      `query ($id: ID!) { dialogue(id: $id) { title sessions(first: 5) { edges { node {
          turns(first: 5) { edges { node { status messages(first: 10) { edges { node { senderRole content delivery { state } } } } } } }
      } } } } }`,
      { id: dialogue._id },
    );
    expect(q.body.errors).toBeUndefined();
    const gTurn = q.body.data!.dialogue.sessions.edges[0]!.node.turns.edges[0]!.node;
    expect(gTurn.status).toBe('responded');
    expect(gTurn.messages.edges.map((e) => e.node)).toEqual([
      { senderRole: 'human', content: 'Hi! Can you hear me?', delivery: null },
      { senderRole: 'ai', content: 'Hello there, Ada. How can I help?', delivery: { state: 'complete' } },
    ]);
  });

  it('streams a DM reply as a Telegram draft and then sends it once, when drafts are on', async () => {
    await h.stop();
    h = await startHarness({ TELEGRAM_DRAFTS: 'on' });
    h.llm.enqueue({ kind: 'reply', chunks: ['Drafts', ' show', ' the reply', ' as it grows.'], chunkDelayMs: 120 });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, firstName: 'Ada', text: 'show me drafts' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Drafts show the reply as it grows.'), 15_000);
    const drafts = h.tg.drafts(CHAT);
    expect(drafts.length).toBeGreaterThanOrEqual(1);
    expect(new Set(drafts.map((d) => d.draftId)).size).toBe(1); // one animated draft
    expect('Drafts show the reply as it grows.'.startsWith(drafts[0]!.text)).toBe(true);
    // The finished reply is one real message, never edited.
    expect(h.tg.callsOf('sendMessage')).toHaveLength(1);
    expect(h.tg.callsOf('editMessageText')).toHaveLength(0);
  });

  it('answers a redelivered update once', async () => {
    h.llm.enqueue({ kind: 'reply', chunks: ['Only once.'] });
    const update = privateText({ updateId: 5, chatId: CHAT, text: 'ping' });
    h.tg.pushUpdate(update);
    h.tg.pushUpdate(update);
    await eventually(async () => (await h.app.store.c.turns.findOne({ status: 'responded' })) ?? undefined, 15_000);
    // grammY asks for updates past id 5 only once it has handled both copies.
    await h.tg.waitFor((calls) => calls.some((c) => c.method === 'getUpdates' && Number(c.params.offset) > 5), 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.app.store.c.messages.countDocuments({ senderRole: 'human' })).toBe(1);
    expect(await h.app.store.c.messages.countDocuments({ senderRole: 'ai' })).toBe(1);
    expect(h.llm.requests).toHaveLength(1);
    expect(h.tg.callsOf('sendMessage')).toHaveLength(1);
  });

  it('refuses empty and oversized messages with a clear reply and no LLM call', async () => {
    // Only blanks: nothing to read, so it is "empty" for BR-001 (a location, say, is not: it reads as one).
    h.tg.pushUpdate(privateText({ updateId: 10, chatId: CHAT, firstName: 'Ada', text: ' \n ' }));
    h.tg.pushUpdate(privateText({ updateId: 11, chatId: CHAT, languageCode: 'zh-hans', text: '长'.repeat(10_001) }));
    await h.tg.waitFor((calls) => calls.filter((c) => c.method === 'sendMessage').length >= 2, 10_000);
    const notices = h.tg.callsOf('sendMessage').map((c) => String(c.params.text));
    expect(notices[0]).toMatch(/empty/i);
    expect(notices[1]).toContain('10000');
    expect(h.llm.requests).toHaveLength(0);

    const stored = await h.app.store.c.messages.find({ senderRole: 'human' }).sort({ createdAt: 1 }).toArray();
    expect(stored.map((m) => m.rejected?.code)).toEqual(['MESSAGE_CONTENT_REQUIRED', 'MESSAGE_TOO_LONG']);
    expect(stored[1]!.content).toHaveLength(10_001); // kept whole: nothing is lost
    expect(await h.app.store.c.turns.countDocuments({})).toBe(0);
    expect(await h.app.store.c.messages.countDocuments({ senderRole: 'system' })).toBe(2);

    // A valid message afterwards is answered normally.
    h.llm.enqueue({ kind: 'reply', chunks: ['Now I can read you.'] });
    h.tg.pushUpdate(privateText({ updateId: 12, chatId: CHAT, text: 'ok, short one' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Now I can read you.'), 10_000);
  });

  it('tells the user plainly when the LLM fails and records the reply as error', async () => {
    h.llm.enqueue({ kind: 'error', status: 500, message: 'upstream exploded' });
    h.tg.pushUpdate(privateText({ updateId: 20, chatId: CHAT, languageCode: 'en', text: 'are you there?' }));
    const reply = await eventually(async () => {
      const m = await h.app.store.c.messages.findOne({ senderRole: 'ai' });
      return m && m.delivery?.state !== 'streaming' ? m : undefined;
    }, 15_000);
    expect(reply.delivery?.state).toBe('error');
    expect(reply.delivery?.error?.code).toBe('LLM_SERVICE_ERROR');
    await h.tg.waitFor(() => h.tg.sentText(CHAT).some((t) => /AI service had an error/.test(t)), 10_000);
    const turn = await eventually(
      async () => (await h.app.store.c.turns.findOne({ status: 'responded' })) ?? undefined,
    );
    expect(turn.outcome).toBe('error');

    // The pipeline keeps working.
    h.llm.enqueue({ kind: 'reply', chunks: ['Back again.'] });
    h.tg.pushUpdate(privateText({ updateId: 21, chatId: CHAT, text: 'retry?' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Back again.'), 10_000);
  });

  it('rejects GraphQL requests without a valid token', async () => {
    const none = await h.gql('{ dialogues(first: 1) { edges { node { id } } } }', {}, null);
    expect(none.status).toBe(401);
    expect(none.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const wrong = await h.gql('{ dialogues(first: 1) { edges { node { id } } } }', {}, 'not-a-real-token-000000');
    expect(wrong.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const missing = await h.gql('{ dialogue(id: "dlg_nope") { id } }');
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('CONVERSATION_NOT_FOUND');
  });
});
