// The message search index against a brute-force scan: a corpus of Chinese and English
// messages over several dialogues, senders and days — some stored before the index (found by
// its backfill), some edited, deleted, invisible or archived — and many queries, with filters
// and in both orders, must return exactly what the old regex over every message returns. Also:
// a message is found as soon as it is stored (before the indexer folds it), and bad input.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Collection } from 'mongodb';
import { dropSearchFormat1 } from '../../src/store/searchFormat1.js';
import type { Filter } from 'mongodb';
import { Store } from '../../src/store/store.js';
import type { ArchivedMessage, Message } from '../../src/domain/model.js';
import { escapeRegex } from '../../src/search/searchKeys.js';
import { planMessageSearch, type MessageSearchInput } from '../../src/search/messageSearch.js';
import { searchMessages } from '../../src/store/indexSearch.js';
import { indexUntilCaughtUp } from '../../src/store/searchIndexer.js';
import { JOURNAL_SLOT_MS, slotOf } from '../../src/store/searchJournal.js';
import { GatewayError } from '../../src/errors.js';
import { watchCommands, withCommandMonitoring } from '../support/commandWatch.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { searchMessagesTool } from '../../src/tools/builtins/searchMessages.js';

const DAY = 86_400_000;
const base = Date.UTC(2026, 0, 1);

const ZH = [
  '今天天气不错',
  '我们去看电影吧',
  '你好世界',
  '橘猫在睡觉',
  '明天见',
  '这个问题很难',
  '灯塔的光',
  '好的没问题',
];
const EN = [
  'Hello there',
  'the weather is nice',
  'see you tomorrow',
  'a.b*c( literal',
  'Lighthouse log',
  'HELLO again',
  'cat (sleeping)',
  'note number',
];

/** A small deterministic generator, so a failure repeats. */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

function corpus(n: number): Message[] {
  const r = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const zh = r() < 0.5;
    const content = zh ? `${pick(ZH)}，${pick(ZH)}` : `${pick(EN)}, ${pick(EN)} #${i}`;
    // Several messages share a millisecond: the order's tie-break is the id.
    const at = new Date(base + Math.floor(r() * 40) * DAY + Math.floor(r() * 5) * 1000);
    const dialogueId = `dlg_${i % 4}`;
    const media = i % 17 === 0;
    return {
      _id: `msg_${String(i).padStart(4, '0')}`,
      dialogueId,
      sessionId: `ses_${dialogueId}`,
      turnId: `trn_${i}`,
      senderRole: (['human', 'ai', 'system'] as const)[i % 3]!,
      senderId: i % 3 === 0 ? 'hum_1' : 'agt_1',
      contentType: media ? 'image' : 'text',
      content: media ? '' : content,
      ...(media ? { contentMeta: i % 2 ? { caption: content } : { transcription: content } } : {}),
      mentions: [],
      visible: i % 23 !== 0,
      createdAt: at,
      updatedAt: at,
    };
  });
}

/** The old semantics: an escaped case-insensitive regex over every stored message. */
async function bruteForce(store: Store, input: MessageSearchInput): Promise<string[]> {
  const regex = { $regex: escapeRegex(input.text.trim()), $options: 'i' };
  const filter: Filter<Message> = {
    $or: [{ content: regex }, { 'contentMeta.caption': regex }, { 'contentMeta.transcription': regex }],
    deleted: { $exists: false },
    ...(input.dialogueId ? { dialogueId: input.dialogueId } : {}),
    ...(input.role ? { senderRole: input.role } : {}),
    ...(input.visibleOnly ? { visible: true } : {}),
    ...(input.since || input.until
      ? {
          createdAt: {
            ...(input.since ? { $gte: input.since } : {}),
            ...(input.until ? { $lt: input.until } : {}),
          },
        }
      : {}),
  };
  const live = await store.c.messages.find(filter).toArray();
  const archived = input.includeArchived
    ? await (store.c.archivedMessages as unknown as Store['c']['messages']).find(filter).toArray()
    : [];
  const byId = new Map<string, Message>([...archived, ...live].map((m) => [m._id, m]));
  const sorted = [...byId.values()].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0),
  );
  if ((input.order ?? 'newest') === 'newest') sorted.reverse();
  return sorted.map((m) => m._id);
}

async function indexed(store: Store, input: MessageSearchInput, limit = 1000): Promise<string[]> {
  const page = await searchMessages(store, planMessageSearch(input, new Date()), { limit });
  return page.messages.map((m) => m._id);
}

/** Until the journal's current slot is over, so a fold takes everything written so far. */
async function nextSlot(): Promise<void> {
  const slot = slotOf(Date.now());
  while (slotOf(Date.now()) === slot) await new Promise((r) => setTimeout(r, 100));
}

describe('message search index', () => {
  let store: Store;
  const all = corpus(600);

  beforeAll(async () => {
    store = await Store.connect(
      withCommandMonitoring(inject('mongoUri')),
      `test_sidx_${randomBytes(4).toString('hex')}`,
    );
    // Stored before the index existed (no journal entry): only the backfill finds these.
    await store.c.messages.insertMany(all.slice(0, 200));
    await store.c.archivedMessages.insertMany(
      all.slice(200, 240).map((m): ArchivedMessage => ({ ...m, archivedAt: new Date(base + 50 * DAY) })),
    );
    // Written by the repository, as ingest and replies write them.
    for (let i = 240; i < all.length; i += 40)
      await Promise.all(all.slice(i, i + 40).map((m) => store.messages.insertOnce(m, { windowed: false })));
    await nextSlot();
    await indexUntilCaughtUp(store);
    expect((await store.searchState.read(Date.now())).backfill.phase).toBe('done');
    // After the fold: edits (the old terms stay as false candidates), deletes, an archived move.
    const now = new Date();
    for (const id of ['msg_0003', 'msg_0250', 'msg_0301'])
      await store.messages.applyEdit((await store.messages.get(id))!, `改过了 rewritten text ${id}`, now);
    for (const id of ['msg_0010', 'msg_0260', 'msg_0302', 'msg_0400'])
      await store.messages.markDeleted((await store.messages.get(id))!, now);
    const moved = (await store.messages.get('msg_0500'))!;
    await store.c.archivedMessages.insertOne({ ...moved, archivedAt: now });
    await store.c.messages.deleteOne({ _id: moved._id });
  }, 120_000);
  afterAll(async () => {
    await store.db.dropDatabase();
    await store.close();
  });

  const TEXTS = [
    '天气',
    '你好世界',
    '橘猫',
    '明天见',
    'hello',
    'HELLO THERE',
    'a.b*c(',
    '(sleeping)',
    'lighthouse',
    'the',
    'note number',
    '改过了',
    'rewritten',
    '#12',
    '不存在的词',
    'zzzz',
    '，明',
    ' e, ',
    // Word gaps (their spans are index terms): case, punctuation beside the gap, a gap over two texts.
    'Weather Is',
    'cat (sl',
    'nice, see you',
    'you tomorrow, a.b',
  ];
  const since = new Date(base + 10 * DAY);
  const until = new Date(base + 25 * DAY);
  const FILTERS: Array<Partial<MessageSearchInput>> = [
    {},
    { dialogueId: 'dlg_1' },
    { role: 'human' },
    { role: 'ai', dialogueId: 'dlg_2' },
    { since, until },
    { since },
    { until },
    { includeArchived: true },
    { includeArchived: true, dialogueId: 'dlg_0', since },
    { visibleOnly: true, dialogueId: 'dlg_3' },
  ];

  it('returns exactly what a scan of every message returns, for many queries, filters and both orders', async () => {
    let compared = 0;
    let nonEmpty = 0;
    for (const text of TEXTS)
      for (const filter of FILTERS)
        for (const order of ['newest', 'oldest'] as const) {
          const input = { text, ...filter, order };
          const want = await bruteForce(store, input);
          expect(await indexed(store, input), JSON.stringify(input)).toEqual(want);
          compared++;
          if (want.length > 0) nonEmpty++;
        }
    expect(compared).toBe(TEXTS.length * FILTERS.length * 2);
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  }, 120_000);

  it('answers one-character queries from the dialogue’s list or the window’s days', async () => {
    for (const input of [
      { text: '猫', dialogueId: 'dlg_1' },
      { text: '(', dialogueId: 'dlg_2', order: 'oldest' as const },
      { text: 'h', since: new Date(base + 3 * DAY), until: new Date(base + 20 * DAY) },
      { text: '天', since: new Date(base + 30 * DAY), until: new Date(base + 45 * DAY), includeArchived: true },
    ]) {
      expect(await indexed(store, input), JSON.stringify(input)).toEqual(await bruteForce(store, input));
    }
  }, 60_000);

  it('pages by (createdAt, id) without repeating or skipping one', async () => {
    const plan = planMessageSearch({ text: 'hello', includeArchived: true }, new Date());
    const want = await bruteForce(store, { text: 'hello', includeArchived: true });
    const seen: string[] = [];
    let after: { at: number; id: string } | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await searchMessages(store, plan, { limit: 7, after });
      seen.push(...page.messages.map((m) => m._id));
      expect(page.complete).toBe(true);
      if (!page.hasMore) break;
      const last = page.messages.at(-1)!;
      after = { at: last.createdAt.getTime(), id: last._id };
    }
    expect(seen).toEqual(want);
  }, 60_000);

  it('finds a message as soon as it is stored, before the indexer folds it, and after', async () => {
    const fresh: Message = {
      ...all[1]!,
      _id: 'msg_fresh',
      dialogueId: 'dlg_1',
      content: '刚刚存进去的消息 just stored',
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    await store.messages.insertOnce(fresh, { windowed: false });
    expect(await indexed(store, { text: '刚刚存进' })).toEqual(['msg_fresh']);
    expect(await indexed(store, { text: 'JUST STORED', dialogueId: 'dlg_1' })).toEqual(['msg_fresh']);
    expect(await indexed(store, { text: 'just stored', dialogueId: 'dlg_2' })).toEqual([]);
    // An edit is found at once too, and the old text no longer matches.
    await store.messages.applyEdit(fresh, '改成别的 edited now', new Date());
    expect(await indexed(store, { text: 'edited now' })).toEqual(['msg_fresh']);
    expect(await indexed(store, { text: 'just stored' })).toEqual([]);
    await new Promise((r) => setTimeout(r, JOURNAL_SLOT_MS / 5));
    await nextSlot();
    await indexUntilCaughtUp(store);
    expect(await indexed(store, { text: 'edited now' })).toEqual(['msg_fresh']);
    expect(await indexed(store, { text: '改成别的', order: 'oldest' })).toEqual(['msg_fresh']);
  }, 60_000);

  it('reads and writes by _id only once the backfill is done: the journal, the fold, the search', async () => {
    const watch = watchCommands(store.client, store.db.databaseName);
    watch.start();
    const m: Message = { ...all[2]!, _id: 'msg_watched', content: '被看着的消息 watched', createdAt: new Date() };
    await store.messages.insertOnce(m, { windowed: false });
    expect(await indexed(store, { text: 'watched', dialogueId: m.dialogueId })).toEqual(['msg_watched']);
    await nextSlot();
    await indexUntilCaughtUp(store);
    expect(await indexed(store, { text: '被看着', order: 'oldest' })).toEqual(['msg_watched']);
    watch.stop();
    const shapes = new Set(watch.seen.map((c) => c.shape));
    for (const collection of ['searchJournal', 'searchPostings', 'searchIndexState', 'messages'])
      expect(
        [...shapes].some((s) => s.startsWith(`${collection} `)),
        collection,
      ).toBe(true);
    expect([...new Set(watch.seen.filter((c) => c.cls !== 'idOnly').map((c) => c.shape))]).toEqual([]);
  }, 60_000);

  it('serves the model’s search_messages tool: its dialogue, shown and undeleted messages, newest first', async () => {
    const registry = new ToolRegistry([searchMessagesTool], 10_000);
    const run = (args: Record<string, unknown>) =>
      registry.execute(
        { id: 'c1', name: 'search_messages', arguments: JSON.stringify(args) },
        { store, dialogueId: 'dlg_1', now: new Date(), timezone: 'UTC', signal: new AbortController().signal },
      );
    const texts = async (args: Record<string, unknown>) => {
      const out = await run(args);
      if (!out.ok) throw new Error(out.error.message);
      return (out.result as { matches: Array<{ at: string; text: string }> }).matches;
    };
    const want = await bruteForce(store, { text: 'hello', dialogueId: 'dlg_1', visibleOnly: true });
    const found = await texts({ query: 'hello', limit: 20 });
    expect(found).toHaveLength(Math.min(20, want.length));
    for (const m of found) expect(m.text.toLowerCase()).toContain('hello');
    const one = await texts({ query: '猫', limit: 20 });
    expect(one.length).toBe(
      Math.min(20, (await bruteForce(store, { text: '猫', dialogueId: 'dlg_1', visibleOnly: true })).length),
    );
    const long = await run({ query: 'x'.repeat(10_000) });
    expect(long.ok).toBe(false);
    expect(await texts({ query: '.*' })).toEqual([]);
  }, 60_000);

  it('refuses bad input with BAD_REQUEST, and never reads everything for it', async () => {
    const codeOf = (input: MessageSearchInput) => {
      try {
        planMessageSearch(input, new Date());
        return 'none';
      } catch (err) {
        return err instanceof GatewayError ? err.code : 'other';
      }
    };
    expect(codeOf({ text: 'x' })).toBe('BAD_REQUEST');
    expect(codeOf({ text: '!' })).toBe('BAD_REQUEST');
    expect(codeOf({ text: 'x'.repeat(10_000) })).toBe('BAD_REQUEST');
    expect(codeOf({ text: '   ' })).toBe('BAD_REQUEST');
    // Only punctuation, or regex metacharacters: literal, and nothing matches.
    expect(await indexed(store, { text: '?!?!' })).toEqual([]);
    expect(await indexed(store, { text: '.*' })).toEqual([]);
    expect(await indexed(store, { text: '[a-z]+' })).toEqual([]);
  });

  it('drops the first format’s documents once, and leaves the current index whole', async () => {
    type Raw = { _id: string; [k: string]: unknown };
    const states = store.c.searchIndexState as unknown as Collection<Raw>;
    const postings = store.c.searchPostings as unknown as Collection<Raw>;
    await states.insertOne({ _id: 'state', gens: [1, 0, 2], foldedSlot: 1 });
    const old = ['p:0:0', 'p:0:1', 'p:1:0', 'p:2:0', 'p:2:1', 'p:2:2'];
    await postings.insertMany(old.map((_id) => ({ _id, terms: [], bytes: 0 })));
    const before = await indexed(store, { text: 'the' });
    expect(await dropSearchFormat1(store.c)).toBe(6);
    expect(await postings.countDocuments({ _id: { $in: old } })).toBe(0);
    expect(await states.findOne({ _id: 'state' })).toBeNull();
    expect(await indexed(store, { text: 'the' })).toEqual(before);
    expect(before.length).toBeGreaterThan(0);
    expect(await dropSearchFormat1(store.c)).toBe(0);
  });
});
