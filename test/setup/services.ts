// Global test setup: a real MongoDB-wire server (MONGODB_URI when reachable, else a local
// FerretDB built and started here) and a real Redis. Each test file then uses its own
// database name and queue prefix, so files run in parallel without seeing each other.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureLocalServices } from '../../src/localServices/index.js';
import { projectRoot } from '../../src/localServices/ferretdb.js';
import { freePort } from '../../src/localServices/reachability.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(join(projectRoot, '.local'), { recursive: true }); // absent on a fresh clone
  const dataDir = mkdtempSync(join(projectRoot, '.local', 'test-ferretdb-'));
  const services = await ensureLocalServices({
    mongoUri: process.env.MONGODB_URI,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    dataDir,
    mongoPort: await freePort(),
    probeDefaultMongo: false,
    ...(process.env.LOCAL_FERRETDB_POSTGRES_URL ? { ferretPostgresUrl: process.env.LOCAL_FERRETDB_POSTGRES_URL } : {}),
    log: (line) => process.stdout.write(`[test services] ${line}\n`),
  });
  project.provide('mongoUri', services.mongoUri);
  project.provide('redisUrl', services.redisUrl);
  return async () => {
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
