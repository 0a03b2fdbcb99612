// Decides, for `npm start` and the test suite, whether to use the configured MongoDB and
// Redis or to start local stand-ins (FerretDB, redis-server) owned by this process.
import { join } from 'node:path';
import { startFerretDB, projectRoot } from './ferretdb.js';
import { startRedis } from './redis.js';
import { freePort, mongoReachable, portFree, redisReachable } from './reachability.js';

export interface LocalServices {
  mongoUri: string;
  redisUrl: string;
  /** Which stand-ins this process started (and will stop). */
  started: Array<'ferretdb' | 'redis'>;
  stop: () => Promise<void>;
}

export interface LocalServicesOptions {
  mongoUri: string | undefined;
  redisUrl: string;
  /** Where FerretDB keeps its sqlite files. */
  dataDir?: string;
  /** Use FerretDB's postgresql handler on this existing database instead of sqlite files. */
  ferretPostgresUrl?: string;
  /** Preferred port for a started FerretDB; a free one is picked when taken. */
  mongoPort?: number;
  log?: (line: string) => void;
  /** Whether to look for a server on the default port before starting one (off in tests). */
  probeDefaultMongo?: boolean;
}

const DEFAULT_LOCAL_MONGO = 'mongodb://127.0.0.1:27017/';
const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host);

export async function ensureLocalServices(opts: LocalServicesOptions): Promise<LocalServices> {
  const log = opts.log ?? (() => {});
  const stops: Array<() => Promise<void>> = [];
  const started: LocalServices['started'] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    // With no MONGODB_URI, a server already on the default local port (a local mongod, or a
    // FerretDB from an earlier run) is used rather than starting a second one on the same data.
    let mongoUri = opts.mongoUri ?? (opts.probeDefaultMongo === false ? undefined : DEFAULT_LOCAL_MONGO);
    if (!mongoUri || !(await mongoReachable(mongoUri))) {
      if (mongoUri) log(`MONGODB_URI is not reachable; starting the local FerretDB server instead`);
      const preferred = opts.mongoPort ?? 27017;
      const port = (await portFree(preferred)) ? preferred : await freePort();
      const fdb = await startFerretDB({
        port,
        dataDir: opts.dataDir ?? join(projectRoot, '.local', 'ferretdb'),
        ...(opts.ferretPostgresUrl ? { postgresUrl: opts.ferretPostgresUrl } : {}),
        log,
      });
      stops.push(fdb.stop);
      started.push('ferretdb');
      mongoUri = fdb.uri;
      log(`local FerretDB listening at ${fdb.uri}`);
    }

    let redisUrl = opts.redisUrl;
    if (!(await redisReachable(redisUrl))) {
      const u = new URL(redisUrl);
      if (!isLoopback(u.hostname)) {
        throw new Error(
          `REDIS_URL (${u.host}) is not reachable. Start Redis there or run \`docker compose up -d redis\`.`,
        );
      }
      const preferred = Number(u.port || 6379);
      const port = (await portFree(preferred)) ? preferred : await freePort();
      const redis = await startRedis({ port, log });
      stops.push(redis.stop);
      started.push('redis');
      redisUrl = redis.url;
      log(`local redis-server listening at ${redis.url}`);
    }
    return { mongoUri, redisUrl, started, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
