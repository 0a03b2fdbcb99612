// Active recall against the real MongoDB-wire server and Redis, as an operator would see it:
// with the OpenAI embeddings API (the real `openai` client pointed at the fake server) the
// right memory is recalled in English and Chinese; when that API is down, answers nothing,
// or hangs, recall still answers from keywords (degraded: 'keyword_only') within its budget;
// each process keeps an owner's vectors in memory and sees other processes' writes through
// the Redis version; the offline embedder recalls Chinese facts; retired memories never return.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import pino, { type Logger } from 'pino';
import { createLogger } from '../../src/log.js';
import { Store } from '../../src/store/store.js';
import type { MemoryEntry, MemoryKind, MemoryStatus } from '../../src/domain/model.js';
import { createEmbedder, type Embedder } from '../../src/memory/embedder.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../../src/memory/indexCache.js';
import { MemoryRecall, type RecallResult } from '../../src/memory/recall.js';
import { RedisMemoryVersions, type MemoryVersions } from '../../src/memory/versions.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { eventually } from '../support/testEnv.js';

const OWNER = 'agt_recall';
const HUMAN = 'hum_bob';
/** A second human of the same owner, who speaks Chinese (their memories are in Chinese). */
const HUMAN_ZH = 'hum_li';
const DAY = 86_400_000;
const NOW = new Date(Date.UTC(2026, 2, 1, 12, 0, 0));
const DIMS = 256;
const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

let store: Store;
let redis: Redis;
let fake: FakeOpenAI;
let prefix: string;

beforeAll(async () => {
  store = await Store.connect(inject('mongoUri'), `test_${randomBytes(4).toString('hex')}`);
  redis = new Redis(inject('redisUrl'));
  fake = await startFakeOpenAI();
});

afterAll(async () => {
  await store.db.dropDatabase();
  await store.close();
  const keys = await redis.keys('test-recall-*');
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await fake.close();
});

beforeEach(() => {
  fake.reset();
  prefix = `test-recall-${randomBytes(4).toString('hex')}:`;
});

afterEach(async () => {
  await store.c.memories.deleteMany({});
});

function openAiClient(baseURL = fake.baseURL): OpenAI {
  return new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 });
}

function openAiEmbedder(baseURL = fake.baseURL): Embedder {
  return createEmbedder({
    provider: 'openai',
    openai: openAiClient(baseURL),
    model: 'text-embedding-3-small',
    dims: DIMS,
  });
}

let seq = 0;
interface Seed {
  text: string;
  kind?: MemoryKind;
  status?: MemoryStatus;
  daysAgo?: number;
  importance?: number;
  subjectId?: string;
}

/** Stores memories about HUMAN (vectors computed by `embedder` when given); returns their ids in order. */
async function seed(items: Array<string | Seed>, embedder?: Embedder): Promise<string[]> {
  const seeds = items.map((s) => (typeof s === 'string' ? { text: s } : s));
  const vectors = embedder ? await embedder.embed(seeds.map((s) => s.text)) : [];
  const entries = seeds.map((s, i): MemoryEntry => {
    const id = `mem_${++seq}_${randomBytes(3).toString('hex')}`;
    const at = new Date(NOW.getTime() - (s.daysAgo ?? 10) * DAY);
    return {
      _id: id,
      ownerId: OWNER,
      subjectId: s.subjectId ?? HUMAN,
      kind: s.kind ?? 'fact',
      text: s.text,
      dedupeKey: `dk_${id}`,
      ...(embedder ? { embedding: toMemoryEmbedding(embedder.id, vectors[i]!) } : {}),
      importance: s.importance ?? 0.5,
      sources: {},
      occurredAt: at,
      status: s.status ?? 'active',
      recall: { count: 0 },
      createdAt: at,
      updatedAt: at,
    };
  });
  await store.memories.insertMany(entries);
  return entries.map((e) => e._id);
}

interface Rig {
  cache: IndexCache;
  recall: MemoryRecall;
  /** store.memories.list calls made by this rig's cache. */
  lists: Array<{ since?: Date }>;
  /** Ids this rig's cache re-read by _id (store.memories.getMany). */
  pointReads: string[][];
  /**
   * Waits for the recall statistics written in the background. On FerretDB two concurrent
   * updates of one document can lose one of them, so a test that retires a just-recalled
   * memory waits for these first (else the stats write may put the memory back to active).
   */
  statsWritten(): Promise<void>;
  ask(message: string, o?: { recentUserTexts?: string[]; topK?: number; subjectId?: string }): Promise<RecallResult>;
}

function rig(o: {
  embedder: Embedder;
  versions?: MemoryVersions;
  recallTimeoutMs?: number;
  cacheTimeoutMs?: number;
  /** RECALL_LOAD_WAIT_MS. */
  loadWaitMs?: number;
  /** Each list of the store waits for this first (a server slow to read a large scope), and fails if it does. */
  beforeList?: () => Promise<void>;
  log?: Logger;
}): Rig {
  const lists: Rig['lists'] = [];
  const pointReads: Rig['pointReads'] = [];
  const memories: ConstructorParameters<typeof IndexCache>[0]['store']['memories'] = {
    list: async (scope, opts) => {
      lists.push(opts?.since ? { since: opts.since } : {});
      await o.beforeList?.();
      return store.memories.list(scope, opts);
    },
    setEmbedding: (id, e) => store.memories.setEmbedding(id, e),
    getMany: (ids) => (pointReads.push([...ids]), store.memories.getMany(ids)),
  };
  const cache = new IndexCache({
    store: { memories },
    embedder: o.embedder,
    versions: o.versions ?? new RedisMemoryVersions(redis, prefix),
    log,
    ...(o.cacheTimeoutMs !== undefined ? { embedTimeoutMs: o.cacheTimeoutMs } : {}),
  });
  const stats: Array<Promise<void>> = [];
  const noteRecalled = (ids: string[], at: Date): Promise<void> => {
    const p = store.memories.noteRecalled(ids, at);
    stats.push(p.catch(() => undefined));
    return p;
  };
  const recall = new MemoryRecall({
    store: { memories: { noteRecalled } },
    embedder: o.embedder,
    cache,
    log: o.log ?? log,
    embedTimeoutMs: o.recallTimeoutMs ?? 2_000,
    ...(o.loadWaitMs !== undefined ? { loadWaitMs: o.loadWaitMs } : {}),
  });
  return {
    cache,
    recall,
    lists,
    pointReads,
    statsWritten: async () => void (await Promise.all(stats)),
    ask: (message, a = {}) =>
      recall.recall({
        ownerId: OWNER,
        subjectId: a.subjectId ?? HUMAN,
        message,
        topK: a.topK ?? 3,
        now: NOW,
        ...(a.recentUserTexts ? { recentUserTexts: a.recentUserTexts } : {}),
      }),
  };
}

const ids = (r: RecallResult): string[] => r.memories.map((m) => m.id);
const texts = (r: RecallResult): string[] => r.memories.map((m) => m.text);

/** A port nothing listens on: connections are refused. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const EN = [
  'User lives in Berlin with their sister',
  'User has a cat named Mochi',
  'User works as a nurse at the city hospital',
  'User likes spicy sushi',
  'User is learning to play the guitar',
  'User runs five kilometres every morning',
];
const ZH = [
  '用户住在上海',
  '用户养了一只猫，名叫团子',
  '用户喜欢吃火锅',
  '用户下个月要去日本旅行',
  '用户在医院当护士',
].map((text) => ({ text, subjectId: HUMAN_ZH }));
const zhOpts = (o: { topK?: number } = {}) => ({ ...o, subjectId: HUMAN_ZH });

describe('recall with the OpenAI embeddings API', () => {
  it('stores and recalls by meaning, in English and Chinese, asking the API only for the queries', async () => {
    const embedder = openAiEmbedder();
    const en = await seed(EN, embedder);
    const zh = await seed(ZH, embedder);
    fake.embeddingsRequests.length = 0;
    const r = rig({ embedder });

    const where = await r.ask('Where do I live these days?');
    expect(where.degraded).toBeUndefined();
    expect(ids(where)[0]).toBe(en[0]);
    // One embeddings call: the synthesised queries, with the configured size; stored vectors were used as they are.
    expect(fake.embeddingsRequests).toHaveLength(1);
    expect(fake.embeddingsRequests[0]!.input).toEqual(where.queries);
    expect(fake.embeddingsRequests[0]!.dimensions).toBe(DIMS);
    expect(fake.embeddingsRequests[0]!.model).toBe('text-embedding-3-small');

    const cat = await r.ask("What's my cat's name again?");
    expect(texts(cat)[0]).toBe('User has a cat named Mochi');

    // The question shares no two-character word with the memory, only 猫, 名, 叫.
    const zhCat = await r.ask('我的猫叫什么名字', zhOpts());
    expect(zhCat.degraded).toBeUndefined();
    expect(ids(zhCat)[0]).toBe(zh[1]);

    const food = await r.ask('你还记得我喜欢吃什么吗？', zhOpts());
    expect(ids(food)[0]).toBe(zh[2]);
    const trip = await r.ask('我什么时候去日本？', zhOpts());
    expect(ids(trip)[0]).toBe(zh[3]);
    expect(fake.embeddingsRequests).toHaveLength(5);

    // Recall statistics are recorded on the recalled entries (best effort, in the background).
    await expect
      .poll(async () => (await store.memories.get(zh[3]!))?.recall.count, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(1);
  });

  it('a person with nothing remembered costs no embeddings call, until another process remembers something', async () => {
    const embedder = openAiEmbedder();
    const versions = new RedisMemoryVersions(redis, prefix);
    const a = rig({ embedder, versions });
    const b = rig({ embedder, versions });
    const scope = { ownerId: OWNER, subjectId: HUMAN };
    fake.embeddingsRequests.length = 0;

    // The first recall loads the (empty) index beside the embedding; later ones know it is empty.
    await a.ask('Where do I live these days?');
    const afterFirst = fake.embeddingsRequests.length;
    const empty = await a.ask('What is my cat called?');
    expect(empty.memories).toHaveLength(0);
    expect(empty.degraded).toBeUndefined();
    expect(fake.embeddingsRequests).toHaveLength(afterFirst);

    // Another process stores a memory: the version says so, and the query is embedded again.
    const [home] = await seed(['User lives in Lisbon'], embedder);
    await b.cache.noteWritten(scope, [home!]);
    fake.embeddingsRequests.length = 0;
    const found = await a.ask('Where do I live these days?');
    expect(ids(found)[0]).toBe(home);
    expect(found.degraded).toBeUndefined();
    expect(fake.embeddingsRequests).toHaveLength(1);
  });

  it('embeds stored memories that have no vector once, writes them back, and later processes reuse them', async () => {
    const embedder = openAiEmbedder();
    const en = await seed(EN); // stored while embeddings were down: no vectors
    const r = rig({ embedder });
    const first = await r.ask('Do I have a cat?');
    expect(first.degraded).toBeUndefined();
    expect(ids(first)[0]).toBe(en[1]);
    const embeddedTexts = fake.embeddingsRequests.flatMap((q) => q.input);
    for (const t of EN) expect(embeddedTexts).toContain(t);
    await expect
      .poll(
        async () =>
          (await store.memories.list({ ownerId: OWNER, subjectId: HUMAN })).filter(
            (e) => e.embedding?.model === embedder.id,
          ).length,
        { timeout: 5_000 },
      )
      .toBe(EN.length);

    // Another process: loads the stored vectors, embeds only its queries.
    fake.embeddingsRequests.length = 0;
    const other = rig({ embedder });
    const again = await other.ask('Where do I work?');
    expect(ids(again)[0]).toBe(en[2]);
    expect(fake.embeddingsRequests).toHaveLength(1);
    expect(fake.embeddingsRequests[0]!.input).toEqual(again.queries);
  });
});

describe('recall when the embeddings API fails', () => {
  it('HTTP 500: answers from keywords, marked keyword_only, without throwing', async () => {
    const embedder = openAiEmbedder();
    const en = await seed(EN, embedder);
    const zh = await seed(ZH, embedder);
    const r = rig({ embedder });
    fake.embeddingsRequests.length = 0;
    fake.enqueueEmbeddings({
      kind: 'error',
      status: 500,
      message: 'The server had an error while processing your request.',
    });
    const live = await r.ask('Where does my sister live? Berlin?');
    expect(live.degraded).toBe('keyword_only');
    expect(ids(live)[0]).toBe(en[0]);
    expect(fake.embeddingsRequests).toHaveLength(1); // maxRetries 0: one attempt, no retry storm

    fake.enqueueEmbeddings({ kind: 'error', status: 500, message: 'down' });
    const zhLive = await r.ask('我住在哪里？', zhOpts());
    expect(zhLive.degraded).toBe('keyword_only');
    expect(ids(zhLive)[0]).toBe(zh[0]);

    // One-character words count too: the question shares no bigram with the memory, only 猫, 名, 叫.
    fake.enqueueEmbeddings({ kind: 'error', status: 503, message: 'overloaded' });
    const zhCat = await r.ask('我的猫叫什么名字', zhOpts());
    expect(zhCat.degraded).toBe('keyword_only');
    expect(ids(zhCat)[0]).toBe(zh[1]);

    // The API is back: vectors again.
    const back = await r.ask('我的猫叫什么名字', zhOpts());
    expect(back.degraded).toBeUndefined();
    expect(ids(back)[0]).toBe(zh[1]);
  });

  it('connection refused: keyword-only, even for a process loading memories that still need vectors', async () => {
    const en = await seed(EN); // no stored vectors: the load wants to embed them too
    const embedder = openAiEmbedder(`http://127.0.0.1:${await closedPort()}/v1`);
    const r = rig({ embedder });
    const started = performance.now();
    const job = await r.ask('What instrument am I learning? guitar');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(job.degraded).toBe('keyword_only');
    expect(ids(job)[0]).toBe(en[4]);
    const run = await r.ask('How far do I run in the morning?');
    expect(run.degraded).toBe('keyword_only');
    expect(ids(run)[0]).toBe(en[5]);
  });

  it('an empty `data: []` answer is a failure (EMBEDDING_FAILED), not "no memories"', async () => {
    const embedder = openAiEmbedder();
    await expect(
      (async () => {
        fake.enqueueEmbeddings({ kind: 'empty' });
        return embedder.embed(['hello']);
      })(),
    ).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });

    const en = await seed(EN, embedder);
    const r = rig({ embedder });
    fake.enqueueEmbeddings({ kind: 'empty' });
    const res = await r.ask('Tell me about my job at the hospital');
    expect(res.degraded).toBe('keyword_only');
    expect(ids(res)[0]).toBe(en[2]);
  });

  it('embeddings slower than the recall budget: keyword-only in about the budget', async () => {
    const embedder = openAiEmbedder();
    const en = await seed(EN, embedder);
    const r = rig({ embedder, recallTimeoutMs: 300 });
    await r.cache.get({ ownerId: OWNER, subjectId: HUMAN }); // warm: the budget is the embeddings' alone
    fake.enqueueEmbeddings({ kind: 'hang' });
    const started = performance.now();
    const res = await r.ask('Do I like sushi?');
    const took = performance.now() - started;
    expect(res.degraded).toBe('keyword_only');
    expect(ids(res)[0]).toBe(en[3]);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1_500);
    expect(res.timings.embedMs).toBeLessThan(1_500);
  });

  it('a hanging API does not hold a cold load of vector-less memories past the recall budget', async () => {
    const en = await seed(EN); // no stored vectors
    const embedder = openAiEmbedder();
    const r = rig({ embedder, recallTimeoutMs: 300 }); // the cache's own embed limit stays at its default (30 s)
    fake.enqueueEmbeddings({ kind: 'hang' }, { kind: 'hang' });
    const started = performance.now();
    const res = await r.ask('Do I like sushi?');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.degraded).toBe('keyword_only');
    expect(ids(res)[0]).toBe(en[3]);
  });
});

/** A promise and its settling functions. */
function gate(): { promise: Promise<void>; open: () => void; fail: (err: Error) => void } {
  let open = (): void => undefined;
  let fail = (_err: Error): void => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    open = () => resolve();
    fail = reject;
  });
  return { promise, open, fail };
}

describe('a memory index slower to load than a reply can wait (a large scope after a restart)', () => {
  it("the reply's recall answers without memories in about the budget; the load goes on and the next recall has them", async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const en = await seed(EN, embedder);
    const slow = gate();
    const r = rig({ embedder, loadWaitMs: 300, beforeList: () => slow.promise });
    const started = performance.now();
    const first = await r.ask('Do I like sushi?');
    const took = performance.now() - started;
    expect(first.degraded).toBe('index_loading');
    expect(first.memories).toEqual([]);
    expect(first.queries.length).toBeGreaterThan(0);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1_500);

    // The next turn while the load still runs does not wait the budget again.
    const again = performance.now();
    expect((await r.ask('Do I like sushi?')).degraded).toBe('index_loading');
    expect(performance.now() - again).toBeLessThan(200);

    slow.open();
    await r.cache.get({ ownerId: OWNER, subjectId: HUMAN }); // the load finishing, as a later turn finds it
    const next = await r.ask('Do I like sushi?');
    expect(next.degraded).toBeUndefined();
    expect(ids(next)[0]).toBe(en[3]);
    expect(r.lists).toHaveLength(1); // the first recall's load, finished in the background and kept
  });

  it("a reply's prepare and its recall share one budget: the reply waits it once, not twice", async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    await seed(EN, embedder);
    const slow = gate();
    const r = rig({ embedder, loadWaitMs: 300, beforeList: () => slow.promise });
    const started = performance.now();
    await r.recall.prepare({ ownerId: OWNER, subjectId: HUMAN }); // as readContextInputs does, beside the reads
    const prepared = performance.now() - started;
    const res = await r.ask('Do I like sushi?');
    const took = performance.now() - started;
    expect(prepared).toBeGreaterThanOrEqual(250);
    expect(prepared).toBeLessThan(1_500);
    expect(res.degraded).toBe('index_loading');
    expect(took - prepared).toBeLessThan(200);
    slow.open();
  });

  it("an operator's search waits for the load however long it takes", async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const en = await seed(EN, embedder);
    const slow = gate();
    const r = rig({ embedder, loadWaitMs: 100, beforeList: () => slow.promise });
    const searching = r.recall.recall({
      ownerId: OWNER,
      subjectId: HUMAN,
      message: 'Do I like sushi?',
      topK: 3,
      now: NOW,
      countRecall: false,
      waitForIndex: true,
    });
    setTimeout(slow.open, 400);
    const res = await searching;
    expect(res.degraded).toBeUndefined();
    expect(ids(res)[0]).toBe(en[3]);
  });

  it('a load that fails after the reply stopped waiting is logged; the next recall loads again', async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const en = await seed(EN, embedder);
    const broken = gate();
    let calls = 0;
    const lines: Array<{ msg?: string; err?: { message?: string } }> = [];
    const r = rig({
      embedder,
      loadWaitMs: 200,
      beforeList: () => (++calls === 1 ? broken.promise : Promise.resolve()),
      log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[0]) }),
    });
    const first = await r.ask('Do I like sushi?');
    expect(first.degraded).toBe('index_loading');
    expect(lines.map((l) => l.msg)).toContain('memory index still loading; recalling nothing this time');
    broken.fail(new Error('server went away mid-read'));
    const failed = await eventually(
      () => Promise.resolve(lines.find((l) => l.msg === 'memory index load failed')),
      2_000,
      'the failed load to be logged',
    );
    expect(failed.err?.message).toBe('server went away mid-read');
    const next = await r.ask('Do I like sushi?');
    expect(next.degraded).toBeUndefined();
    expect(ids(next)[0]).toBe(en[3]);
    expect(r.lists).toHaveLength(2);
  });
});

describe('the per-process index cache', () => {
  it('lists an owner from the store once; later recalls neither list nor re-embed stored memories', async () => {
    const embedder = openAiEmbedder();
    const en = await seed(EN); // vectors computed by the first load
    const r = rig({ embedder });
    const first = await r.ask('Where do I live?');
    expect(ids(first)[0]).toBe(en[0]);
    expect(r.lists).toHaveLength(1);
    expect(r.lists[0]).toEqual({}); // a full load, not an incremental one
    const afterFirst = fake.embeddingsRequests.length;
    expect(afterFirst).toBeGreaterThanOrEqual(2); // the stored memories, and the queries

    for (const q of ['What is my job?', 'Do I have a cat?', 'Which instrument do I play?']) await r.ask(q);
    expect(r.lists).toHaveLength(1);
    // Only query embeddings: three calls, none carrying a stored memory's text.
    const later = fake.embeddingsRequests.slice(afterFirst);
    expect(later).toHaveLength(3);
    for (const req of later) for (const t of EN) expect(req.input).not.toContain(t);
  });

  it("another process's write (shared Redis versions) is seen on the next recall, incrementally", async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const versions = new RedisMemoryVersions(redis, prefix);
    const en = await seed(EN, embedder);
    const a = rig({ embedder, versions });
    const b = rig({ embedder, versions });
    const scope = { ownerId: OWNER, subjectId: HUMAN };

    const before = await a.ask('Where do I live now?');
    expect(ids(before)[0]).toBe(en[0]);
    await b.cache.get(scope);
    await a.statsWritten();

    // Process B: the user moved; B stores the new fact, retires the old one, and notes the write.
    const recent = new Date(NOW.getTime() + 60_000);
    const [paris] = await seed([{ text: 'User moved to Paris and lives there now', daysAgo: -1 / 1440 }], embedder);
    await store.memories.retire([en[0]!], 'superseded', recent, { supersededBy: paris });
    await b.cache.noteWritten(scope, [paris!, en[0]!]);
    expect(ids(await b.ask('Where do I live now?'))[0]).toBe(paris);

    const listsBefore = a.lists.length;
    const after = await a.ask('Where do I live now?');
    expect(ids(after)[0]).toBe(paris);
    expect(ids(after)).not.toContain(en[0]);
    // Only what changed, by _id: no query over the scope.
    expect(a.lists.slice(listsBefore)).toHaveLength(0);
    expect(a.pointReads.at(-1)?.sort()).toEqual([paris!, en[0]!].sort());

    // Nothing changed since: no further store reads.
    const pointReadsBefore = a.pointReads.length;
    await a.ask('Where do I live now?');
    expect(a.lists).toHaveLength(listsBefore);
    expect(a.pointReads).toHaveLength(pointReadsBefore);

    // A write without ids (a bulk change) makes every other process reload the scope.
    await b.cache.noteWritten(scope);
    await a.ask('Where do I live now?');
    expect(a.lists).toHaveLength(listsBefore + 1);
  });

  it("a reply's recall takes the index its prepare checked moments before: one version read, not two", async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const redisVersions = new RedisMemoryVersions(redis, prefix);
    let versionReads = 0;
    const versions: MemoryVersions = {
      get: (s) => (versionReads++, redisVersions.get(s)),
      bump: (s, ids) => redisVersions.bump(s, ids),
      changes: (s, from, to) => redisVersions.changes(s, from, to),
    };
    const en = await seed(EN, embedder);
    const r = rig({ embedder, versions });
    await r.recall.prepare({ ownerId: OWNER, subjectId: HUMAN });
    expect(versionReads).toBe(1);
    expect(ids(await r.ask('Where do I live?'))[0]).toBe(en[0]);
    expect(versionReads).toBe(1); // the prepare's read served this recall
    // A recall nobody prepared (or a second one) checks the version as before: another
    // process's write is seen at once.
    const [kiwi] = await seed(['User adopted a parrot called Kiwi'], embedder);
    await redisVersions.bump({ ownerId: OWNER, subjectId: HUMAN }, [kiwi!]);
    expect(ids(await r.ask('Do I have a parrot?'))[0]).toBe(kiwi);
    expect(versionReads).toBe(2);
  });

  it('a cache whose version is not bumped keeps its (stale) index: the version, not the store, is the signal', async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const en = await seed(EN, embedder);
    const r = rig({ embedder });
    await r.ask('Where do I live?');
    await seed(['User adopted a parrot called Kiwi'], embedder);
    expect(texts(await r.ask('Do I have a parrot?'))).not.toContain('User adopted a parrot called Kiwi');
    await new RedisMemoryVersions(redis, prefix).bump({ ownerId: OWNER, subjectId: HUMAN });
    expect(texts(await r.ask('Do I have a parrot?'))[0]).toBe('User adopted a parrot called Kiwi');
    expect(ids(await r.ask('Where do I live?'))[0]).toBe(en[0]);
  });
});

describe('recall with the offline embedder', () => {
  it('recalls Chinese facts and never returns superseded or merged memories', async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const [oldCat, mergedCat, cat, , , , pruned] = await seed(
      [
        { text: '我养了一只叫咪咪的猫', status: 'superseded', daysAgo: 200 },
        { text: '我的猫叫豆豆，是一只橘猫', status: 'merged', daysAgo: 40 },
        { text: '我养了一只叫豆豆的猫', daysAgo: 30 },
        '我住在杭州，离西湖不远',
        '我最喜欢的食物是火锅',
        { text: '我每天早上六点起床去跑步', daysAgo: 3 },
        { text: '我的猫叫花花', status: 'pruned', daysAgo: 300 },
        'User works as a teacher at a primary school',
      ],
      embedder,
    );
    const r = rig({ embedder });
    const res = await r.ask('我的猫叫什么名字', { topK: 5 });
    expect(res.degraded).toBeUndefined();
    expect(ids(res)[0]).toBe(cat);
    expect(ids(res)).not.toContain(oldCat);
    expect(ids(res)).not.toContain(mergedCat);
    expect(ids(res)).not.toContain(pruned);

    const deep = await r.ask('你还记得我的猫吗？它叫什么？', { topK: 10, recentUserTexts: ['我今天很累'] });
    expect(texts(deep)[0]).toBe('我养了一只叫豆豆的猫');
    for (const id of [oldCat, mergedCat, pruned]) expect(ids(deep)).not.toContain(id);

    expect(texts(await r.ask('我每天几点起床？'))[0]).toBe('我每天早上六点起床去跑步');
    expect(texts(await r.ask('我住在哪里？'))[0]).toBe('我住在杭州，离西湖不远');
    expect(texts(await r.ask('What do I do for a living? teacher?'))[0]).toBe(
      'User works as a teacher at a primary school',
    );
  });

  it('a memory retired after the index loaded leaves it on the next recall', async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const [hotpot, sushi] = await seed(['我最喜欢的食物是火锅', '我最喜欢的食物是寿司', '我住在杭州'], embedder);
    const r = rig({ embedder });
    const first = await r.ask('我最喜欢的食物是什么？', { topK: 5 });
    expect(ids(first)).toEqual(expect.arrayContaining([hotpot, sushi]));
    await r.statsWritten();

    await store.memories.retire([hotpot!], 'merged', NOW, { mergedInto: sushi });
    await r.cache.noteWritten({ ownerId: OWNER, subjectId: HUMAN });
    const after = await r.ask('我最喜欢的食物是什么？', { topK: 5 });
    expect(ids(after)[0]).toBe(sushi);
    expect(ids(after)).not.toContain(hotpot);
  });

  it("keeps owners and humans apart: another human's memory is not recalled", async () => {
    const embedder = new HashedNgramEmbedder(DIMS);
    const [mine] = await seed(['我养了一只叫豆豆的猫'], embedder);
    const [theirs] = await seed([{ text: '我养了一只叫雪球的猫', subjectId: 'hum_other' }], embedder);
    const r = rig({ embedder });
    const res = await r.ask('我的猫叫什么名字', { topK: 5 });
    expect(ids(res)).toEqual([mine]);
    expect(ids(res)).not.toContain(theirs);
  });
});
