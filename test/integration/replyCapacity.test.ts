// Replies wait on the model, not on the worker (issue 34): a slow model streams each reply for
// about two seconds, and one worker process with the default settings answers 100 private chats
// at once — each chat asks again while its first reply is still streaming — in a small multiple
// of one reply's time, not in 200 of them one after another. Each chat gets both replies, in
// order, once each, and the Telegram budgets hold (a fake that answers 429 past them).
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { ChatRequestBody } from '../doubles/fakeOpenAI.js';

const CHATS = 100;
const FIRST_CHAT = 930_000;
/** The model streams 20 word chunks, 100 ms apart: about 2 s of model time per reply. */
const CHUNKS = 20;
const CHUNK_DELAY_MS = 100;
const MODEL_MS = CHUNKS * CHUNK_DELAY_MS;

/** The reply names the message it answers, so each chat's replies can be told apart and ordered. */
function replyTo(body: ChatRequestBody): string {
  const last = body.messages.findLast((m) => m.role === 'user');
  const asked = typeof last?.content === 'string' ? last.content : '';
  const said = /q\d+-\d+/.exec(asked)?.[0] ?? 'unknown';
  return `answer to ${said}${' and more'.repeat(CHUNKS / 2 - 1)}.`;
}

/** The largest number of [start, end] intervals open at one moment. */
function mostAtOnce(intervals: Array<[number, number]>): number {
  const edges = intervals.flatMap(([a, b]): Array<[number, number]> => [
    [a, 1],
    [b, -1],
  ]);
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let open = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (open += d));
  return most;
}

describe('reply capacity', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('answers 100 chats at once with a slow model in a few replies’ time, in order, once each', async () => {
    // One bot's pace (~30 messages/s) is not under test: the bot may send 400 a second here, while
    // each chat keeps Telegram's one message a second. The worker's own limits are the defaults.
    h = await startHarness({ TELEGRAM_GLOBAL_PER_SECOND: '400' }, ['gateway', 'worker', 'api'], {
      telegram: { rateLimits: { perChatPerSecond: 1, globalPerSecond: 400 } },
      openai: { defaultReply: replyTo, defaultChunkDelayMs: CHUNK_DELAY_MS },
    });
    const chats = Array.from({ length: CHATS }, (_, i) => FIRST_CHAT + i);
    let updateId = 1;
    const t0 = Date.now();
    for (const [i, chatId] of chats.entries())
      h.tg.pushUpdate(privateText({ updateId: updateId++, chatId, text: `hello, this is q${i}-1` }));
    // Each chat asks again once its first reply shows, so the second question waits on the first reply.
    const waiting = new Set(chats);
    await eventually(
      () => {
        for (const [i, chatId] of chats.entries()) {
          if (!waiting.has(chatId) || h.tg.sentText(chatId).length === 0) continue;
          waiting.delete(chatId);
          h.tg.pushUpdate(privateText({ updateId: updateId++, chatId, text: `and another thing, q${i}-2` }));
        }
        return Promise.resolve(waiting.size === 0 || undefined);
      },
      120_000,
      'every first reply started',
    );
    const { store } = h.app;
    const firstRound = async () =>
      (await store.c.events.countDocuments({ kind: 'delivery', at: { $gte: new Date(t0) } })) >= CHATS || undefined;
    await eventually(firstRound, 180_000, 'as many replies delivered as there are chats');
    const elapsed = Date.now() - t0;
    // The record is written before the last push; the `delivery` event says the push is done.
    await eventually(
      async () => (await store.c.events.countDocuments({ kind: 'delivery' })) >= 2 * CHATS || undefined,
      180_000,
      'every reply delivered',
    );

    // Sequential answering would take 100 replies' model time; one worker carries them together.
    console.info(`capacity: ${CHATS} replies in ${elapsed} ms (one reply's model time ${MODEL_MS} ms)`);
    expect(elapsed).toBeLessThan(20 * MODEL_MS);

    // The streams overlapped: far more than the old default of 8 were open at once.
    const calls = await store.c.events.find({ kind: 'llm_call', 'data.task': { $exists: false } }).toArray();
    expect(calls).toHaveLength(2 * CHATS);
    const streams = mostAtOnce(calls.map((e) => [e.at.getTime() - Number(e.data.durationMs), e.at.getTime()]));
    console.info(`capacity: at most ${streams} replies streaming at once`);
    expect(streams).toBeGreaterThanOrEqual(CHATS / 2);

    const replies = await store.c.messages.find({ senderRole: 'ai' }).sort({ createdAt: 1 }).toArray();
    expect(replies).toHaveLength(2 * CHATS);
    const dialogues = await store.c.dialogues.find({}).toArray();
    expect(dialogues).toHaveLength(CHATS);
    for (const d of dialogues) {
      const i = chats.indexOf(Number(d.chat.chatId));
      const own = replies.filter((m) => m.dialogueId === d._id);
      // Once each, in the order asked: the first question's answer comes before the second's.
      expect(own.map((m) => /answer to (q\d+-\d+)/.exec(m.content)?.[1])).toEqual([`q${i}-1`, `q${i}-2`]);
      expect(h.tg.sentText(d.chat.chatId).map((t) => t.replace(/\s+/g, ' '))).toEqual(
        own.map((m) => m.content.replace(/\s+/g, ' ')),
      );
    }
    // The platform's budgets held: every delivery succeeded without the fake's 429s piling up.
    const deliveries = await store.c.events.find({ kind: 'delivery' }).toArray();
    expect(deliveries).toHaveLength(2 * CHATS);
    expect(deliveries.filter((e) => e.data.ok !== true).map((e) => e.data)).toEqual([]);
    console.info(`capacity: ${h.tg.tooManyRequests} requests answered 429`);
  }, 300_000);
});
