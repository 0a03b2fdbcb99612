// The process entrypoint as an operator runs it: bad config stops it with one clear line;
// good config brings up /healthz and /readyz; SIGTERM shuts it down cleanly.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '../../src/localServices/reachability.js';
import { eventually } from '../support/testEnv.js';
import { runMain } from '../support/childProcess.js';

describe('npm start', () => {
  it('stops with one line naming a malformed variable, without echoing its value', async () => {
    const run = runMain({ LOG_LEVEL: 'warn', TELEGRAM_BOT_TOKEN: 'not-a-token-secret-value', PORT: 'eighty' });
    expect(await run.exited).toBe(1);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('TELEGRAM_BOT_TOKEN');
    expect(lines[0]).toContain('PORT');
    expect(lines[0]).not.toContain('not-a-token-secret-value');
  });

  it('rejects an unknown --role', async () => {
    const run = runMain({ LOG_LEVEL: 'warn' }, ['--role', 'janitor']);
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('--role');
  });

  it('serves /healthz and /readyz, runs with adapters disabled when tokens are absent, and exits on SIGTERM', async () => {
    const port = await freePort();
    const run = runMain({
      LOG_LEVEL: 'warn',
      MONGODB_URI: inject('mongoUri'),
      MONGODB_DB: `test_start_${randomBytes(3).toString('hex')}`,
      REDIS_URL: inject('redisUrl'),
      QUEUE_PREFIX: `test-start-${randomBytes(3).toString('hex')}`,
      PORT: String(port),
    });
    try {
      const ready = await eventually(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
          return res?.status === 200 ? ((await res.json()) as { checks: Record<string, boolean> }) : undefined;
        },
        20_000,
        '/readyz',
      );
      expect(ready.checks).toEqual({ mongodb: true, redis: true });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      run.process.kill('SIGTERM');
    }
    expect(await run.exited).toBe(0);
  });
});
