import { describe, expect, it } from 'vitest';
import { createLogger, maskSecrets } from '../../src/log.js';
import { repeatedKey } from '../support/strictJson.js';

const BOT_TOKEN = '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BOT_URL = `https://api.telegram.org/bot${BOT_TOKEN}/sendMessage`;
const API_KEY = 'sk-proj-Abc123Def456Ghi789';
const DISCORD_TOKEN = `M${'T'.repeat(23)}.abcdef.${'x'.repeat(27)}`;

describe('maskSecrets', () => {
  it('masks a Telegram bot token inside a Bot API URL, keeping the rest of the URL', () => {
    expect(maskSecrets(BOT_URL)).toBe('https://api.telegram.org/bot[redacted]/sendMessage');
  });

  it('masks a bare Telegram bot token', () => {
    expect(maskSecrets(`token is ${BOT_TOKEN}.`)).toBe('token is [redacted].');
  });

  it('masks an sk- API key', () => {
    expect(maskSecrets(`OPENAI_API_KEY=${API_KEY} rejected`)).toBe('OPENAI_API_KEY=[redacted] rejected');
  });

  it('masks a Bearer authorization header, whatever its case', () => {
    expect(maskSecrets('Authorization: Bearer x')).toBe('Authorization: [redacted]');
    expect(maskSecrets('authorization: bearer abc.def-ghi')).toBe('authorization: [redacted]');
  });

  it('masks a Discord bot token', () => {
    expect(maskSecrets(`login with ${DISCORD_TOKEN}`)).toBe('login with [redacted]');
  });

  it('masks Discord tokens of newer bot ids (base64 starting with O) too', () => {
    // base64("900000000000000000000") — ids from 2023 on encode to a leading "O".
    const token = `${Buffer.from('900000000000000000000').toString('base64url')}.GaBcDe.${'x'.repeat(38)}`;
    expect(token.startsWith('O')).toBe(true);
    expect(maskSecrets(`token=${token}`)).toBe('token=[redacted]');
  });

  it('masks every secret in a text, not only the first', () => {
    const out = maskSecrets(`${API_KEY} then ${BOT_URL} then ${API_KEY}`);
    expect(out).not.toContain('Abc123Def456Ghi789');
    expect(out).not.toContain('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  });

  it('leaves ordinary text alone', () => {
    const text = 'user 123456 sent 42 messages at 10:30, sk-short, see https://api.telegram.org/file';
    expect(maskSecrets(text)).toBe(text);
  });
});

/** Runs `fn` with a logger whose stdout lines are captured; stdout is restored afterwards. */
function captureLogLines(fn: (log: ReturnType<typeof createLogger>) => void): string[] {
  const chunks: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- only put back, never called here
  const original = process.stdout.write;
  // pino writes through process.stdout when stdout.write has been replaced before it is created.
  process.stdout.write = (chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  try {
    fn(createLogger('info'));
  } finally {
    process.stdout.write = original;
  }
  return chunks.join('').split('\n').filter(Boolean);
}

const SECRETS = ['ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'Abc123Def456Ghi789', 'TTTTTTTTTTTTTTTTTTTTTTT.abcdef'];

function expectNoSecret(lines: string[]) {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
}

describe('createLogger', () => {
  it('never repeats a key in a line: a child’s bound field, said again, is written once', () => {
    const lines = captureLogLines((log) => {
      const child = log.child({ dialogueId: 'dlg_1', turnId: 'trn_1' });
      child.warn({ turnId: 'trn_1', code: 'LLM_TIMEOUT' }, 'reply failed');
      child.warn({ turnId: 'trn_0', name: 'other' }, 'an earlier turn');
      log.info({ hostname: 'elsewhere', ok: true }, 'root');
    });
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(repeatedKey(line), line).toBeUndefined();
    expect(JSON.parse(lines[0]!)).toMatchObject({ turnId: 'trn_1', code: 'LLM_TIMEOUT', dialogueId: 'dlg_1' });
    // Another value under a bound key is kept beside it, not lost.
    expect(JSON.parse(lines[1]!)).toMatchObject({ turnId: 'trn_1', turnId_: 'trn_0', name: 'rainbow', name_: 'other' });
    expect(JSON.parse(lines[2]!)).toMatchObject({ hostname_: 'elsewhere', ok: true });
  });

  it('can tell a repeated key (the check above is not vacuous)', () => {
    expect(repeatedKey('{"a":1,"b":{"a":2},"c":[{"a":1},{"a":1}]}')).toBeUndefined();
    expect(repeatedKey('{"turnId":"x","msg":"m","turnId":"x"}')).toBe('turnId');
    expect(repeatedKey('{"a":{"b":1,"b":2}}')).toBe('b');
  });

  it('writes JSON lines that can be captured (sanity check of the capture)', () => {
    const lines = captureLogLines((log) => log.info('hello'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'hello', name: 'rainbow' });
  });

  it('redacts a token field and masks a bot token inside a URL field', () => {
    const lines = captureLogLines((log) => log.info({ token: 'abc', url: BOT_URL }, 'sending'));
    expectNoSecret(lines);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry.token).toBe('[redacted]');
    expect(entry.url).toBe('https://api.telegram.org/bot[redacted]/sendMessage');
    expect(entry.msg).toBe('sending');
  });

  it('masks a key in an Error logged on its own (message and stack)', () => {
    const lines = captureLogLines((log) => log.error(new Error(`401 Incorrect API key provided: ${API_KEY}`)));
    expectNoSecret(lines);
    const entry = JSON.parse(lines[0]!) as { msg?: string; err?: { message?: string; stack?: string } };
    expect(entry.msg).toContain('401 Incorrect API key provided');
    expect(entry.err?.message).toContain('[redacted]');
  });

  it('masks a key in an Error logged under err without a message', () => {
    const lines = captureLogLines((log) => log.error({ err: new Error(`request to ${BOT_URL} failed`) }));
    expectNoSecret(lines);
  });

  it('masks secrets in the message and in its interpolated arguments', () => {
    const lines = captureLogLines((log) => {
      log.warn(`calling ${BOT_URL}`);
      log.warn('calling %s with %s', BOT_URL, `Bearer ${API_KEY}`);
    });
    expect(lines).toHaveLength(2);
    expectNoSecret(lines);
  });

  it('masks secrets nested in objects and arrays, and in child loggers', () => {
    const lines = captureLogLines((log) => {
      log.info({ request: { headers: { authorization: `Bearer ${API_KEY}` }, urls: [BOT_URL] } }, 'nested');
      log.child({ discord: DISCORD_TOKEN }).info({ apiKey: API_KEY }, 'child');
    });
    expect(lines).toHaveLength(2);
    expectNoSecret(lines);
  });

  it('respects the level', () => {
    const lines = captureLogLines((log) => {
      log.debug('hidden');
      log.info('shown');
    });
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown']);
  });
});
