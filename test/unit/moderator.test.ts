// The Moderator (src/moderation/): keywords from the config as it is at each check, then the
// `/moderations` endpoint through the real `openai` client against a local double in OpenAI's
// shape. An endpoint that errors, answers nonsense or does not answer in time never blocks the
// conversation: the text passes (fail open) with a warning logged and an `unavailable` metric.
import OpenAI from 'openai';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, type GatewayConfig } from '../../src/domain/config.js';
import type { EffectiveConfig } from '../../src/store/config.js';
import { noMetrics, type Metrics } from '../../src/metrics/metrics.js';
import { Moderator } from '../../src/moderation/moderator.js';
import { OpenAiModerationEndpoint, type ModerationEndpoint } from '../../src/moderation/endpoint.js';
import { startFakeModeration, type FakeModeration } from '../doubles/fakeModeration.js';

interface Rig {
  moderator: Moderator;
  config: GatewayConfig;
  logs: Array<{ level: number; msg: string; code?: string; direction?: string; err?: string }>;
  counted: string[];
}

function rig(o: { endpoint?: ModerationEndpoint; keywords?: string[]; timeoutMs?: number } = {}): Rig {
  const config = defaultConfig();
  config.moderation.keywords = o.keywords ?? [];
  const logs: Rig['logs'] = [];
  const counted: string[] = [];
  const metrics: Metrics = { ...noMetrics, moderation: (d, r) => counted.push(`${d}:${r}`) };
  const moderator = new Moderator({
    config: { get: () => Promise.resolve({ config, version: 1, ignored: [] } satisfies EffectiveConfig) },
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    timeoutMs: o.timeoutMs ?? 2_000,
    log: pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Rig['logs'][0]) }),
    metrics,
  });
  return { moderator, config, logs, counted };
}

const realEndpoint = (fake: FakeModeration) =>
  new OpenAiModerationEndpoint(
    new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-mod-test-000', maxRetries: 0 }),
    'omni-moderation-latest',
  );

describe('Moderator', () => {
  let fake: FakeModeration | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('flags by keyword without asking the endpoint, and reads the keywords at every check', async () => {
    fake = await startFakeModeration({ hurt: 'violence' });
    const r = rig({ endpoint: realEndpoint(fake), keywords: ['casino'] });
    expect(await r.moderator.check('Best CASINO in town')).toEqual({ flagged: true, by: 'keyword', matched: 'casino' });
    expect(fake.requests).toHaveLength(0);
    r.config.moderation.keywords = ['lottery']; // an operator's change applies to the next check
    expect((await r.moderator.check('Best casino in town')).flagged).toBe(false);
    expect((await r.moderator.check('lottery tickets')).matched).toBe('lottery');
    expect(r.counted).toEqual(['in:flagged', 'in:clean', 'in:flagged']);
  });

  it('asks the endpoint with the real client in OpenAI’s shape and reports the flagged categories', async () => {
    fake = await startFakeModeration({ hurt: 'violence', idiot: 'harassment' });
    const r = rig({ endpoint: realEndpoint(fake) });
    expect(await r.moderator.check('I will hurt you, idiot')).toEqual({
      flagged: true,
      by: 'endpoint',
      categories: ['harassment', 'violence'],
    });
    expect(await r.moderator.checkReply(r.config.moderation, 'Have a lovely day')).toEqual({ flagged: false });
    expect(fake.requests.map((q) => q.model)).toEqual(['omni-moderation-latest', 'omni-moderation-latest']);
    expect(fake.requests[0]).toMatchObject({
      input: 'I will hurt you, idiot',
      authorization: 'Bearer sk-mod-test-000',
    });
    expect(r.counted).toEqual(['in:flagged', 'out:clean']);
    expect(r.logs.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('fails open when the endpoint answers 500: the text passes, a warning is logged, the metric says unavailable', async () => {
    fake = await startFakeModeration({ hurt: 'violence' });
    fake.mode = 'error';
    const r = rig({ endpoint: realEndpoint(fake) });
    const v = await r.moderator.check('I will hurt you');
    expect(v.flagged).toBe(false);
    expect(v.endpointFailed).toMatch(/500/);
    const warned = r.logs.find((l) => l.level === 40);
    expect(warned).toMatchObject({ code: 'MODERATION_UNAVAILABLE', direction: 'in' });
    expect(warned?.msg).toMatch(/fail open/);
    // The text itself is never logged.
    expect(JSON.stringify(r.logs)).not.toContain('I will hurt you');
    expect(r.counted).toEqual(['in:unavailable']);
  });

  it('fails open when the endpoint does not answer in time, within its timeout', async () => {
    fake = await startFakeModeration();
    fake.mode = 'hang';
    const r = rig({ endpoint: realEndpoint(fake), timeoutMs: 300 });
    const started = Date.now();
    const v = await r.moderator.checkReply(r.config.moderation, 'hello there');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(v).toEqual({ flagged: false, endpointFailed: 'no answer within 300 ms' });
    expect(r.counted).toEqual(['out:unavailable']);
  });

  it('fails open on an answer in another shape, and on a refused connection', async () => {
    // Port 9 (discard) has no server here: the connection is refused.
    const r = rig({ endpoint: realEndpoint({ baseURL: 'http://127.0.0.1:9/v1' } as FakeModeration) });
    expect((await r.moderator.check('anything')).endpointFailed).toMatch(/moderation request failed/);
    const shapeless = new OpenAiModerationEndpoint(
      { moderations: { create: () => Promise.resolve({ results: [] }) } } as unknown as OpenAI,
      'm',
    );
    const r2 = rig({ endpoint: shapeless });
    expect((await r2.moderator.check('anything')).endpointFailed).toMatch(/moderation response invalid: no results/);
  });

  it('throws when the caller aborts (that is no failure of the endpoint), and skips blank text', async () => {
    fake = await startFakeModeration();
    fake.mode = 'hang';
    const r = rig({ endpoint: realEndpoint(fake), timeoutMs: 5_000 });
    const stop = new AbortController();
    const pending = r.moderator.check('hello', stop.signal);
    setTimeout(() => stop.abort(), 50);
    await expect(pending).rejects.toThrow();
    expect(await r.moderator.check('   ')).toEqual({ flagged: false });
  });

  it('checks replies only with check_replies on and keywords or an endpoint', () => {
    const none = rig();
    expect(none.moderator.checksReplies({ keywords: [], check_replies: true })).toBe(false);
    expect(none.moderator.checksReplies({ keywords: ['x'], check_replies: true })).toBe(true);
    const withEndpoint = rig({ endpoint: { model: 'm', classify: () => Promise.resolve({ flagged: false }) } });
    expect(withEndpoint.moderator.hasEndpoint).toBe(true);
    expect(withEndpoint.moderator.checksReplies({ keywords: [], check_replies: true })).toBe(true);
    expect(withEndpoint.moderator.checksReplies({ keywords: [], check_replies: false })).toBe(false);
  });
});
