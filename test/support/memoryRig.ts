// What the tests of the background memory tasks share: the real store on a database of their
// own, the fake OpenAI server as the model, Redis for the memory versions, and the
// MemoryTaskDeps every task takes (a fresh per-owner vector cache each time it is asked for).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import type { Collection, Document } from 'mongodb';
import { inject } from 'vitest';
import { createLogger, type Logger } from '../../src/log.js';
import { Store } from '../../src/store/store.js';
import { createLlmClient } from '../../src/llm/createClient.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../../src/memory/indexCache.js';
import { RedisMemoryVersions } from '../../src/memory/versions.js';
import type { MemoryTaskDeps } from '../../src/memory/taskDeps.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';

export interface MemoryRig {
  store: Store;
  llm: FakeOpenAI;
  log: Logger;
  /** Deps for one test: the fake model, the offline embedder and a new cache on its own version prefix. */
  taskDeps(): MemoryTaskDeps;
  /** Empties every collection (between tests). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export async function startMemoryRig(): Promise<MemoryRig> {
  const store = await Store.connect(inject('mongoUri'), `test_${randomBytes(4).toString('hex')}`);
  const llm = await startFakeOpenAI();
  const redis = new Redis(inject('redisUrl'));
  const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const embedder = new HashedNgramEmbedder(256);
  const model = createLlmClient('chat', new OpenAI({ apiKey: 'test', baseURL: llm.baseURL, maxRetries: 0 }));
  return {
    store,
    llm,
    log,
    taskDeps: () => ({
      store,
      llm: model,
      model: 'gpt-4o-mini',
      timeoutMs: 10_000,
      embedder,
      cache: new IndexCache({
        store,
        embedder,
        versions: new RedisMemoryVersions(redis, `test-${randomBytes(4).toString('hex')}:`),
        log,
        maxScopes: 10,
      }),
      log,
      config: async () => (await store.config.get()).config,
    }),
    async clear() {
      await Promise.all(Object.values(store.c).map((coll: Collection<Document>) => coll.deleteMany({})));
    },
    async close() {
      await store.db.dropDatabase();
      await store.close();
      await llm.close();
      redis.disconnect();
    },
  };
}
