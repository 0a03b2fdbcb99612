// Settings where operators keep them (SPEC §14): `npm start` reads `.env` beside package.json
// before the environment is validated — the real environment wins, a missing file is fine, a
// malformed line stops the start naming its line (never its content). `.env.example` names only
// settings the gateway knows, holds the important ones, and is valid as written and uncommented.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDotenv, parseDotenv } from '../../src/config/dotenv.js';
import { ConfigError, envSchema, loadEnv } from '../../src/config/env.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = readFileSync(join(ROOT, '.env.example'), 'utf8');

/** The folders the test wrote its files in, removed once it is done. */
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const fileWith = (text: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
  made.push(dir);
  const path = join(dir, '.env');
  writeFileSync(path, text);
  return path;
};

const problem = (text: string): string => {
  try {
    parseDotenv(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('.env', () => {
  it('reads NAME=value lines, comments, export, quotes and multi-line quoted values', () => {
    const text = [
      '# a comment',
      '',
      'LLM_MODEL=qwen2.5:7b',
      'export PORT=4100',
      'AGENT_NAME="Rainbow Two"  # trailing comment',
      "AGENT_PERSONA='You are kind.'",
      'SPACED = padded ',
      'MULTI="line one',
      'line two"',
    ].join('\n');
    expect(parseDotenv(text)).toEqual({
      LLM_MODEL: 'qwen2.5:7b',
      PORT: '4100',
      AGENT_NAME: 'Rainbow Two',
      AGENT_PERSONA: 'You are kind.',
      SPACED: 'padded',
      MULTI: 'line one\nline two',
    });
  });

  it('refuses a malformed line naming its number and not its content', () => {
    const msg = problem('LLM_MODEL=x\n\nOPENAI_API_KEY sk-secret-value\nPORT=1');
    expect(msg).toBe('Invalid configuration — .env line 3: not NAME=value (a comment starts with #)');
    expect(msg).not.toContain('sk-secret');
    expect(problem('=value')).toContain('line 1');
    expect(problem('1ABC=x')).toContain('line 1');
    expect(problem('A=1\nB="never closed\nC=2')).toBe(
      'Invalid configuration — .env line 2: the quoted value is never closed',
    );
  });

  it('fills only what the real environment lacks; a missing file is fine', () => {
    const path = fileWith('LLM_MODEL=from-file\nPORT=4100\nAGENT_NAME=Filed\n');
    const env: NodeJS.ProcessEnv = { LLM_MODEL: 'from-env', AGENT_NAME: '' };
    expect(loadDotenv(path, env)).toEqual(['PORT']);
    expect(env).toEqual({ LLM_MODEL: 'from-env', AGENT_NAME: '', PORT: '4100' });
    expect(loadDotenv(join(tmpdir(), 'no-such-dir-4711', '.env'), env)).toBeNull();
    expect(() => loadDotenv(fileWith('BROKEN LINE\n'), {})).toThrow(/line 1/);
  });

  it('is read by app/main.ts from beside package.json before the environment is validated', () => {
    const main = readFileSync(join(ROOT, 'app', 'main.ts'), 'utf8');
    const read = main.indexOf("loadDotenv(join(projectRoot, '.env'))");
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(main.indexOf('loadEnv()'));
    // projectRoot is the folder of package.json.
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toContain('"name": "rainbow-gateway"');
  });
});

describe('.env.example', () => {
  const named = [...EXAMPLE.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  const known = new Set(Object.keys(envSchema.shape));

  it('names only settings the gateway knows', () => {
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((n) => !known.has(n))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
  });

  it('holds the required and the important settings', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'LLM_MODEL',
      'LLM_FALLBACKS',
      'EMBEDDING_BASE_URL',
      'EMBEDDING_API_KEY',
      'EMBEDDING_MODEL',
      'MODERATION_BASE_URL',
      'MODERATION_API_KEY',
      'MODERATION_MODEL',
      'TELEGRAM_BOT_TOKEN',
      'DISCORD_BOT_TOKEN',
      'OPS_TOKENS',
      'MONGODB_URI',
      'REDIS_URL',
      'DEFAULT_LOCALE',
      'DISPLAY_TIMEZONE',
    ])
      expect(named, name).toContain(name);
    // The config document's settings are pointed to, not listed as variables.
    expect(EXAMPLE).toMatch(/access\.mode/);
    expect(EXAMPLE).toMatch(/limits\.person_daily_tokens/);
  });

  it('gives a valid configuration as copied, and with every example value uncommented', () => {
    expect(() => loadEnv(parseDotenv(EXAMPLE))).not.toThrow();
    const uncommented = EXAMPLE.replace(/^#\s?(?=[A-Z][A-Z0-9_]*=)/gm, '');
    const values = parseDotenv(uncommented);
    expect(Object.keys(values)).toEqual(expect.arrayContaining(['LLM_FALLBACKS', 'MODERATION_MODEL']));
    const env = loadEnv(values);
    expect(env.LLM_FALLBACKS).toHaveLength(1);
    expect(env.MODERATION_MODEL).toBe('omni-moderation-latest');
  });
});
