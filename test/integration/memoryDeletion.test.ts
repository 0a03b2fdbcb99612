// BR-006 reaches warm memory indexes: after an operator deletes a dialogue, the memories learnt in
// it are no longer recalled — neither by a worker's index loaded before the deletion (another
// process, told through the Redis versions) nor by the API's own memory search — while the same
// human's memories from another dialogue still are.
import { dialogueRecord } from '../support/records.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { createLogger } from '../../src/log.js';
import type { Human, MemoryEntry } from '../../src/domain/model.js';
import { DEFAULT_AGENT_ID } from '../../src/store/participants.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../../src/memory/indexCache.js';
import { MemoryRecall, type RecallResult } from '../../src/memory/recall.js';
import { RedisMemoryVersions } from '../../src/memory/versions.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';

const HUMAN = 'hum_del';
const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
const DELETE = 'mutation ($id: ID!) { deleteDialogue(id: $id) { found deleted { memories } } }';
const SEARCH =
  'query ($o: ID!, $s: ID, $t: String!) { searchMemories(ownerId: $o, subjectId: $s, text: $t, limit: 10) { hits { memory { id } } } }';

describe('deleting a dialogue and the memory indexes', () => {
  let h: Harness;
  let redis: Redis;
  const embedder = new HashedNgramEmbedder(256);
  let seq = 0;

  beforeAll(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline', EMBEDDING_DIMS: '256' }, ['api']);
    redis = new Redis(h.env.REDIS_URL, { maxRetriesPerRequest: null });
    const at = new Date();
    await h.app.store.c.humans.insertOne({
      _id: HUMAN,
      displayName: 'Dee',
      identities: [{ platform: 'telegram', userId: '4242' }],
      createdAt: at,
      updatedAt: at,
    } satisfies Human);
  }, 60_000);
  afterAll(async () => {
    const keys = await redis.keys(`${h.env.QUEUE_PREFIX}:memv:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await h.stop();
  });

  async function seedDialogue(id: string): Promise<void> {
    const at = new Date();
    await h.app.store.c.dialogues.insertOne(
      dialogueRecord({
        id,
        humanIds: [HUMAN],
        agentIds: [DEFAULT_AGENT_ID],
        at,
        chatId: `8${Math.floor(Math.random() * 1e6)}`,
      }),
    );
  }

  /** A memory about HUMAN learnt in `dialogueId` (its vector stored, as extraction stores it). */
  async function seedMemory(dialogueId: string, text: string): Promise<string> {
    const at = new Date(Date.now() - 3_600_000);
    const id = `mem_del_${++seq}`;
    const [vector] = await embedder.embed([text]);
    await h.app.store.memories.insertMany([
      {
        _id: id,
        ownerId: DEFAULT_AGENT_ID,
        subjectId: HUMAN,
        kind: 'fact',
        text,
        dedupeKey: `dk_${id}`,
        embedding: toMemoryEmbedding(embedder.id, vector!),
        importance: 0.6,
        sources: { dialogueId, sessionId: `ses_${dialogueId}` },
        occurredAt: at,
        status: 'active',
        recall: { count: 0 },
        createdAt: at,
        updatedAt: at,
      } satisfies MemoryEntry,
    ]);
    return id;
  }

  /** A worker's recall: its own per-process index, on the deployment's Redis versions. */
  function workerRecall(): { ask(message: string): Promise<string[]>; lists: number } {
    const counter = { lists: 0 };
    const memories: ConstructorParameters<typeof IndexCache>[0]['store']['memories'] = {
      list: (scope, o) => {
        counter.lists++;
        return h.app.store.memories.list(scope, o);
      },
      setEmbedding: (id, e) => h.app.store.memories.setEmbedding(id, e),
      getMany: (ids) => h.app.store.memories.getMany(ids),
    };
    const cache = new IndexCache({
      store: { memories },
      embedder,
      versions: new RedisMemoryVersions(redis, `${h.env.QUEUE_PREFIX}:`),
      log,
    });
    const recall = new MemoryRecall({
      store: { memories: { noteRecalled: () => Promise.resolve() } },
      embedder,
      cache,
      log,
    });
    return {
      get lists() {
        return counter.lists;
      },
      ask: async (message) =>
        ids(
          await recall.recall({
            ownerId: DEFAULT_AGENT_ID,
            subjectId: HUMAN,
            message,
            topK: 10,
            now: new Date(),
            countRecall: false,
          }),
        ),
    };
  }
  const ids = (r: RecallResult): string[] => r.memories.map((m) => m.id);

  async function search(text: string): Promise<string[]> {
    const r = await h.gql<{ searchMemories: { hits: Array<{ memory: { id: string } }> } }>(SEARCH, {
      o: DEFAULT_AGENT_ID,
      s: HUMAN,
      t: text,
    });
    expect(r.body.errors).toBeUndefined();
    return r.body.data!.searchMemories.hits.map((x) => x.memory.id);
  }

  it("a warm index stops recalling the deleted dialogue's memories and keeps the other dialogue's", async () => {
    await seedDialogue('dlg_del_a');
    await seedDialogue('dlg_del_b');
    const cat = await seedMemory('dlg_del_a', 'User has a cat named Mochi');
    const flat = await seedMemory('dlg_del_a', 'User lives in a flat in Berlin');
    const dog = await seedMemory('dlg_del_b', 'User has a dog named Rex');

    // Warm: the worker's index and the API's own (through the operators' memory search).
    const worker = workerRecall();
    expect((await worker.ask('Do I have a cat? What is its name?'))[0]).toBe(cat);
    expect(await worker.ask('Tell me about my pets: cat, dog')).toEqual(expect.arrayContaining([cat, dog]));
    expect(await search('cat named Mochi')).toContain(cat);
    const listsWarm = worker.lists;

    const r = await h.gql<{ deleteDialogue: { found: boolean; deleted: { memories: number } } }>(DELETE, {
      id: 'dlg_del_a',
    });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.deleteDialogue).toEqual({ found: true, deleted: { memories: 2 } });

    const after = await worker.ask('Tell me about my pets: cat, dog');
    expect(after).not.toContain(cat);
    expect(after).not.toContain(flat);
    expect(after).toContain(dog);
    expect(await worker.ask('Where do I live? Berlin?')).not.toContain(flat);
    expect(worker.lists).toBeGreaterThan(listsWarm); // the same warm cache, brought up to date

    const searched = await search('cat named Mochi, dog named Rex');
    expect(searched).not.toContain(cat);
    expect(searched).toContain(dog);
  });

  it('a version that moves without a deletion costs no full reload', async () => {
    await seedDialogue('dlg_del_c');
    const tea = await seedMemory('dlg_del_c', 'User drinks green tea every afternoon');
    const worker = workerRecall();
    expect((await worker.ask('What do I drink in the afternoon? tea?'))[0]).toBe(tea);
    const lists = worker.lists;

    const coffee = await seedMemory('dlg_del_c', 'User drinks black coffee in the morning');
    await new RedisMemoryVersions(redis, `${h.env.QUEUE_PREFIX}:`).bump({
      ownerId: DEFAULT_AGENT_ID,
      subjectId: HUMAN,
    });
    expect(await worker.ask('What do I drink? coffee? tea?')).toEqual(expect.arrayContaining([tea, coffee]));
    expect(worker.lists).toBe(lists + 1); // the incremental list only
  });
});
