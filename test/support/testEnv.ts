// A validated Env for one test file: its own database and queue prefix on the shared servers.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { loadEnv, type Env } from '../../src/config/env.js';

export const TEST_OPS_TOKEN = 'test-admin-token-0123456789abcdef';
export const TEST_OPERATOR_TOKEN = 'test-operator-token-0123456789ab';
export const TEST_VIEWER_TOKEN = 'test-viewer-token-0123456789abcd';
export const TEST_BOT_TOKEN = '123456789:TEST-bot-token_abcdefghijklmnopqrstuv';

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv(rawTestEnv(overrides));
}

/** The environment variables behind testEnv, e.g. for a child process running app/main.ts. */
export function rawTestEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const id = randomBytes(4).toString('hex');
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    MONGODB_URI: inject('mongoUri'),
    MONGODB_DB: `test_${id}`,
    REDIS_URL: inject('redisUrl'),
    QUEUE_PREFIX: `test-${id}`,
    OPENAI_API_KEY: 'sk-test-key-not-real-000000',
    OPS_TOKENS: `tester:admin:${TEST_OPS_TOKEN},op:operator:${TEST_OPERATOR_TOKEN},watcher:viewer:${TEST_VIEWER_TOKEN}`,
    TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
    DEFAULT_LOCALE: 'en',
    STREAM_EDIT_INTERVAL_MS: '50',
    // Most tests watch streaming by edits; tests of draft streaming turn it on.
    TELEGRAM_DRAFTS: 'off',
    ...overrides,
  };
}

/** Polls until `check` returns a value other than undefined/false, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T | undefined | false;
  while (Date.now() < until) {
    last = await check();
    if (last !== undefined && last !== false) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
