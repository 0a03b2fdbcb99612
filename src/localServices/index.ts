// Decides, for `npm start` and the test suite, whether to use the configured MongoDB and
// Redis or to start local stand-ins (FerretDB, redis-server) owned by this process.
import { join } from 'node:path';
import { startFerretDB, projectRoot } from './ferretdb.js';
import { startRedis } from './redis.js';
import { supervise, type Supervised } from './supervisor.js';
import { freePort, mongoReachable, portFree, redisReachable } from './reachability.js';

export interface LocalServices {
  mongoUri: string;
  redisUrl: string;
  /** Which stand-ins this process started (and will stop). */
  started: Array<'ferretdb' | 'redis'>;
  /** The started stand-ins, kept running (restarted when they die). */
  supervised: Partial<Record<'ferretdb' | 'redis', Supervised>>;
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
  /** Where a started redis-server keeps its data (AOF, fsync always); absent: nothing is kept. */
  redisDataDir?: string;
}

const DEFAULT_LOCAL_MONGO = 'mongodb://127.0.0.1:27017/';
const DEFAULT_MONGO_PORT = 27017;
const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host);

export async function ensureLocalServices(opts: LocalServicesOptions): Promise<LocalServices> {
  const log = opts.log ?? (() => {});
  const stops: Array<() => Promise<void>> = [];
  const started: LocalServices['started'] = [];
  const supervised: LocalServices['supervised'] = {};
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    // With no MONGODB_URI, a server already on the default local port (a local mongod, or a
    // FerretDB from an earlier run) is used rather than starting a second one on the same data.
    let mongoUri = opts.mongoUri ?? (opts.probeDefaultMongo === false ? undefined : DEFAULT_LOCAL_MONGO);
    if (!mongoUri || !(await mongoReachable(mongoUri))) {
      const port = await localMongoPort(opts, log);
      const dataDir = opts.dataDir ?? join(projectRoot, '.local', 'ferretdb');
      let uri = '';
      const fdb = await supervise({
        name: 'the local FerretDB server',
        log,
        start: async () => {
          const run = await startFerretDB({
            port,
            dataDir,
            ...(opts.ferretPostgresUrl ? { postgresUrl: opts.ferretPostgresUrl } : {}),
            log,
          });
          uri = run.uri;
          return run;
        },
      });
      stops.push(() => fdb.stop());
      started.push('ferretdb');
      supervised.ferretdb = fdb;
      mongoUri = uri;
      log(`local FerretDB listening at ${uri}`);
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
      const redis = await supervise({
        name: 'the local redis-server',
        log,
        start: () => startRedis({ port, log, ...(opts.redisDataDir ? { dataDir: opts.redisDataDir } : {}) }),
      });
      stops.push(() => redis.stop());
      started.push('redis');
      supervised.redis = redis;
      redisUrl = `redis://127.0.0.1:${port}`;
      log(`local redis-server listening at ${redisUrl}`);
    }
    return { mongoUri, redisUrl, started, supervised, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The port a local FerretDB takes. A configured MONGODB_URI that does not answer names where the
 * server should be: on this machine its port is honoured (and must be free), anywhere else there
 * is nothing we can start. With none configured, the preferred port or a free one.
 */
async function localMongoPort(opts: LocalServicesOptions, log: (line: string) => void): Promise<number> {
  if (opts.mongoUri) {
    const target = hostPortOf(opts.mongoUri);
    if (!target || !isLoopback(target.host))
      throw new Error(
        `MONGODB_URI (${target ? `${target.host}:${target.port}` : 'unparsed'}) is not reachable. Start MongoDB there, or run \`docker compose up -d mongo\`.`,
      );
    if (!(await portFree(target.port)))
      throw new Error(
        `MONGODB_URI names 127.0.0.1:${target.port}, where something listens that does not answer as MongoDB; free the port or change MONGODB_URI.`,
      );
    log(`MONGODB_URI is not reachable; starting the local FerretDB server on its port ${target.port}`);
    return target.port;
  }
  const preferred = opts.mongoPort ?? DEFAULT_MONGO_PORT;
  return (await portFree(preferred)) ? preferred : freePort();
}

/** The first host and port of a mongodb:// URI (a +srv URI names no port: none). */
function hostPortOf(uri: string): { host: string; port: number } | null {
  const m = /^mongodb:\/\/(?:[^@/]*@)?([^/?,]+)/.exec(uri);
  if (!m?.[1]) return null;
  const hostPort = m[1];
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostPort);
  if (bracket?.[1]) return { host: `[${bracket[1]}]`, port: Number(bracket[2] ?? DEFAULT_MONGO_PORT) };
  const [host, port] = hostPort.split(':');
  return host ? { host, port: Number(port ?? DEFAULT_MONGO_PORT) } : null;
}
