// The MongoDB-wire server and Redis both sides of the benchmark share: configured ones when
// reachable, else local FerretDB / redis-server started (and stopped) by this process.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { ensureLocalServices } from '../src/localServices/index.js';
import { projectRoot } from '../src/localServices/ferretdb.js';
import { freePort } from '../src/localServices/reachability.js';

export interface BenchServices {
  mongoUri: string;
  redisUrl: string;
  /** Which server answered, e.g. "MongoDB 7.0.14 at db.internal:27017" (never credentials). */
  mongoLabel: string;
  redisLabel: string;
  /** The servers this process started, e.g. "FerretDB + redis-server"; '' when it started none. */
  startedLabel: string;
  /** The FerretDB process this one started (its CPU is part of a capacity figure); none otherwise. */
  readonly mongoPid: number | undefined;
  stop(): Promise<void>;
}

/** host[:port][,host…] of a mongodb:// or mongodb+srv:// URI, without user and password. */
const hostsOf = (uri: string): string =>
  /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?]+)/.exec(uri)?.[1] ?? '(unparsed URI)';

async function describeMongo(uri: string, startedHere: boolean): Promise<string> {
  const host = hostsOf(uri);
  const client = await MongoClient.connect(uri);
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    // FerretDB answers buildInfo with a MongoDB version plus its own ferretdbVersion field.
    const name =
      'ferretdbVersion' in info
        ? `FerretDB (ferretdbVersion ${String(info.ferretdbVersion)}, speaks MongoDB ${String(info.version)})`
        : `MongoDB ${String(info.version)}`;
    return `${name}${startedHere ? ' (started here)' : ''} at ${host}`;
  } finally {
    await client.close();
  }
}

export async function startBenchServices(log: (line: string) => void): Promise<BenchServices> {
  mkdirSync(join(projectRoot, '.local'), { recursive: true });
  const dataDir = mkdtempSync(join(projectRoot, '.local', 'bench-ferretdb-'));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    const s = await ensureLocalServices({
      mongoUri: process.env.MONGODB_URI,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      dataDir,
      mongoPort: await freePort(),
      probeDefaultMongo: false,
      ...(process.env.LOCAL_FERRETDB_POSTGRES_URL
        ? { ferretPostgresUrl: process.env.LOCAL_FERRETDB_POSTGRES_URL }
        : {}),
      log,
    });
    const stop = async () => {
      await s.stop();
      removeDataDir();
    };
    try {
      return {
        mongoUri: s.mongoUri,
        redisUrl: s.redisUrl,
        mongoLabel: await describeMongo(s.mongoUri, s.started.includes('ferretdb')),
        redisLabel: `${new URL(s.redisUrl).host}${s.started.includes('redis') ? ' (redis-server started here)' : ''}`,
        startedLabel: s.started
          .map((x) =>
            x === 'ferretdb'
              ? `FerretDB (${process.env.LOCAL_FERRETDB_POSTGRES_URL ? 'postgresql' : 'sqlite'} handler)`
              : 'redis-server',
          )
          .join(' + '),
        get mongoPid() {
          return s.supervised.ferretdb?.pid;
        },
        stop,
      };
    } catch (err) {
      await stop();
      throw err;
    }
  } catch (err) {
    removeDataDir(); // a no-op when stop() already removed it
    throw err;
  }
}
