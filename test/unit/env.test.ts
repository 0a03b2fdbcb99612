import { describe, expect, it } from 'vitest';
import { ConfigError, firstTokenTimeoutMs, listenHost, loadEnv } from '../../src/config/env.js';

const GOOD_BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const TOKEN_A = 'viewer-token-0123456789';
const TOKEN_B = 'admin-token-ABCDEFGHIJ';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected loadEnv to throw a ConfigError');
}

describe('loadEnv defaults', () => {
  const env = loadEnv({});

  it('has the documented defaults', () => {
    expect(env.PORT).toBe(4000);
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(env.LLM_TIMEOUT_MS).toBe(60_000);
    expect(env.SESSION_GAP_MS).toBe(3_600_000);
    expect(env.RESPONSE_WINDOW_MS).toBe(10_800_000);
    expect(env.TELEGRAM_API_ROOT).toBe('https://api.telegram.org');
    expect(env.DEFAULT_LOCALE).toBe('zh-CN');
    expect(env.NODE_ENV).toBe('development');
    expect(env.LOG_LEVEL).toBe('info');
  });

  it('leaves optional secrets unset and has no ops tokens', () => {
    expect(env.TELEGRAM_BOT_TOKEN).toBeUndefined();
    expect(env.MONGODB_URI).toBeUndefined();
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.OPS_TOKENS).toEqual([]);
  });

  it('treats empty strings as unset', () => {
    const blank = loadEnv({
      PORT: '',
      REDIS_URL: '',
      LLM_TIMEOUT_MS: '',
      SESSION_GAP_MS: '',
      RESPONSE_WINDOW_MS: '',
      TELEGRAM_API_ROOT: '',
      TELEGRAM_BOT_TOKEN: '',
      MONGODB_URI: '',
      OPENAI_API_KEY: '',
      OPS_TOKENS: '',
      NODE_ENV: '',
    });
    expect(blank).toEqual(env);
  });

  it('reads numbers from strings', () => {
    const set = loadEnv({ PORT: '8080', SESSION_GAP_MS: '1000', RESPONSE_WINDOW_MS: '2000', LLM_TIMEOUT_MS: '3000' });
    expect(set).toMatchObject({ PORT: 8080, SESSION_GAP_MS: 1000, RESPONSE_WINDOW_MS: 2000, LLM_TIMEOUT_MS: 3000 });
  });
});

describe('loadEnv TELEGRAM_BOT_TOKEN', () => {
  it('accepts a BotFather token', () => {
    expect(loadEnv({ TELEGRAM_BOT_TOKEN: GOOD_BOT_TOKEN }).TELEGRAM_BOT_TOKEN).toBe(GOOD_BOT_TOKEN);
  });

  it.each([
    ['no colon', 'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'],
    ['letters before the colon', 'bot12345:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'],
    ['a too-short secret part', '123456789:AAHdqTcvCH1vGWJ'],
    ['a character outside the alphabet', '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5P$LDsaw'],
  ])('rejects a token with %s, naming the variable without echoing the value', (_label, bad) => {
    const err = configError({ TELEGRAM_BOT_TOKEN: bad });
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toContain('TELEGRAM_BOT_TOKEN');
    expect(err.message).not.toContain(bad);
    expect(err.message).not.toContain(bad.split(':').pop());
  });
});

describe('loadEnv OPS_TOKENS', () => {
  it('parses name:role:token entries separated by commas', () => {
    const env = loadEnv({ OPS_TOKENS: `a:viewer:${TOKEN_A}, b:admin:${TOKEN_B}` });
    expect(env.OPS_TOKENS).toEqual([
      { name: 'a', role: 'viewer', token: TOKEN_A },
      { name: 'b', role: 'admin', token: TOKEN_B },
    ]);
  });

  it('accepts the operator role, a token of exactly 16 characters and colons inside the token', () => {
    const env = loadEnv({ OPS_TOKENS: 'ops:operator:0123456789abcdef,c:viewer:abc:def:ghij-klmnop' });
    expect(env.OPS_TOKENS).toEqual([
      { name: 'ops', role: 'operator', token: '0123456789abcdef' },
      { name: 'c', role: 'viewer', token: 'abc:def:ghij-klmnop' },
    ]);
  });

  it('ignores empty entries', () => {
    expect(loadEnv({ OPS_TOKENS: `,a:viewer:${TOKEN_A},,` }).OPS_TOKENS).toHaveLength(1);
  });

  it.each([
    ['a role that does not exist', `a:root:${TOKEN_A}`, TOKEN_A],
    ['a token of 15 characters', 'a:viewer:0123456789abcde', '0123456789abcde'],
    ['duplicate tokens', `a:viewer:${TOKEN_A},b:admin:${TOKEN_A}`, TOKEN_A],
  ])('rejects %s, naming OPS_TOKENS without leaking the token', (_label, value, secret) => {
    const err = configError({ OPS_TOKENS: value });
    expect(err.message).toContain('OPS_TOKENS');
    expect(err.message).not.toContain(secret);
  });
});

describe('loadEnv OPS_TOKENS shape', () => {
  it('rejects an entry that is not name:role:token', () => {
    expect(configError({ OPS_TOKENS: 'a:viewer' }).message).toContain('OPS_TOKENS');
  });
});

describe('loadEnv other validation', () => {
  it.each(['abc', '70000', '-1', '80.5'])('rejects PORT=%s', (port) => {
    expect(configError({ PORT: port }).message).toContain('PORT');
  });

  it('accepts the PORT range ends', () => {
    expect(loadEnv({ PORT: '0' }).PORT).toBe(0);
    expect(loadEnv({ PORT: '65535' }).PORT).toBe(65535);
  });

  it('requires MONGODB_URI to start with mongodb:// or mongodb+srv://, without echoing it', () => {
    expect(loadEnv({ MONGODB_URI: 'mongodb://localhost:27017' }).MONGODB_URI).toBe('mongodb://localhost:27017');
    expect(loadEnv({ MONGODB_URI: 'mongodb+srv://c.example.net' }).MONGODB_URI).toBe('mongodb+srv://c.example.net');
    const err = configError({ MONGODB_URI: 'postgres://user:hunter2secret@db:5432/x' });
    expect(err.message).toContain('MONGODB_URI');
    expect(err.message).not.toContain('hunter2secret');
  });

  it('rejects non-positive durations', () => {
    expect(configError({ SESSION_GAP_MS: '0' }).message).toContain('SESSION_GAP_MS');
    expect(configError({ RESPONSE_WINDOW_MS: '-5' }).message).toContain('RESPONSE_WINDOW_MS');
  });

  it('names every bad variable in one error', () => {
    const err = configError({ PORT: 'x', REDIS_URL: 'http://r', TELEGRAM_BOT_TOKEN: 'nope' });
    for (const name of ['PORT', 'REDIS_URL', 'TELEGRAM_BOT_TOKEN']) expect(err.message).toContain(name);
  });
});

describe('the interface the HTTP server binds', () => {
  it('is this machine only outside production, every interface in production, HOST when set', () => {
    expect(listenHost(loadEnv({}))).toBe('127.0.0.1');
    expect(listenHost(loadEnv({ NODE_ENV: 'test' }))).toBe('127.0.0.1');
    expect(listenHost(loadEnv({ NODE_ENV: 'production', OPS_TOKENS: `ops:admin:${TOKEN_B}` }))).toBe('0.0.0.0');
    expect(listenHost(loadEnv({ HOST: '0.0.0.0' }))).toBe('0.0.0.0');
    expect(listenHost(loadEnv({ NODE_ENV: 'production', HOST: '10.0.0.5', OPS_TOKENS: `ops:admin:${TOKEN_B}` }))).toBe(
      '10.0.0.5',
    );
    expect(listenHost(loadEnv({ HOST: '' }))).toBe('127.0.0.1');
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  it('is empty by default and reads a list of origins as browsers send them', () => {
    expect(loadEnv({}).MCP_ALLOWED_ORIGINS).toEqual([]);
    expect(
      loadEnv({ MCP_ALLOWED_ORIGINS: 'https://Agents.example.com/, http://localhost:3000' }).MCP_ALLOWED_ORIGINS,
    ).toEqual(['https://agents.example.com', 'http://localhost:3000']);
  });

  it('refuses what is not an origin, naming the setting', () => {
    for (const bad of ['https://a.example.com/mcp', 'agents.example.com', '*'])
      expect(configError({ MCP_ALLOWED_ORIGINS: bad }).message).toContain('MCP_ALLOWED_ORIGINS');
  });
});

describe('LLM_FALLBACKS and the chain settings', () => {
  const KEY = 'sk-fallback-secret-123456';

  it('reads a JSON array of providers, keys included; unset is none', () => {
    expect(loadEnv({}).LLM_FALLBACKS).toEqual([]);
    const env = loadEnv({
      LLM_FALLBACKS: JSON.stringify([
        { baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', apiKey: KEY },
        { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' },
      ]),
    });
    expect(env.LLM_FALLBACKS).toEqual([
      { baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', apiKey: KEY },
      { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' },
    ]);
  });

  it('refuses a value that is not valid JSON at start, naming LLM_FALLBACKS and never echoing the value', () => {
    const err = configError({ LLM_FALLBACKS: `[{"baseUrl":"https://api.deepseek.com/v1","apiKey":"${KEY}"` });
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toContain('LLM_FALLBACKS');
    expect(err.message).toContain('not valid JSON');
    expect(err.message).not.toContain(KEY);
  });

  it('refuses the wrong shape, naming the entry and field, not the key', () => {
    const notArray = configError({ LLM_FALLBACKS: JSON.stringify({ baseUrl: 'https://a.example/v1', model: 'm' }) });
    expect(notArray.message).toContain('LLM_FALLBACKS: must be a JSON array');
    const badUrl = configError({
      LLM_FALLBACKS: JSON.stringify([
        { baseUrl: 'https://ok.example/v1', model: 'm' },
        { baseUrl: 'not a url', model: 'm', apiKey: KEY },
      ]),
    });
    expect(badUrl.message).toContain('LLM_FALLBACKS: entry 2: baseUrl must be a URL');
    expect(badUrl.message).not.toContain(KEY);
    const noModel = configError({ LLM_FALLBACKS: JSON.stringify([{ baseUrl: 'https://ok.example/v1', apiKey: KEY }]) });
    expect(noModel.message).toContain('LLM_FALLBACKS: entry 1: model');
    expect(noModel.message).not.toContain(KEY);
  });

  it('keeps the first-token wait below the reply limit', () => {
    expect(firstTokenTimeoutMs(loadEnv({}))).toBe(20_000);
    // Unset: capped at half a short reply limit, so a fallback has time to answer.
    expect(firstTokenTimeoutMs(loadEnv({ LLM_TIMEOUT_MS: '8000' }))).toBe(4_000);
    expect(firstTokenTimeoutMs(loadEnv({ LLM_FIRST_TOKEN_TIMEOUT_MS: '5000' }))).toBe(5_000);
    expect(configError({ LLM_FIRST_TOKEN_TIMEOUT_MS: '60000' }).message).toContain(
      'LLM_FIRST_TOKEN_TIMEOUT_MS: must be below LLM_TIMEOUT_MS',
    );
    expect(loadEnv({}).LLM_FALLBACK_COOLDOWN_MS).toBe(60_000);
  });
});
