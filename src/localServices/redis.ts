// Starts a throwaway redis-server when none is reachable, installing it from Debian's
// packages if it is missing and we may (root). Dev and tests only.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { exitOf, stopChild } from './ferretdb.js';
import { redisReachable, waitUntil } from './reachability.js';

export interface RunningRedis {
  url: string;
  stop: () => Promise<void>;
  exited: Promise<number | null>;
  pid: number | undefined;
}

function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

function installRedis(log: (line: string) => void): void {
  if (process.getuid?.() !== 0) return;
  log('redis-server is missing: installing it from Debian packages');
  spawnSync('apt-get', ['update'], { stdio: 'ignore' });
  spawnSync('apt-get', ['install', '-y', 'redis-server'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/**
 * `dataDir`: keep the data there with AOF, fsync on every write (what production should run), so a
 * restarted server still has the queues; absent, nothing is kept (a throwaway server).
 */
export async function startRedis(opts: {
  port: number;
  dataDir?: string;
  log?: (line: string) => void;
}): Promise<RunningRedis> {
  const log = opts.log ?? (() => {});
  if (!haveRedisServer()) installRedis(log);
  if (!haveRedisServer()) {
    throw new Error(
      'No Redis reachable and redis-server is not installed. Set REDIS_URL to a running Redis, ' +
        'install redis-server, or run `docker compose up -d mongo redis`.',
    );
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const persistence = opts.dataDir
    ? ['--dir', opts.dataDir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '']
    : ['--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', ['--port', String(opts.port), '--bind', '127.0.0.1', ...persistence], {
    stdio: 'ignore',
  });
  const exited = exitOf(child);
  const url = `redis://127.0.0.1:${opts.port}`;
  await waitUntil(() => redisReachable(url), 10_000, `redis-server on port ${opts.port} did not start`);
  return { url, stop: () => stopChild(child), exited, pid: child.pid };
}
