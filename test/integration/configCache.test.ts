// The config every turn uses, kept per process behind a shared write mark in Redis: repeated
// reads cost no store command, a write through any process is seen by the others on their next
// read, a Redis that lost its keys makes them read again, and a write that bypasses the mark
// (an edit by hand in the database) is seen once the cached copy is older than its age limit.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { Store } from '../../src/store/store.js';
import { RedisConfigMark } from '../../src/store/redisConfigMark.js';
import { CONFIG_ID, ConfigRepo } from '../../src/store/config.js';
import { watchCommands, withCommandMonitoring } from '../support/commandWatch.js';

const dbName = `test_${randomBytes(4).toString('hex')}`;
const prefix = `cfgtest-${randomBytes(3).toString('hex')}`;
let redis: Redis;
let a: Store;
let b: Store;

beforeAll(async () => {
  redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  const mark = () => new RedisConfigMark(redis, prefix, dbName);
  a = await Store.connect(withCommandMonitoring(inject('mongoUri')), dbName, { configMark: mark() });
  b = await Store.connect(inject('mongoUri'), dbName, { configMark: mark() });
});
afterAll(async () => {
  await a.db.dropDatabase();
  await redis.del(`${prefix}:config:mark:${dbName}`);
  await Promise.all([a.close(), b.close(), redis.quit()]);
});

describe('config cache', () => {
  it('reads the store once, then again only after a write by another process', async () => {
    const watch = watchCommands(a.client, dbName);
    watch.start();
    expect((await a.config.get()).config.thresholds.recall_top_k).toBe(5);
    await a.config.get();
    await a.config.get();
    expect(watch.seen.filter((c) => c.shape.startsWith('config find'))).toHaveLength(1);

    await b.config.update({ thresholds: { recall_top_k: 3 } }, new Date(), 'ops');
    expect((await a.config.get()).config.thresholds.recall_top_k).toBe(3);
    expect(watch.seen.filter((c) => c.shape.startsWith('config find'))).toHaveLength(2);
    watch.stop();
  });

  it('hands out a frozen config, so no caller can change what the others read', async () => {
    const c = await a.config.get();
    expect(() => {
      (c.config.thresholds as { recall_top_k: number }).recall_top_k = 99;
    }).toThrow(TypeError);
    expect((await a.config.get()).config.thresholds.recall_top_k).toBe(3);
  });

  it('reads again when Redis lost the mark (a restart without persistence)', async () => {
    await a.config.get();
    await a.c.config.updateOne({ _id: CONFIG_ID }, { $set: { 'thresholds.recall_top_k': 4 } });
    await redis.del(`${prefix}:config:mark:${dbName}`);
    expect((await a.config.get()).config.thresholds.recall_top_k).toBe(4);
  });

  it('sees an edit that bypassed the mark once its copy is older than the age limit', async () => {
    const repo = new ConfigRepo(a.c.config, new RedisConfigMark(redis, prefix, dbName), 200);
    expect((await repo.get()).config.thresholds.recall_top_k).toBe(4);
    await a.c.config.updateOne({ _id: CONFIG_ID }, { $set: { 'thresholds.recall_top_k': 6 } });
    expect((await repo.get()).config.thresholds.recall_top_k).toBe(4); // still the cached copy
    await new Promise((r) => setTimeout(r, 250));
    expect((await repo.get()).config.thresholds.recall_top_k).toBe(6);
  });
});
