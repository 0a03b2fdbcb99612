import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolRegistry, type ToolContext, type ToolDefinition } from '../../src/tools/registry.js';
import { currentTimeTool } from '../../src/tools/builtins/currentTime.js';
import { escapeRegex } from '../../src/search/searchKeys.js';
import type { ToolCall } from '../../src/llm/types.js';

const NOW = new Date('2024-05-01T16:30:45.123Z');
const TIMEOUT_MS = 50;

function ctx(overrides: Partial<ToolContext> = {}): ToolContext {
  // These tools never touch the store.
  return {
    store: {} as never,
    dialogueId: 'd-1',
    now: NOW,
    timezone: 'UTC',
    signal: new AbortController().signal,
    ...overrides,
  };
}

const call = (name: string, args: string): ToolCall => ({ id: 'call-1', name, arguments: args });

const echoTool = defineTool({
  name: 'echo',
  description: 'Repeats the text.',
  parameters: z.object({ text: z.string(), times: z.number().int().min(1).max(3).optional() }),
  run: ({ text, times }) => Promise.resolve({ echoed: text.repeat(times ?? 1) }),
});

const noArgsTool = defineTool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: z.object({}),
  run: () => Promise.resolve('pong'),
});

const throwingTool = defineTool({
  name: 'boom',
  description: 'Always fails.',
  parameters: z.object({}),
  run: () => Promise.reject(new Error('provider is down')),
});

const hangingTool = defineTool({
  name: 'hang',
  description: 'Never answers and ignores its signal.',
  parameters: z.object({}),
  run: () => new Promise<never>(() => {}),
});

/** Waits for its signal and reports what it saw through `seen`. */
function politeTool(seen: { signal?: AbortSignal }): ToolDefinition {
  return defineTool({
    name: 'polite',
    description: 'Waits until aborted.',
    parameters: z.object({}),
    run: (_args, c) => {
      seen.signal = c.signal;
      return new Promise((_res, rej) => {
        if (c.signal.aborted) rej(new Error(`aborted: ${String(c.signal.reason)}`));
        c.signal.addEventListener('abort', () => rej(new Error(`aborted: ${String(c.signal.reason)}`)), { once: true });
      });
    },
  });
}

const registry = (tools: ToolDefinition[] = [echoTool, noArgsTool, throwingTool, hangingTool] as ToolDefinition[]) =>
  new ToolRegistry(tools, TIMEOUT_MS);

describe('ToolRegistry.specs', () => {
  it('gives each tool’s name, description and an object JSON schema without $schema', () => {
    const specs = registry().specs();
    expect(specs.map((s) => s.name)).toEqual(['echo', 'ping', 'boom', 'hang']);
    const echo = specs[0]!;
    expect(echo.description).toBe('Repeats the text.');
    expect(echo.parameters).not.toHaveProperty('$schema');
    expect(echo.parameters.type).toBe('object');
    expect(echo.parameters.properties).toEqual({
      text: { type: 'string' },
      times: { type: 'integer', minimum: 1, maximum: 3 },
    });
    expect(echo.parameters.required).toEqual(['text']);
  });

  it('gives an object schema with empty properties for a tool without arguments', () => {
    const ping = registry().specs()[1]!;
    expect(ping.parameters).toMatchObject({ type: 'object', properties: {} });
    expect(ping.parameters).not.toHaveProperty('$schema');
  });

  it('refuses two tools with the same name', () => {
    expect(() => new ToolRegistry([echoTool, noArgsTool, echoTool] as ToolDefinition[], TIMEOUT_MS)).toThrow(/echo/);
  });

  it('counts its tools', () => {
    expect(registry().size).toBe(4);
    expect(new ToolRegistry([], TIMEOUT_MS).size).toBe(0);
  });
});

describe('ToolRegistry.execute', () => {
  it('runs a tool with its parsed arguments', async () => {
    const out = await registry().execute(call('echo', '{"text":"ab","times":2}'), ctx());
    expect(out).toMatchObject({ ok: true, result: { echoed: 'abab' } });
    expect(out.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('answers UNKNOWN_TOOL for a name it does not have', async () => {
    const out = await registry().execute(call('launch_rockets', '{}'), ctx());
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.code).toBe('UNKNOWN_TOOL');
      expect(out.error.message).toContain('launch_rockets');
    }
  });

  it.each(['', '   '])('treats empty arguments %j as {}', async (args) => {
    expect(await registry().execute(call('ping', args), ctx())).toMatchObject({ ok: true, result: 'pong' });
  });

  it('answers INVALID_ARGUMENTS for arguments that are not JSON', async () => {
    const out = await registry().execute(call('echo', '{"text": "a"'), ctx());
    expect(out).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', message: 'arguments are not valid JSON' },
    });
  });

  it('answers INVALID_ARGUMENTS naming the field that breaks the schema', async () => {
    const missing = await registry().execute(call('echo', '{}'), ctx());
    expect(missing).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!missing.ok) expect(missing.error.message).toMatch(/^text: /);

    const outOfRange = await registry().execute(call('echo', '{"text":"a","times":4}'), ctx());
    expect(outOfRange).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!outOfRange.ok) {
      expect(outOfRange.error.message).toMatch(/^times: /);
      expect(outOfRange.error.message).not.toMatch(/text/);
    }
  });

  it('answers INVALID_ARGUMENTS at the root for JSON that is not an object', async () => {
    const out = await registry().execute(call('echo', '[1,2]'), ctx());
    expect(out).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!out.ok) expect(out.error.message).toMatch(/^\(root\): /);
  });

  it('does not run the tool when the arguments are invalid', async () => {
    let ran = false;
    const spy = defineTool({
      name: 'spy',
      description: '',
      parameters: z.object({ n: z.number() }),
      run: () => ((ran = true), Promise.resolve(null)),
    });
    await registry([spy]).execute(call('spy', '{"n":"1"}'), ctx());
    expect(ran).toBe(false);
  });

  it('turns a throwing tool into TOOL_FAILED with its message', async () => {
    const out = await registry().execute(call('boom', '{}'), ctx());
    expect(out).toMatchObject({ ok: false, error: { code: 'TOOL_FAILED', message: 'provider is down' } });
  });

  it('turns a tool that throws synchronously into TOOL_FAILED', async () => {
    const sync = defineTool({
      name: 'sync',
      description: '',
      parameters: z.object({}),
      run: () => {
        throw new Error('sync failure');
      },
    });
    const out = await registry([sync]).execute(call('sync', ''), ctx());
    expect(out).toMatchObject({ ok: false, error: { code: 'TOOL_FAILED', message: 'sync failure' } });
  });

  it('gives up on a tool that never answers and ignores its signal: TOOL_TIMEOUT after the timeout', async () => {
    const out = await registry().execute(call('hang', ''), ctx());
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.code).toBe('TOOL_TIMEOUT');
      expect(out.error.message).toContain(`${TIMEOUT_MS} ms`);
    }
    expect(out.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(out.durationMs).toBeLessThan(1000);
  });

  it('aborts the signal of a tool that runs out of time, and still reports TOOL_TIMEOUT', async () => {
    const seen: { signal?: AbortSignal } = {};
    const out = await registry([politeTool(seen)]).execute(call('polite', ''), ctx());
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBe('timeout');
    expect(out).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    expect(out.durationMs).toBeLessThan(1000);
  });

  it('aborts the tool’s signal when the reply is stopped mid-run', async () => {
    const seen: { signal?: AbortSignal } = {};
    const parent = new AbortController();
    const running = registry([politeTool(seen)]).execute(call('polite', ''), ctx({ signal: parent.signal }));
    await Promise.resolve();
    expect(seen.signal?.aborted).toBe(false);
    parent.abort('interrupted');
    const out = await running;
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBe('interrupted');
    expect(out).toMatchObject({ ok: false, error: { code: 'TOOL_FAILED', message: 'aborted: interrupted' } });
    expect(out.durationMs).toBeLessThan(TIMEOUT_MS);
  });

  it('gives the tool an aborted signal when the reply was stopped before the tool started', async () => {
    const seen: { signal?: AbortSignal } = {};
    const parent = new AbortController();
    parent.abort('interrupted');
    const out = await registry([politeTool(seen)]).execute(call('polite', ''), ctx({ signal: parent.signal }));
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBe('interrupted');
    expect(out).toMatchObject({ ok: false, error: { code: 'TOOL_FAILED', message: 'aborted: interrupted' } });
  });
});

describe('current_time tool', () => {
  it('gives the local wall-clock date and time of the timezone asked for, and the UTC instant', async () => {
    const out = await currentTimeTool.run({ timezone: 'Asia/Tokyo' }, ctx());
    expect(out).toEqual({
      utc: '2024-05-01T16:30:45.123Z',
      timezone: 'Asia/Tokyo',
      local: expect.stringContaining('May 2, 2024') as unknown,
    });
    expect((out as { local: string }).local).toMatch(/\b01:30:45\b/);
    expect((out as { local: string }).local).toContain('Thursday');
  });

  it('uses the context’s timezone when none is given', async () => {
    const out = (await currentTimeTool.run({}, ctx({ timezone: 'America/New_York' }))) as {
      timezone: string;
      local: string;
    };
    expect(out.timezone).toBe('America/New_York');
    expect(out.local).toContain('May 1, 2024');
    expect(out.local).toMatch(/\b12:30:45\b/);
  });

  it('shows midnight as 00, not 24', async () => {
    const out = (await currentTimeTool.run(
      { timezone: 'Asia/Tokyo' },
      ctx({ now: new Date('2024-05-01T15:00:00.000Z') }),
    )) as { local: string };
    expect(out.local).toContain('May 2, 2024');
    expect(out.local).toMatch(/\b00:00:00\b/);
  });

  it('rejects a timezone that does not exist (INVALID_ARGUMENTS naming the field)', async () => {
    const reg = new ToolRegistry([currentTimeTool], TIMEOUT_MS);
    const out = await reg.execute(call('current_time', '{"timezone":"Mars/Olympus_Mons"}'), ctx());
    expect(out).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (!out.ok) expect(out.error.message).toContain('timezone');
  });

  it('accepts a real timezone through the registry', async () => {
    const reg = new ToolRegistry([currentTimeTool], TIMEOUT_MS);
    const out = await reg.execute(call('current_time', '{"timezone":"Asia/Shanghai"}'), ctx());
    expect(out).toMatchObject({ ok: true, result: { timezone: 'Asia/Shanghai', utc: '2024-05-01T16:30:45.123Z' } });
  });
});

describe('escapeRegex (search_messages)', () => {
  const literal = (s: string) => new RegExp(escapeRegex(s));

  it('matches text with metacharacters literally', () => {
    expect(literal('a.b(c)').test('say a.b(c) now')).toBe(true);
    expect(literal('a.b(c)').test('axbc')).toBe(false);
    expect(literal('a.b(c)').test('aXb(c)')).toBe(false);
  });

  it('escapes every regex metacharacter', () => {
    const all = '.*+?^${}()|[]\\';
    expect(escapeRegex(all)).toBe('\\.\\*\\+\\?\\^\\$\\{\\}\\(\\)\\|\\[\\]\\\\');
    expect(literal(all).test(`x${all}y`)).toBe(true);
    expect(literal(all).test('xy')).toBe(false);
  });

  it.each(['1+1=2', 'C++', 'what?', '$5', '^_^', '[draft]', 'a|b', 'path\\to', 'x{2}'])(
    'finds %j only as written',
    (s) => {
      expect(literal(s).test(`before ${s} after`)).toBe(true);
    },
  );

  it('leaves Chinese text (and other scripts) unchanged', () => {
    expect(escapeRegex('你好，世界')).toBe('你好，世界');
    expect(literal('你好').test('他说：你好！')).toBe(true);
    expect(escapeRegex('こんにちは 😀')).toBe('こんにちは 😀');
  });
});
