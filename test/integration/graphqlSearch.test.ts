// Message search over GraphQL: Chinese and English, case-insensitive, literal special
// characters, filters and pages, the search index fed by the message repository (insert, edit,
// finished reply) and the background backfill of messages stored before the index existed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import type { Dialogue, Message } from '../../src/domain/model.js';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { inject } from 'vitest';
import { archiveOverflow } from '../../src/store/archive.js';
import { eventually, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { indexesFor } from '../../src/store/collections.js';

type Page = {
  edges: Array<{ cursor: string; node: { id: string; content: string; senderRole: string } }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
};
type R = { searchMessages: Page };

const SEARCH = `query ($text: String!, $dialogueId: ID, $role: Role, $since: DateTime, $until: DateTime, $first: Int, $after: String) {
  searchMessages(text: $text, dialogueId: $dialogueId, role: $role, since: $since, until: $until, first: $first, after: $after) {
    edges { cursor node { id content senderRole } } pageInfo { hasNextPage endCursor } } }`;

const DAY = 86_400_000;
const base = Date.now() - 10 * DAY;
const at = (minutes: number) => new Date(base + minutes * 60_000);

function message(
  id: string,
  dialogueId: string,
  minutes: number,
  content: string,
  extra: Partial<Message> = {},
): Message {
  return {
    _id: id,
    dialogueId,
    sessionId: `ses_${dialogueId}`,
    turnId: `trn_${dialogueId}`,
    senderRole: 'human',
    senderId: 'hum_s',
    contentType: 'text',
    content,
    mentions: [],
    visible: true,
    createdAt: at(minutes),
    updatedAt: at(minutes),
    ...extra,
  };
}

function dialogue(id: string, chatId: string): Dialogue {
  return {
    _id: id,
    type: 'human_ai',
    chat: { platform: 'telegram', chatId },
    humanIds: ['hum_s'],
    agentIds: ['agt_default'],
    status: 'active',
    messageCount: 0,
    lastActivityAt: at(0),
    createdAt: at(0),
    updatedAt: at(0),
  };
}

describe('GraphQL message search', () => {
  let h: Harness;
  const search = async (variables: Record<string, unknown>) => {
    const r = await h.gql<R>(SEARCH, variables);
    return r;
  };
  const ids = async (variables: Record<string, unknown>) => {
    const r = await search(variables);
    expect(r.body.errors).toBeUndefined();
    return r.body.data!.searchMessages.edges.map((e) => e.node.id);
  };

  beforeAll(async () => {
    h = await startHarness({}, ['api']);
    const { store } = h.app;
    await store.c.dialogues.insertMany([dialogue('dlg_s1', '9001'), dialogue('dlg_s2', '9002')]);
    // Written through the repository, as ingest and replies write them.
    const viaRepo: Message[] = [
      message('msg_zh', 'dlg_s1', 1, '今天说：你好世界！'),
      message('msg_en', 'dlg_s1', 2, 'Well, Hello there, friend'),
      message('msg_special', 'dlg_s1', 3, 'the pattern a.b*c( appears here'),
      message('msg_regexbait', 'dlg_s1', 4, 'but axb*c( only looks similar'),
      message('msg_ai', 'dlg_s1', 5, 'hello from the assistant', { senderRole: 'ai', senderId: 'agt_default' }),
      message('msg_other', 'dlg_s2', 6, 'HELLO in another dialogue'),
      message('msg_caption', 'dlg_s2', 7, '', { contentType: 'image', contentMeta: { caption: '一只橘猫在睡觉' } }),
      message('msg_voice', 'dlg_s2', 8, '', {
        contentType: 'audio',
        contentMeta: { transcription: 'remind me about the dentist' },
      }),
      message('msg_paren', 'dlg_s2', 9, 'smile :-( sometimes'),
    ];
    for (const m of viaRepo) await store.messages.insertOnce(m);
    // A larger record of unrelated chatter, written as the repository writes it.
    const noise = Array.from({ length: 1200 }, (_, i) =>
      message(
        `msg_noise${String(i).padStart(4, '0')}`,
        i % 2 ? 'dlg_s1' : 'dlg_s2',
        100 + i,
        i % 3 ? `随便聊聊 第${i}条 天气不错` : `just chatting, note number ${i}`,
      ),
    );
    for (let i = 0; i < noise.length; i += 50)
      await Promise.all(noise.slice(i, i + 50).map((m) => store.messages.insertOnce(m, { windowed: false })));
  });
  afterAll(async () => {
    await h.stop();
  });

  it('finds Chinese text by any inner part of it', async () => {
    expect(await ids({ text: '好世' })).toEqual(['msg_zh']);
    expect(await ids({ text: '你好世界' })).toEqual(['msg_zh']);
    expect(await ids({ text: '好界' })).toEqual([]);
  });

  it('finds English text case-insensitively, newest first, and filters by role and dialogue', async () => {
    expect(await ids({ text: 'hELLo' })).toEqual(['msg_other', 'msg_ai', 'msg_en']);
    expect(await ids({ text: 'hELLo', role: 'human' })).toEqual(['msg_other', 'msg_en']);
    expect(await ids({ text: 'hello', dialogueId: 'dlg_s1' })).toEqual(['msg_ai', 'msg_en']);
    expect(await ids({ text: 'hello', since: at(2).toISOString(), until: at(6).toISOString() })).toEqual([
      'msg_ai',
      'msg_en',
    ]);
  });

  it('matches special characters literally', async () => {
    expect(await ids({ text: 'a.b*c(' })).toEqual(['msg_special']);
    expect(await ids({ text: ':-(' })).toEqual(['msg_paren']);
    // A one-character query within a dialogue: "(" as text, not a regex group.
    expect(await ids({ text: '(', dialogueId: 'dlg_s1' })).toEqual(['msg_regexbait', 'msg_special']);
  });

  it('searches the caption and transcription of media messages', async () => {
    expect(await ids({ text: '橘猫' })).toEqual(['msg_caption']);
    expect(await ids({ text: 'DENTIST' })).toEqual(['msg_voice']);
  });

  it('pages through many results without repeating one', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const r: { body: { data?: R } } = await search({ text: 'NOTE NUMBER', dialogueId: 'dlg_s2', first: 100, after });
      const page: Page = r.body.data!.searchMessages;
      seen.push(...page.edges.map((e) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    // Even i that are multiples of 3 (i % 2 == 0 → dlg_s2, i % 3 == 0 → English): 0, 6, 12, … < 1200.
    expect(seen).toHaveLength(200);
    expect(new Set(seen).size).toBe(200);
    expect(seen[0]).toBe('msg_noise1194');
    expect(seen.at(-1)).toBe('msg_noise0000');
  });

  it('finds archived messages (BR-002) only when asked, merged in order and paged across both records', async () => {
    const { store } = h.app;
    await store.c.dialogues.insertOne(dialogue('dlg_s3', '9003'));
    // Three sessions of two lighthouse messages; the two older ones are closed.
    for (let s = 0; s < 3; s++) {
      await store.c.sessions.insertOne({
        _id: `ses_arch${s}`,
        dialogueId: 'dlg_s3',
        kind: 'dialogue',
        status: s < 2 ? 'closed' : 'open',
        startedAt: at(2000 + s * 10),
        lastActivityAt: at(2001 + s * 10),
        stats: { messageCount: 2, turnCount: 1 },
      });
      for (let m = 0; m < 2; m++) {
        await store.messages.insertOnce(
          message(`msg_arch${s}${m}`, 'dlg_s3', 2000 + s * 10 + m, `灯塔 lighthouse log ${s}.${m}`, {
            sessionId: `ses_arch${s}`,
          }),
        );
      }
    }
    // Keep at most 2 live messages: the two closed sessions leave the live record.
    const moved = await archiveOverflow(store.c, 'dlg_s3', new Date(), 2);
    expect(moved.movedMessages).toBe(4);

    expect(await ids({ text: 'LIGHTHOUSE' })).toEqual(['msg_arch21', 'msg_arch20']);
    const all = await h.gql<{ searchMessages: { edges: Array<{ node: { id: string; archivedAt: string | null } }> } }>(
      `{ searchMessages(text: "灯塔", includeArchived: true) { edges { node { id archivedAt } } } }`,
    );
    expect(all.body.errors).toBeUndefined();
    const nodes = all.body.data!.searchMessages.edges.map((e) => e.node);
    expect(nodes.map((n) => n.id)).toEqual([
      'msg_arch21',
      'msg_arch20',
      'msg_arch11',
      'msg_arch10',
      'msg_arch01',
      'msg_arch00',
    ]);
    expect(nodes.map((n) => n.archivedAt !== null)).toEqual([false, false, true, true, true, true]);

    // One at a time across both collections: every message once, in order.
    const paged: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r: { body: { data?: R } } = await h.gql<R>(
        `query ($after: String) { searchMessages(text: "lighthouse", includeArchived: true, first: 1, after: $after) { edges { cursor node { id content senderRole } } pageInfo { hasNextPage endCursor } } }`,
        { after },
      );
      const page: Page = r.body.data!.searchMessages;
      paged.push(...page.edges.map((e) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(paged).toEqual(nodes.map((n) => n.id));
  });

  it('is readable by the viewer role', async () => {
    const r = await h.gql<R>(SEARCH, { text: '好世' }, TEST_VIEWER_TOKEN);
    expect(r.body.data?.searchMessages.edges.map((e) => e.node.id)).toEqual(['msg_zh']);
  });

  it('rejects bad input with stable codes and no stack traces', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ text: 'x'.repeat(201) }, 'BAD_REQUEST', /at most 200/],
      [{ text: '   ' }, 'BAD_REQUEST', /empty/],
      [{ text: '猫' }, 'BAD_REQUEST', /one-character.*dialogueId/],
      [{ text: '猫', since: new Date(Date.now() - 60 * DAY).toISOString() }, 'BAD_REQUEST', /31 days/],
      [
        { text: 'hello', since: at(10).toISOString(), until: at(5).toISOString() },
        'BAD_REQUEST',
        /since .* must not be after until/,
      ],
      [{ text: 'hello', dialogueId: 'dlg_nope' }, 'CONVERSATION_NOT_FOUND', /dlg_nope/],
      [{ text: 'hello', first: 101 }, 'BAD_REQUEST', /between 0 and 100/],
      [{ text: 'hello', after: 'not-a-cursor' }, 'BAD_REQUEST', /malformed cursor/],
    ];
    for (const [variables, code, message] of cases) {
      const r = await search(variables);
      expect(r.body.errors?.[0]?.extensions?.code, JSON.stringify(variables).slice(0, 80)).toBe(code);
      expect(r.body.errors?.[0]?.message).toMatch(message);
      expect(JSON.stringify(r.body)).not.toMatch(/\.ts:\d+|stack/);
    }
    expect(await ids({ text: '好'.repeat(200) })).toEqual([]);
    expect(await ids({ text: '猫', since: new Date(Date.now() - 30 * DAY).toISOString() })).toEqual(['msg_caption']);
  });

  it('follows edits and finished replies (the repository rewrites the keys with the text)', async () => {
    const { store } = h.app;
    const stored = (await store.messages.get('msg_en'))!;
    expect(await store.messages.applyEdit(stored, 'Goodbye now, friend', new Date())).toBe(true);
    expect(await ids({ text: 'hello', dialogueId: 'dlg_s1' })).toEqual(['msg_ai']);
    expect(await ids({ text: 'goodBYE' })).toEqual(['msg_en']);

    const reply = message('msg_reply', 'dlg_s1', 20, '', {
      senderRole: 'ai',
      senderId: 'agt_default',
      delivery: { state: 'streaming', platformMessageIds: [] },
    });
    await store.messages.insertOnce(reply);
    await store.messages.finishReply(reply, { state: 'complete', content: '明天见，Ada!' }, new Date());
    expect(await ids({ text: '明天见' })).toEqual(['msg_reply']);
  });

  it('is served by the index of its own: no search keys on messages, no index on them', async () => {
    expect(indexesFor('messages', 'all').map((i) => i.name)).not.toContain('search');
    expect(indexesFor('archivedMessages', 'all').map((i) => i.name)).not.toContain('search');
    const stored = await h.app.store.c.messages.findOne({ _id: 'msg_zh' });
    expect(stored).not.toHaveProperty('searchKeys');
    const r = await h.gql('{ searchMessages(text: "好世") { edges { node { searchKeys } } } }');
    expect(r.body.errors?.[0]?.message).toMatch(/searchKeys/);
  });

  it('leaves deleted messages out, and orders oldest first when asked', async () => {
    const { store } = h.app;
    await store.messages.insertOnce(message('msg_gone', 'dlg_s2', 30, 'a secret to forget'));
    expect(await ids({ text: 'secret to forget' })).toEqual(['msg_gone']);
    await store.messages.markDeleted((await store.messages.get('msg_gone'))!, new Date());
    expect(await ids({ text: 'secret to forget' })).toEqual([]);
    const r = await h.gql<R>(
      `{ searchMessages(text: "hello", oldestFirst: true) { edges { cursor node { id content senderRole } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(r.body.data!.searchMessages.edges.map((e) => e.node.id)).toEqual(['msg_ai', 'msg_other']);
  });
});

// Its own database, seeded before the app starts: messages stored by a version before the
// search index (no journal entry), which the api role's indexer backfills in the background.
describe('search index backfill', () => {
  let h: Harness;
  const db = `test_sbf_${randomBytes(4).toString('hex')}`;
  const legacy = Array.from({ length: 120 }, (_, i) =>
    message(`msg_legacy${String(i).padStart(3, '0')}`, 'dlg_s2', 5000 + i, `旧消息 legacy record ${i}`),
  );
  beforeAll(async () => {
    const client = await MongoClient.connect(inject('mongoUri'));
    const c = client.db(db);
    await c.collection<Dialogue>('dialogues').insertOne(dialogue('dlg_s2', '9002'));
    // What an earlier version wrote: search keys on the message itself.
    await c.collection<Message>('messages').insertMany(legacy.map((m) => ({ ...m, searchKeys: ['旧消'] })));
    await c.collection<Message & { archivedAt: Date }>('archivedMessages').insertMany(
      [0, 1, 2].map((i) => ({
        ...message(`msg_oldarch${i}`, 'dlg_s2', 4000 + i, `旧档案 archived legacy ${i}`),
        archivedAt: at(4500),
      })),
    );
    await client.close();
    h = await startHarness({ MONGODB_DB: db }, ['api']);
  });
  afterAll(async () => {
    await h.stop();
  });
  const ids = async (variables: Record<string, unknown>) => {
    const r = await h.gql<R>(SEARCH, variables);
    expect(r.body.errors).toBeUndefined();
    return r.body.data!.searchMessages.edges.map((e) => e.node.id);
  };

  it('finds messages stored before the index once the backfill ran, and new ones at once', async () => {
    const { store } = h.app;
    await store.messages.insertOnce(message('msg_new', 'dlg_s2', 6000, 'a new legacy record, journaled on insert'));
    expect(await ids({ text: 'new legacy' })).toEqual(['msg_new']);
    await eventually(
      async () => (await store.searchState.read(Date.now())).backfill.phase === 'done',
      30_000,
      'search index backfill done',
    );
    // The 123 stored before, and msg_new when the walk passed it after its insert.
    expect((await store.searchState.read(Date.now())).backfill.folded).toBeGreaterThanOrEqual(123);
    const archived = await h.gql<R & { searchMessages: { indexComplete: boolean } }>(
      `{ searchMessages(text: "旧档案", includeArchived: true) { indexComplete edges { node { id content senderRole } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(archived.body.data!.searchMessages.indexComplete).toBe(true);
    expect(archived.body.data!.searchMessages.edges.map((e) => e.node.id)).toEqual([
      'msg_oldarch2',
      'msg_oldarch1',
      'msg_oldarch0',
    ]);
    const found = await ids({ text: '旧消息', first: 100 });
    expect(found).toHaveLength(100);
    expect(found[0]).toBe('msg_legacy119');
    expect(await ids({ text: 'record 7', dialogueId: 'dlg_s2' })).toEqual([
      'msg_legacy079',
      'msg_legacy078',
      'msg_legacy077',
      'msg_legacy076',
      'msg_legacy075',
      'msg_legacy074',
      'msg_legacy073',
      'msg_legacy072',
      'msg_legacy071',
      'msg_legacy070',
      'msg_legacy007',
    ]);
    // Every write of the backfill and the indexer went to a document by `_id`: the postings.
    expect(await store.c.searchPostings.countDocuments({})).toBeGreaterThan(0);
  });
});
