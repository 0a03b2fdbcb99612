// /metrics over HTTP after one Telegram DM turn and one redelivered update: token-protected,
// and the counters and histograms moved for what happened (SPEC §11).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { sample } from '../support/promText.js';

const CHAT = 778001;
const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

describe('/metrics', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness({ METRICS_TOKEN });
    url = `${h.app.apiUrl}/metrics`;
  });
  afterAll(async () => {
    await h.stop();
  });

  const scrape = (token?: string) =>
    fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {}).then(async (r) => ({
      status: r.status,
      type: r.headers.get('content-type') ?? '',
      text: await r.text(),
    }));

  it('is refused without a token or with a wrong one', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('not-a-token-of-ours-0123456789')).status).toBe(401);
  });

  it('counts a DM turn and a duplicate update: inbound, stages, tokens, queues', async () => {
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello', ' there.'], chunkDelayMs: 50 });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, firstName: 'Ada', text: 'Hi there' }));
    const dialogue = await eventually(
      async () => (await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) })) ?? undefined,
    );
    await eventually(
      async () => {
        const turn = await h.app.store.c.turns.findOne({ dialogueId: dialogue._id });
        return turn?.status === 'responded' ? turn : undefined;
      },
      15_000,
      'turn responded',
    );
    // The same message again under a new update id: a platform redelivery.
    h.tg.pushUpdate(privateText({ updateId: 2, messageId: 1, chatId: CHAT, firstName: 'Ada', text: 'Hi there' }));

    const viewer = await eventually(
      async () => {
        const r = await scrape(TEST_VIEWER_TOKEN);
        const done = sample(r.text, 'rainbow_reply_stage_seconds_count', { stage: 'delivery' }) ?? 0;
        const dup = sample(r.text, 'rainbow_inbound_duplicates_suppressed_total', { platform: 'telegram' }) ?? 0;
        return done >= 1 && dup >= 1 ? r : undefined;
      },
      15_000,
      'metrics moved',
    );
    expect(viewer.status).toBe(200);
    expect(viewer.type).toContain('text/plain');
    const t = viewer.text;
    const inbound = (result: string) =>
      sample(t, 'rainbow_inbound_events_total', { platform: 'telegram', kind: 'message', result });
    expect(inbound('accepted')).toBe(1);
    expect(inbound('duplicate')).toBe(1);
    expect(sample(t, 'rainbow_inbound_duplicates_suppressed_total', { platform: 'telegram' })).toBe(1);
    for (const stage of ['queue', 'context', 'model', 'delivery'])
      expect(sample(t, 'rainbow_reply_stage_seconds_count', { stage })).toBeGreaterThanOrEqual(1);
    expect(sample(t, 'rainbow_llm_calls_total', { kind: 'reply', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(t, 'rainbow_llm_tokens_total', { kind: 'reply', direction: 'input' })).toBeGreaterThan(0);
    expect(sample(t, 'rainbow_llm_tokens_total', { kind: 'reply', direction: 'output' })).toBeGreaterThan(0);
    expect(sample(t, 'rainbow_llm_time_to_first_token_seconds_count', { kind: 'reply' })).toBeGreaterThanOrEqual(1);
    expect(sample(t, 'rainbow_queue_wait_seconds_count', { queue: 'respond' })).toBeGreaterThanOrEqual(1);
    expect(sample(t, 'rainbow_memory_recall_total', { result: 'empty' })).toBeGreaterThanOrEqual(1);
    for (const queue of ['respond', 'memory', 'timers', 'media-retry'])
      expect(sample(t, 'rainbow_queue_jobs', { queue, state: 'waiting' })).toBeGreaterThanOrEqual(0);
    // Never an id as a label value.
    expect(t).not.toContain(dialogue._id);

    // The store's latency, by command, as the process saw it.
    expect(sample(t, 'rainbow_store_command_seconds_count', { command: 'find' })).toBeGreaterThan(0);
    expect(sample(t, 'rainbow_store_command_seconds_count', { command: 'update' })).toBeGreaterThan(0);

    // The scraper's own token works as well.
    const scraper = await scrape(METRICS_TOKEN);
    expect(scraper.status).toBe(200);
    expect(scraper.text).toContain('rainbow_inbound_events_total');
  });

  it('passes Prometheus’ own lint (promtool check metrics) after traffic', async () => {
    const { text } = await scrape(TEST_VIEWER_TOKEN);
    expect(text).toContain('rainbow_reply_stage_seconds_count'); // after the turn above
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(lint.error, 'promtool (Debian package prometheus) must be installed').toBeUndefined();
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
    expect(lint.status).toBe(0);
  });
});

describe('/metrics on a worker-only process', () => {
  it('opens the HTTP server for /metrics alone when METRICS=on', async () => {
    const h = await startHarness({ METRICS: 'on', METRICS_TOKEN }, ['worker']);
    try {
      expect(h.app.apiUrl).toBeUndefined();
      const url = h.app.metricsUrl!;
      expect((await fetch(url)).status).toBe(401);
      const r = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('rainbow_queue_jobs{queue="respond",state="waiting"}');
    } finally {
      await h.stop();
    }
  });
});
