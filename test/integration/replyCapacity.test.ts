// Replies wait on the model, not on the worker (issue 34): a slow model streams each reply for
// about two seconds, and one worker process with the default settings answers 100 private chats
// at once — each chat asks again while its first reply is still streaming — in a small multiple
// of one reply's time, not in 200 of them one after another. Each chat gets both replies, in
// order, once each, and the Telegram budgets hold (a fake that answers 429 past them). Far above
// a worker's limit, replies queue in order, nothing is lost or doubled, and /metrics shows the queue.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { sample } from '../support/promText.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { ChatRequestBody } from '../doubles/fakeOpenAI.js';
import { mostAtOnce } from '../support/intervals.js';

/** The model streams 20 word chunks, 100 ms apart: about 2 s of model time per reply. */
const CHUNKS = 20;
const CHUNK_DELAY_MS = 100;
const MODEL_MS = CHUNKS * CHUNK_DELAY_MS;
const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

/** The reply names the message it answers, so each chat's replies can be told apart and ordered. */
function replyTo(body: ChatRequestBody): string {
  const last = body.messages.findLast((m) => m.role === 'user');
  const asked = typeof last?.content === 'string' ? last.content : '';
  const said = /q\d+-\d+/.exec(asked)?.[0] ?? 'unknown';
  return `answer to ${said}${' and more'.repeat(CHUNKS / 2 - 1)}.`;
}

const startRig = (env: Record<string, string> = {}) =>
  // One bot's pace (~30 messages/s) is not under test: the bot may send 400 a second here, while
  // each chat keeps Telegram's one message a second.
  startHarness({ TELEGRAM_GLOBAL_PER_SECOND: '400', METRICS_TOKEN, ...env }, ['gateway', 'worker', 'api'], {
    telegram: { rateLimits: { perChatPerSecond: 1, globalPerSecond: 400 } },
    openai: { defaultReply: replyTo, defaultChunkDelayMs: CHUNK_DELAY_MS },
  });

/**
 * Every chat asks, then asks again once its first reply shows (so the second question waits on
 * the first reply); `meanwhile` runs on each poll until the second questions are all sent.
 */
async function askTwice(h: Harness, chats: number[], meanwhile: () => Promise<void> = async () => {}): Promise<void> {
  let updateId = 1;
  for (const [i, chatId] of chats.entries())
    h.tg.pushUpdate(privateText({ updateId: updateId++, chatId, text: `hello, this is q${i}-1` }));
  const waiting = new Set(chats);
  await eventually(
    async () => {
      await meanwhile();
      for (const [i, chatId] of chats.entries()) {
        if (!waiting.has(chatId) || h.tg.sentText(chatId).length === 0) continue;
        waiting.delete(chatId);
        h.tg.pushUpdate(privateText({ updateId: updateId++, chatId, text: `and another thing, q${i}-2` }));
      }
      return waiting.size === 0 || undefined;
    },
    120_000,
    'every first reply started',
  );
}

/** Delivered replies (the record is written before the last push; the `delivery` event after it). */
const delivered = (h: Harness) => h.app.store.c.events.countDocuments({ kind: 'delivery' });

/** Each chat got both answers, in the order asked, once each, and Telegram shows exactly them. */
async function expectAnsweredInOrder(h: Harness, chats: number[]): Promise<void> {
  const { store } = h.app;
  await eventually(async () => (await delivered(h)) >= 2 * chats.length || undefined, 180_000, 'every reply delivered');
  const replies = await store.c.messages.find({ senderRole: 'ai' }).sort({ createdAt: 1 }).toArray();
  expect(replies).toHaveLength(2 * chats.length);
  const dialogues = await store.c.dialogues.find({}).toArray();
  expect(dialogues).toHaveLength(chats.length);
  for (const d of dialogues) {
    const i = chats.indexOf(Number(d.chat.chatId));
    const own = replies.filter((m) => m.dialogueId === d._id);
    expect(own.map((m) => /answer to (q\d+-\d+)/.exec(m.content)?.[1])).toEqual([`q${i}-1`, `q${i}-2`]);
    expect(h.tg.sentText(d.chat.chatId).map((t) => t.replace(/\s+/g, ' '))).toEqual(
      own.map((m) => m.content.replace(/\s+/g, ' ')),
    );
  }
  // The platform's budgets held: every delivery succeeded, the fake's 429s absorbed.
  const deliveries = await store.c.events.find({ kind: 'delivery' }).toArray();
  expect(deliveries).toHaveLength(2 * chats.length);
  expect(deliveries.filter((e) => e.data.ok !== true).map((e) => e.data)).toEqual([]);
}

describe('reply capacity', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('answers 100 chats at once with a slow model in a few replies’ time, in order, once each', async () => {
    h = await startRig();
    const chats = Array.from({ length: 100 }, (_, i) => 930_000 + i);
    const t0 = Date.now();
    await askTwice(h, chats);
    await eventually(async () => (await delivered(h)) >= chats.length || undefined, 180_000, '100 replies delivered');
    const elapsed = Date.now() - t0;
    // Sequential answering would take 100 replies' model time; one worker carries them together
    // (21–34 s measured with benches beside it; the bound leaves room for the whole suite beside it).
    console.info(`capacity: ${chats.length} replies in ${elapsed} ms (one reply's model time ${MODEL_MS} ms)`);
    expect(elapsed).toBeLessThan(30 * MODEL_MS);

    await expectAnsweredInOrder(h, chats);
    // The streams overlapped: far more than the old default of 8 were open at once.
    const calls = await h.app.store.c.events.find({ kind: 'llm_call', 'data.task': { $exists: false } }).toArray();
    expect(calls).toHaveLength(2 * chats.length);
    const streams = mostAtOnce(calls.map((e) => [e.at.getTime() - Number(e.data.durationMs), e.at.getTime()]));
    console.info(`capacity: at most ${streams} replies streaming at once; ${h.tg.tooManyRequests} requests got 429`);
    expect(streams).toBeGreaterThanOrEqual(chats.length / 2);
  }, 300_000);

  it('far above a worker’s limit queues replies in order, loses none, doubles none, and /metrics shows the queue', async () => {
    h = await startRig({ WORKER_CONCURRENCY: '4' });
    const chats = Array.from({ length: 24 }, (_, i) => 940_000 + i);
    let mostWaiting = 0;
    const scrape = async () => {
      const r = await fetch(`${h.app.apiUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const waiting = sample(await r.text(), 'rainbow_queue_jobs', { queue: 'respond', state: 'waiting' }) ?? 0;
      mostWaiting = Math.max(mostWaiting, waiting);
    };
    await askTwice(h, chats, scrape);
    await expectAnsweredInOrder(h, chats);
    // 24 chats' first questions met 4 slots: the operator saw the backlog.
    expect(mostWaiting).toBeGreaterThanOrEqual(10);
    const calls = await h.app.store.c.events.find({ kind: 'llm_call', 'data.task': { $exists: false } }).toArray();
    expect(
      mostAtOnce(calls.map((e) => [e.at.getTime() - Number(e.data.durationMs), e.at.getTime()])),
    ).toBeLessThanOrEqual(4);
  }, 300_000);
});
