// Streaming delivery under Telegram's flood limits: the real TelegramOutbound (grammY) behind the
// paced decorator and the Redis chat budget, against the fake Bot API enforcing per-chat,
// per-group and global limits with Telegram's own 429 answers. Two budget/outbound pairs on
// separate Redis connections play two worker processes.
import { PlatformRegistry } from '../../src/platforms/platform.js';
import { PLATFORMS } from '../../app/platforms.js';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { TelegramOutbound } from '../../adapters/telegram/outbound.js';
import { markdownToTelegramHtml } from '../../adapters/telegram/format.js';
import { RedisChatBudget, type PlatformLimits } from '../../src/delivery/chatBudget.js';
import { PlatformRateLimitedError } from '../../src/delivery/outbound.js';
import { PacedOutbound } from '../../src/delivery/pacedOutbound.js';
import { ReplyStreamer } from '../../src/delivery/replyStreamer.js';
import { splitForPlatform } from '../../src/delivery/split.js';
import type { ChatRef } from '../../src/domain/model.js';
import { parseTelegramHtml, startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { TEST_BOT_TOKEN } from '../support/testEnv.js';

/** The Bot FAQ read strictly: one message a second per chat, 20 a minute per group, 30 a second in all. */
const TELEGRAM_LIMITS = { perChatPerSecond: 1, groupPerMinute: 20, globalPerSecond: 30 };

const connections: Redis[] = [];
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
});

/** One "worker process": its own Redis connection, budget and outbound, sharing the key prefix. */
function worker(fake: FakeTelegram, prefix: string, o: { drafts?: boolean; limits?: PlatformLimits } = {}) {
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  connections.push(redis);
  const budget = new RedisChatBudget(redis, {
    prefix,
    platforms: new PlatformRegistry(PLATFORMS),
    ...(o.limits ? { limits: { telegram: o.limits } } : {}),
  });
  return new PacedOutbound(new TelegramOutbound(TEST_BOT_TOKEN, fake.apiRoot, { drafts: o.drafts ?? false }), {
    budget,
  });
}

const newPrefix = () => `test-delivery-${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A reply of about `size` characters with prose, lists and code blocks (one longer than a message). */
function reply(seed: number, size = 9_000): string {
  const parts: string[] = [`Answer ${seed}. Here is what I found, step by step.`];
  let i = 0;
  while (parts.join('\n\n').length < size) {
    i += 1;
    if (i % 4 === 1) {
      parts.push(
        `Paragraph ${seed}.${i}: the quick brown fox jumps over the lazy dog. 这是第${i}段，我们继续。 Numbers ${seed * 1000 + i}.`.repeat(
          6,
        ),
      );
    } else if (i % 4 === 2) {
      parts.push(
        [
          '```python',
          ...Array.from(
            { length: i === 2 ? 160 : 12 },
            (_, k) => `    value_${k} = compute(${seed}, ${k})  # line ${k}`,
          ),
          '```',
        ].join('\n'),
      );
    } else if (i % 4 === 3) {
      parts.push(Array.from({ length: 6 }, (_, k) => `- item ${k} of section ${i}: **bold** and \`code\``).join('\n'));
    } else {
      parts.push(`Short note ${i}.`);
    }
  }
  return parts.join('\n\n');
}

/** What a user sees of each chunk: our Telegram HTML as Telegram displays it (plain text if refused). */
function visibleChunks(text: string): string[] {
  return splitForPlatform(text, 4096).map((chunk) => {
    try {
      return parseTelegramHtml(markdownToTelegramHtml(chunk));
    } catch {
      return chunk;
    }
  });
}

interface Delivered {
  chat: ChatRef;
  text: string;
  recorded: string[];
  streamer: ReplyStreamer;
}

/** Streams `text` into one chat as the model would (small deltas), then pushes the final state. */
async function streamInto(
  outbound: PacedOutbound,
  chat: ChatRef,
  text: string,
  o: { drafts?: boolean; step?: number } = {},
): Promise<Delivered> {
  const recorded: string[] = [];
  const streamer = new ReplyStreamer({
    message: { _id: `reply-${chat.chatId}`, dialogueId: `dlg-${chat.chatId}` },
    chat,
    outbound,
    messages: {
      saveStreamedText: () => Promise.resolve(),
      recordPlatformMessage: (_id, _chat, platformId) => (recorded.push(platformId), Promise.resolve()),
    },
    intervalMs: 1000,
    deliveredIds: [],
    drafts: o.drafts ?? false,
  });
  await outbound.typing(chat);
  const step = o.step ?? 300;
  for (let at = 0; at < text.length; at += step) {
    streamer.append(text.slice(at, at + step));
    await sleep(80);
  }
  await streamer.drain();
  await streamer.finish(text);
  return { chat, text, recorded, streamer };
}

function expectDelivered(fake: FakeTelegram, d: Delivered): void {
  const expected = visibleChunks(d.text);
  // Exactly the chunks of the reply, in order: none missing, none twice, nothing stale.
  expect(fake.sentText(d.chat.chatId), `chat ${d.chat.chatId}`).toEqual(expected);
  expect(d.recorded).toHaveLength(expected.length);
  expect(d.streamer.platformMessageIds).toEqual(d.recorded);
  // No failure (a 429 included) escaped, not even from an intermediate push.
  expect(d.streamer.lastError, `chat ${d.chat.chatId}`).toBeUndefined();
}

describe('streaming delivery under Telegram flood limits', () => {
  let fake: FakeTelegram;
  beforeAll(async () => {
    fake = await startFakeTelegram({ rateLimits: TELEGRAM_LIMITS });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('answers a limit exactly as Telegram does, and the adapter turns it into PlatformRateLimitedError', async () => {
    const raw = new TelegramOutbound(TEST_BOT_TOKEN, fake.apiRoot, { drafts: false });
    const chat: ChatRef = { platform: 'telegram', chatId: '999001' };
    await raw.send(chat, 'one');
    const before = fake.tooManyRequests;
    const err: unknown = await raw.send(chat, 'two').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformRateLimitedError);
    expect((err as PlatformRateLimitedError).retryAfterMs).toBe(1000);
    expect(fake.tooManyRequests).toBe(before + 1);
    const res = await fetch(`${fake.apiRoot}/bot${TEST_BOT_TOKEN}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: 999001, text: 'three' }),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      ok: false,
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    });
  });

  it('delivers 50 concurrent multi-chunk replies completely, in order, once each, with every 429 handled', async () => {
    const prefix = newPrefix();
    const workers = [worker(fake, prefix), worker(fake, prefix)];
    // 45 private chats and 5 groups (20 messages a minute each), spread over the two workers.
    const chats: ChatRef[] = Array.from({ length: 50 }, (_, i) => ({
      platform: 'telegram',
      chatId: i < 45 ? String(100_000 + i) : String(-1_000_000_000_000 - i),
    }));
    const before = fake.tooManyRequests;
    const delivered = await Promise.all(chats.map((chat, i) => streamInto(workers[i % 2]!, chat, reply(i))));
    for (const d of delivered) {
      expect(visibleChunks(d.text).length).toBeGreaterThanOrEqual(3);
      expectDelivered(fake, d);
    }
    // For the record: how often Telegram would have said "Too Many Requests" (all handled above).
    console.info(
      `[deliveryBurst] 50 chats: ${fake.tooManyRequests - before} answers 429 from the fake Bot API, ${fake.calls.length} calls in all`,
    );
  }, 240_000);

  it('recovers from many 429s when the budget is far too generous for the platform', async () => {
    const prefix = newPrefix();
    const reckless: PlatformLimits = {
      privateChat: { perSecond: 100, burst: 100 },
      groupChat: { perSecond: 100, burst: 100 },
      global: { perSecond: 1000, burst: 1000 },
    };
    const workers = [worker(fake, prefix, { limits: reckless }), worker(fake, prefix, { limits: reckless })];
    const chats: ChatRef[] = Array.from({ length: 10 }, (_, i) => ({
      platform: 'telegram',
      chatId: String(200_000 + i),
    }));
    const before = fake.tooManyRequests;
    const delivered = await Promise.all(
      chats.map((chat, i) => streamInto(workers[i % 2]!, chat, reply(100 + i, 6_000), { step: 600 })),
    );
    expect(fake.tooManyRequests - before).toBeGreaterThan(0);
    for (const d of delivered) expectDelivered(fake, d);
  }, 120_000);

  it('streams a private chat by drafts: real messages only for complete chunks, no edits', async () => {
    const outbound = worker(fake, newPrefix(), { drafts: true });
    const chat: ChatRef = { platform: 'telegram', chatId: '300001' };
    const d = await streamInto(outbound, chat, reply(300, 6_000), { drafts: true, step: 200 });
    expectDelivered(fake, d);
    const drafts = fake.drafts(chat.chatId);
    expect(drafts.length).toBeGreaterThan(0);
    expect(fake.callsOf('editMessageText').filter((c) => String(c.params.chat_id) === chat.chatId)).toEqual([]);
    // Each draft showed the start of a chunk the user finally got.
    const finals = visibleChunks(d.text);
    for (const draft of drafts) expect(finals.some((f) => f.startsWith(draft.text.slice(0, 50)))).toBe(true);
    expect(d.streamer.draftError).toBeUndefined();
  }, 60_000);

  it('falls back to edits in a group, where Telegram has no drafts', async () => {
    const outbound = worker(fake, newPrefix(), { drafts: true });
    const chat: ChatRef = { platform: 'telegram', chatId: '-1009000000001' };
    const d = await streamInto(outbound, chat, reply(400, 1_500), { drafts: true, step: 150 });
    expectDelivered(fake, d);
    expect(d.streamer.draftError).toBeDefined();
    expect(fake.drafts(chat.chatId)).toEqual([]);
  }, 120_000);
});
