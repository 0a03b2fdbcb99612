// The newcomer path (SPEC §12): `npm start` on a development machine with no operator token
// makes one admin token, keeps it (owner-only) and prints the console URL with it, and reuses
// it on the next start; in production nothing is made and the API refuses as before.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/localServices/reachability.js';
import { eventually } from '../support/testEnv.js';
import { runMain, type Child } from '../support/childProcess.js';

const dir = mkdtempSync(join(tmpdir(), 'rgw-newcomer-'));
const tokenFile = join(dir, 'state', 'admin-token');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(env: Record<string, string>): Promise<{ run: Child; port: number }> {
  const port = await freePort();
  const id = randomBytes(3).toString('hex');
  const run = runMain({
    LOG_LEVEL: 'warn',
    MONGODB_URI: inject('mongoUri'),
    MONGODB_DB: `test_newcomer_${id}`,
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: `test-newcomer-${id}`,
    PORT: String(port),
    ADMIN_TOKEN_FILE: tokenFile,
    ...env,
  });
  await eventually(
    async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200,
    30_000,
    '/readyz',
  );
  return { run, port };
}

const viewerQuery = (port: number, token: string) =>
  fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ agents { id } }' }),
  });

describe('the first start on a development machine', () => {
  it('makes an admin token, prints the console URL with it, and reuses it next time', async () => {
    const first = await start({ NODE_ENV: 'development' });
    let token: string;
    try {
      const line = await eventually(
        () => Promise.resolve(/Console: (http:\/\/\S+)\/#token=(\S+)/.exec(first.run.output()) ?? undefined),
        10_000,
        'the console line',
      );
      expect(line[1]).toBe(`http://127.0.0.1:${first.port}`);
      token = line[2]!;
      expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect((await viewerQuery(first.port, token)).status).toBe(200);
      expect((await viewerQuery(first.port, 'guess')).status).toBe(401);
    } finally {
      expect(await first.run.stop()).toBe(0);
    }
    // Printed to the terminal only: the structured log never carries it.
    expect(
      first.run
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{') && l.includes(token)),
    ).toEqual([]);

    const second = await start({ NODE_ENV: 'development' });
    try {
      expect((await viewerQuery(second.port, token)).status).toBe(200);
    } finally {
      await second.run.stop();
    }
    // Two gateway processes started one after the other: each takes seconds on a busy machine.
  }, 90_000);

  it('makes nothing in production: the API refuses every request', async () => {
    rmSync(tokenFile, { force: true });
    const prod = await start({ NODE_ENV: 'production' });
    try {
      expect(prod.run.output()).not.toContain('#token=');
      expect((await viewerQuery(prod.port, 'anything')).status).toBe(401);
      expect(() => statSync(tokenFile)).toThrow();
    } finally {
      await prod.run.stop();
    }
  });
});
