// The config and the agents every turn uses, kept per process behind a shared write mark in
// Redis: repeated reads cost no store command, a write through any process is seen by the others
// on their next read, a Redis that lost its keys makes them read again, and a write that bypasses
// the mark (an edit by hand in the database) is seen once the cached copy is older than its age limit.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { Store } from '../../src/store/store.js';
import { RedisWriteMark } from '../../src/store/redisWriteMark.js';
import { CONFIG_ID, ConfigRepo } from '../../src/store/config.js';
import { watchCommands, withCommandMonitoring } from '../support/commandWatch.js';

const dbName = `test_${randomBytes(4).toString('hex')}`;
const prefix = `cfgtest-${randomBytes(3).toString('hex')}`;
let redis: Redis;
let a: Store;
let b: Store;

beforeAll(async () => {
  redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  const marks = () => ({
    configMark: new RedisWriteMark(redis, { prefix, dbName, kind: 'config' }),
    agentMark: new RedisWriteMark(redis, { prefix, dbName, kind: 'agents' }),
  });
  a = await Store.connect(withCommandMonitoring(inject('mongoUri')), dbName, marks());
  b = await Store.connect(inject('mongoUri'), dbName, marks());
});
afterAll(async () => {
  await a.db.dropDatabase();
  await redis.del(`${prefix}:config:mark:${dbName}`, `${prefix}:agents:mark:${dbName}`);
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
    const repo = new ConfigRepo(a.c.config, new RedisWriteMark(redis, { prefix, dbName, kind: 'config' }), 200);
    expect((await repo.get()).config.thresholds.recall_top_k).toBe(4);
    await a.c.config.updateOne({ _id: CONFIG_ID }, { $set: { 'thresholds.recall_top_k': 6 } });
    expect((await repo.get()).config.thresholds.recall_top_k).toBe(4); // still the cached copy
    await new Promise((r) => setTimeout(r, 250));
    expect((await repo.get()).config.thresholds.recall_top_k).toBe(6);
  });
});

describe('agent cache', () => {
  const agentReads = (watch: ReturnType<typeof watchCommands>) =>
    watch.seen.filter((c) => c.shape.startsWith('agents find')).length;

  it('reads an agent once per change: a persona or mood written by another process shows at once', async () => {
    await b.participants.createAgent({ _id: 'agt_cache', name: 'Kit', basePersona: 'You are Kit.' }, new Date());
    const watch = watchCommands(a.client, dbName);
    watch.start();
    expect((await a.participants.getAgent('agt_cache'))?.basePersona).toBe('You are Kit.');
    await a.participants.getAgent('agt_cache');
    expect(agentReads(watch)).toBe(1);

    const at = new Date();
    await b.participants.setEvolvedPersona('agt_cache', { text: 'Kit, now wiser.', at }, {});
    expect((await a.participants.getAgent('agt_cache'))?.evolvedPersona).toBe('Kit, now wiser.');
    const mood = { label: 'calm', valence: 0.4, arousal: 0.2 };
    await b.reflections.setInner('agt_cache', { mood, values: { honesty: 0.9 } }, 'ops', at);
    expect((await a.participants.getAgent('agt_cache'))?.inner?.mood).toEqual(mood);
    expect(agentReads(watch)).toBe(3);
    watch.stop();
  });

  it('is not read again for a reply counted towards evolution, and never carries that count', async () => {
    await a.participants.getAgent('agt_cache');
    const watch = watchCommands(a.client, dbName);
    watch.start();
    await b.participants.noteReplyForEvolve('agt_cache', new Date(), 'trn_cache_1');
    const agent = await a.participants.getAgent('agt_cache');
    expect(agentReads(watch)).toBe(0);
    watch.stop();
    expect(agent).not.toHaveProperty('repliesSinceEvolve');
    expect((await a.participants.getAgentEvolution('agt_cache'))?.repliesSinceEvolve).toBe(1);
  });
});
