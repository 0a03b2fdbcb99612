// The memory index's cold start from its snapshot (issue 34): a process that loaded a scope from
// the store writes its snapshot in the background; after memories are added, rewritten, retired,
// deleted and made private, a new process (a new IndexCache) loads the snapshot by `_id`, catches
// up through the Redis change log, and recalls exactly what a full load recalls — nothing
// retired, deleted or made private comes back. A missing, damaged or older snapshot, or one the
// change log no longer reaches, is a full load followed by a fresh snapshot; deleting a person's
// memories drops the snapshot even when the version bump is lost. The snapshot load reads by `_id` only.
import { randomBytes } from 'node:crypto';
import { Binary } from 'mongodb';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { Store } from '../../src/store/store.js';
import type { MemoryEntry, MemoryKind, MemoryOrigin } from '../../src/domain/model.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../../src/memory/indexCache.js';
import { MemoryRecall } from '../../src/memory/recall.js';
import { CHANGE_LOG_KEEP, RedisMemoryVersions } from '../../src/memory/versions.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';
import { snapshotHeadIdOf } from '../../src/store/memorySnapshots.js';
import { retireMemory, setMemoryVisibility } from '../../src/ops/memoryEdits.js';
import { watchCommands, withCommandMonitoring, type CommandWatch } from '../support/commandWatch.js';

const OWNER = 'agt_snap';
const HUMAN = 'hum_snap';
const PRIVATE: MemoryOrigin = { dialogueId: 'dlg_snap_dm', scope: 'private' };
const GROUP: MemoryOrigin = { dialogueId: 'dlg_snap_group', scope: 'group' };
const NOW = new Date(Date.UTC(2026, 2, 1, 12));
const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
const embedder = new HashedNgramEmbedder(64);
const scope = { ownerId: OWNER, subjectId: HUMAN };

const TEXTS: Array<[MemoryKind, string]> = [
  ['fact', 'User lives in Berlin with their sister'],
  ['fact', 'User has a dog named Biscuit'],
  ['preference', 'User loves spicy ramen but dislikes cilantro'],
  ['event', 'User travelled to Tokyo with an old friend in March'],
  ['fact', 'User works as a nurse at the city hospital'],
  ['fact', 'User is learning the guitar on weekends'],
  ['fact', '用户住在杭州，和妈妈一起'],
  ['preference', '用户最喜欢吃火锅，不喜欢香菜'],
  ['event', '用户去年夏天和姐姐去了成都旅行'],
  ['fact', "User's brother Oscar is 31 years old"],
  ['fact', 'Please call me Bea from now on'],
  ['plot', 'User got lost in Kyoto and waited out the rain in a tea house'],
];

let store: Store;
let watch: CommandWatch;
let redis: Redis;
let versions: RedisMemoryVersions;
let dbName: string;

beforeAll(async () => {
  dbName = `test_${randomBytes(4).toString('hex')}`;
  store = await Store.connect(withCommandMonitoring(inject('mongoUri')), dbName);
  watch = watchCommands(store.client, dbName);
  redis = new Redis(inject('redisUrl'));
});

afterAll(async () => {
  await store.db.dropDatabase();
  await store.close();
  const keys = await redis.keys('test-snap-*');
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

beforeEach(async () => {
  await store.c.memories.deleteMany({});
  await store.c.memorySnapshots.deleteMany({});
  versions = new RedisMemoryVersions(redis, `test-snap-${randomBytes(4).toString('hex')}:`);
});

async function memory(i: number, text: string, kind: MemoryKind, origin: MemoryOrigin): Promise<MemoryEntry> {
  const at = new Date(NOW.getTime() - (100 - i) * 3_600_000);
  const [vector] = await embedder.embed([text]);
  return {
    _id: `mem_snap_${String(i).padStart(3, '0')}`,
    ownerId: OWNER,
    subjectId: HUMAN,
    kind,
    text,
    dedupeKey: `snap_${i}_${randomBytes(3).toString('hex')}`,
    importance: 0.3 + (i % 7) / 10,
    sources: { dialogueId: origin.dialogueId },
    origin,
    ...(i % 5 === 0 ? { visibility: 'shared' as const } : {}),
    embedding: toMemoryEmbedding(embedder.id, vector!),
    occurredAt: at,
    status: 'active',
    recall: { count: 0 },
    createdAt: at,
    updatedAt: at,
  };
}

async function seed(): Promise<MemoryEntry[]> {
  const all = await Promise.all(TEXTS.map(([kind, text], i) => memory(i, text, kind, i % 3 === 2 ? GROUP : PRIVATE)));
  await store.memories.insertMany(all);
  return all;
}

/** A process's memory index: with the store's snapshots (the deployment), or listing only. */
function processCache(o: { snapshots?: boolean } = {}) {
  const counter = { lists: 0 };
  const cache = new IndexCache({
    store: {
      memories: {
        list: (s, opts) => (counter.lists++, store.memories.list(s, opts)),
        setEmbedding: (id, e) => store.memories.setEmbedding(id, e),
        getMany: (ids) => store.memories.getMany(ids),
      },
      memoryScopes: store.memoryScopes,
      ...(o.snapshots === false ? {} : { memorySnapshots: store.memorySnapshots }),
    },
    embedder,
    versions,
    log,
    snapshotMinEntries: 1,
  });
  const recall = new MemoryRecall({
    store: { memories: { noteRecalled: () => Promise.resolve() } },
    embedder,
    cache,
    log,
  });
  return { cache, counter, recall };
}

const QUESTIONS = [
  'Where do I live?',
  "What's my dog called?",
  '我最喜欢吃什么？',
  'Who did I travel with?',
  'my sister',
];
const PLACES = [
  { dialogueId: PRIVATE.dialogueId, private: true },
  { dialogueId: GROUP.dialogueId, private: false },
];

/** Every question asked in every place: ids and scores, in order. */
async function answers(p: ReturnType<typeof processCache>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const place of PLACES)
    for (const message of QUESTIONS) {
      const r = await p.recall.recall({ ...scope, message, topK: 6, now: NOW, place, countRecall: false });
      out.push(r.memories.map((m) => [m.id, m.score.toFixed(9)]));
      out.push(r.standing);
    }
  return out;
}

const deps = () => ({ store, memoryVersions: versions, log });

describe('memory index snapshots', () => {
  it('a new process loads the snapshot, catches up from the change log, and recalls what a full load recalls', async () => {
    const seeded = await seed();
    const first = processCache();
    await first.cache.get(scope);
    expect(first.counter.lists).toBe(1);
    await first.cache.snapshotsWritten();
    const head = await store.memorySnapshots.head(scope);
    expect(head).toMatchObject({ count: TEXTS.length, version: '0', embedderId: embedder.id });

    // Changes after the snapshot, each bumped with its ids as the writers do.
    const added = await memory(50, 'User adopted a parrot named Kiwi', 'fact', PRIVATE);
    await store.memories.insertOnce(added);
    await versions.bump(scope, [added._id]);
    const rewritten = seeded[1]!;
    await store.memories.updateText(
      rewritten._id,
      { text: 'User has a dog named Pepper', dedupeKey: 'snap_pepper' },
      NOW,
    );
    await versions.bump(scope, [rewritten._id]);
    const retired = seeded[3]!;
    await retireMemory(deps(), retired._id, NOW);
    const deleted = seeded[4]!;
    await store.c.memories.deleteOne({ _id: deleted._id });
    await versions.bump(scope, [deleted._id]);
    const madePrivate = seeded[0]!; // learned in the private chat, shared by an operator
    expect(madePrivate).toMatchObject({ visibility: 'shared', origin: PRIVATE });
    await setMemoryVisibility(deps(), madePrivate._id, 'origin', NOW);

    // A cold process: the snapshot and the logged ids by `_id`, no listing.
    const cold = processCache();
    watch.start();
    const index = await cold.cache.get(scope);
    watch.stop();
    expect(cold.counter.lists).toBe(0);
    const reads = watch.seen.splice(0);
    expect(reads.filter((c) => c.cls !== 'idOnly')).toEqual([]);
    expect(reads.some((c) => c.shape.startsWith('memorySnapshots find'))).toBe(true);

    expect(index.has(added._id)).toBe(true);
    expect(index.get(rewritten._id)?.text).toBe('User has a dog named Pepper');
    expect(index.has(retired._id)).toBe(false);
    expect(index.has(deleted._id)).toBe(false);
    expect(index.get(madePrivate._id)?.visibility).toBe('origin');

    const listed = processCache({ snapshots: false });
    expect(await answers(cold)).toEqual(await answers(listed));
    expect(listed.counter.lists).toBe(1);
    // Made private in the person's private chat: never recalled in the group again.
    const inGroup = await cold.recall.recall({
      ...scope,
      message: 'Berlin sister',
      topK: 6,
      now: NOW,
      place: PLACES[1]!,
      countRecall: false,
    });
    expect(inGroup.memories.map((m) => m.id)).not.toContain(madePrivate._id);
    const flat = JSON.stringify(await answers(cold));
    for (const gone of [retired._id, deleted._id]) expect(flat).not.toContain(gone);
  });

  it('falls back to a full load when the snapshot is missing, damaged, of an older format or out of the log’s reach, and writes a fresh one', async () => {
    await seed();
    const writer = processCache();
    await writer.cache.get(scope);
    await writer.cache.snapshotsWritten();
    const expected = await answers(processCache({ snapshots: false }));
    const headId = snapshotHeadIdOf(scope);

    const damage: Array<[string, () => Promise<unknown>]> = [
      [
        'damaged part',
        async () => {
          const head = await store.memorySnapshots.head(scope);
          if (!head || head === 'corrupt') throw new Error('no head');
          await store.c.memorySnapshots.updateOne(
            { _id: head.parts[0]! },
            { $set: { data: new Binary(randomBytes(64)) } },
          );
        },
      ],
      ['older format', () => store.c.memorySnapshots.updateOne({ _id: headId }, { $set: { format: 0 } })],
      ['unreadable head', () => store.c.memorySnapshots.updateOne({ _id: headId }, { $set: { parts: 'x' as never } })],
      ['missing', () => store.c.memorySnapshots.deleteOne({ _id: headId })],
      [
        'out of reach',
        async () => {
          for (let i = 0; i <= CHANGE_LOG_KEEP; i++) await versions.bump(scope, ['mem_none']);
        },
      ],
    ];
    for (const [what, harm] of damage) {
      await harm();
      const p = processCache();
      expect(await answers(p), what).toEqual(expected);
      expect(p.counter.lists, what).toBe(1);
      await p.cache.snapshotsWritten();
      // The fresh snapshot serves the next process without a listing.
      const next = processCache();
      expect(await answers(next), what).toEqual(expected);
      expect(next.counter.lists, what).toBe(0);
    }
  });

  it("deleting a person's memories drops the snapshot, even when the version bump is lost", async () => {
    await seed();
    const writer = processCache();
    await writer.cache.get(scope);
    await writer.cache.get({ ownerId: OWNER }); // the owner-wide index has its own snapshot
    await writer.cache.snapshotsWritten();
    expect(await store.memorySnapshots.head(scope)).toBeDefined();
    expect(await store.memorySnapshots.head({ ownerId: OWNER })).toBeDefined();

    await store.memories.guarded(scope, () => store.memories.deleteScope(scope)); // no bump
    expect(await store.memorySnapshots.head(scope)).toBeUndefined();
    expect(await store.memorySnapshots.head({ ownerId: OWNER })).toBeUndefined();
    expect(await store.c.memorySnapshots.countDocuments({})).toBe(0); // parts too
    const cold = processCache();
    expect((await cold.cache.get(scope)).size).toBe(0);
    expect((await cold.cache.get({ ownerId: OWNER })).size).toBe(0);
  });

  it('is rewritten once the scope has moved far past it, and not by a process whose snapshot is current', async () => {
    await seed();
    const writer = processCache();
    await writer.cache.get(scope);
    await writer.cache.snapshotsWritten();
    const before = await store.memorySnapshots.head(scope);
    // Another process loading from it writes nothing.
    const reader = processCache();
    await reader.cache.get(scope);
    await reader.cache.snapshotsWritten();
    expect(await store.memorySnapshots.head(scope)).toEqual(before);
    for (let i = 0; i < 70; i++) await versions.bump(scope, [`mem_snap_00${i % 10}`]);
    await reader.cache.get(scope);
    await reader.cache.snapshotsWritten();
    const after = await store.memorySnapshots.head(scope);
    expect(after).toMatchObject({ version: '70', count: TEXTS.length });
  });
});
