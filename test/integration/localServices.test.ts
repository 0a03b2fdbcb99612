// The local stand-ins `npm start` runs when no MongoDB or Redis is reachable: killed, they come
// back on the same port with their data (FerretDB's SQLite files; redis-server's AOF, fsync
// always), and a configured but unreachable MONGODB_URI's port is honoured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureLocalServices, type LocalServices } from '../../src/localServices/index.js';
import { freePort } from '../../src/localServices/reachability.js';
import { eventually } from '../support/testEnv.js';

const dir = mkdtempSync(join(tmpdir(), 'rgw-local-'));
const running: LocalServices[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(o: { mongoUri?: string; redisPort: number }): Promise<LocalServices> {
  const s = await ensureLocalServices({
    mongoUri: o.mongoUri,
    redisUrl: `redis://127.0.0.1:${o.redisPort}`,
    dataDir: join(dir, `ferretdb-${running.length}`),
    redisDataDir: join(dir, `redis-${running.length}`),
    mongoPort: await freePort(),
    probeDefaultMongo: false,
  });
  running.push(s);
  return s;
}

describe('local services under faults', () => {
  it('starts a killed FerretDB and redis-server again, with their data', async () => {
    const s = await start({ redisPort: await freePort() });
    expect(s.started).toEqual(['ferretdb', 'redis']);
    const mongo = new MongoClient(s.mongoUri, { serverSelectionTimeoutMS: 20_000 });
    const redis = new Redis(s.redisUrl, { maxRetriesPerRequest: null });
    redis.on('error', () => {}); // refused while it is down: expected here
    try {
      await mongo.db('faults').collection<{ _id: string }>('kept').insertOne({ _id: 'before-the-kill' });
      await redis.set('kept', 'before-the-kill');

      process.kill(s.supervised.ferretdb!.pid!, 'SIGKILL');
      process.kill(s.supervised.redis!.pid!, 'SIGKILL');
      await eventually(
        () => Promise.resolve(s.supervised.ferretdb!.restarts === 1 && s.supervised.redis!.restarts === 1),
        30_000,
        'both servers started again',
      );
      expect(await mongo.db('faults').collection<{ _id: string }>('kept').findOne({ _id: 'before-the-kill' })).toEqual({
        _id: 'before-the-kill',
      });
      expect(await redis.get('kept')).toBe('before-the-kill');
    } finally {
      redis.disconnect();
      await mongo.close();
    }
  });

  it('honours the port of a configured MONGODB_URI that does not answer, and refuses one elsewhere', async () => {
    const port = await freePort();
    const s = await start({ mongoUri: `mongodb://127.0.0.1:${port}/app`, redisPort: await freePort() });
    expect(s.mongoUri).toContain(`:${port}`);
    await expect(
      ensureLocalServices({ mongoUri: 'mongodb://db.invalid:27017/app', redisUrl: s.redisUrl }),
    ).rejects.toThrow(/MONGODB_URI \(db\.invalid:27017\) is not reachable/);
  });
});
