// The per-chat budget on a real Redis. Two RedisChatBudget instances on separate connections act
// as two worker processes sharing the same buckets.
import { PlatformRegistry } from '../../src/platforms/platform.js';
import { PLATFORMS } from '../../app/platforms.js';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { DeliveryBudgetTimeoutError, RedisChatBudget, type PlatformLimits } from '../../src/delivery/chatBudget.js';
import type { ChatRef } from '../../src/domain/model.js';

const connections: Redis[] = [];
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit()));
});

/** Budgets of two "processes" sharing one fresh key prefix. */
function processes(telegram: PlatformLimits, n = 2): RedisChatBudget[] {
  const prefix = `test-budget-${randomBytes(4).toString('hex')}`;
  return Array.from({ length: n }, () => {
    const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    connections.push(redis);
    return new RedisChatBudget(redis, { prefix, platforms: new PlatformRegistry(PLATFORMS), limits: { telegram } });
  });
}

const NEVER_REFILL = 1 / 3600; // one token an hour: nothing refills during a test
const dm = (id: string): ChatRef => ({ platform: 'telegram', chatId: id });

describe('RedisChatBudget', () => {
  it('shares one chat bucket across processes: the burst is spent once, in total', async () => {
    const [a, b] = processes({
      privateChat: { perSecond: NEVER_REFILL, burst: 3 },
      groupChat: { perSecond: NEVER_REFILL, burst: 1 },
      global: { perSecond: NEVER_REFILL, burst: 100 },
    });
    const chat = dm('1001');
    expect(await a!.tryTake(chat)).toBe(true);
    expect(await b!.tryTake(chat)).toBe(true);
    expect(await a!.tryTake(chat)).toBe(true);
    expect(await b!.tryTake(chat)).toBe(false);
    expect(await a!.tryTake(chat)).toBe(false);
    // Another chat has its own bucket.
    expect(await b!.tryTake(dm('1002'))).toBe(true);
  });

  it('caps all chats together with the platform-wide bucket', async () => {
    const [a, b] = processes({
      privateChat: { perSecond: NEVER_REFILL, burst: 3 },
      groupChat: { perSecond: NEVER_REFILL, burst: 3 },
      global: { perSecond: NEVER_REFILL, burst: 4 },
    });
    for (let i = 0; i < 3; i++) expect(await a!.tryTake(dm('2001'))).toBe(true);
    expect(await b!.tryTake(dm('2002'))).toBe(true);
    // Chat 2002 still has two tokens of its own, but the bot as a whole has none left.
    expect(await b!.tryTake(dm('2002'))).toBe(false);
    expect(await a!.tryTake(dm('2003'))).toBe(false);
  });

  it('does not take a chat token when the global bucket is empty', async () => {
    const [a] = processes({
      privateChat: { perSecond: NEVER_REFILL, burst: 2 },
      groupChat: { perSecond: NEVER_REFILL, burst: 2 },
      global: { perSecond: NEVER_REFILL, burst: 1 },
    });
    expect(await a!.tryTake(dm('2101'))).toBe(true);
    expect(await a!.tryTake(dm('2102'))).toBe(false);
    expect(await a!.tryTake(dm('2102'))).toBe(false);
  });

  it('gives groups (negative Telegram ids) the group rate, and keeps platforms apart', async () => {
    const [a] = processes({
      privateChat: { perSecond: NEVER_REFILL, burst: 3 },
      groupChat: { perSecond: NEVER_REFILL, burst: 1 },
      global: { perSecond: NEVER_REFILL, burst: 100 },
    });
    const group = dm('-1003000');
    expect(await a!.tryTake(group)).toBe(true);
    expect(await a!.tryTake(group)).toBe(false);
    expect(await a!.tryTake({ platform: 'discord', chatId: '-1003000' })).toBe(true);
  });

  it("gives each bot its own buckets and blocks: a room's agents never wait on each other's budget", async () => {
    const [a, b] = processes({
      privateChat: { perSecond: NEVER_REFILL, burst: 3 },
      groupChat: { perSecond: NEVER_REFILL, burst: 2 },
      global: { perSecond: NEVER_REFILL, burst: 100 },
    });
    const group = dm('-1003001');
    for (const account of ['agt_aria', 'agt_bo', undefined]) {
      expect(await a!.tryTake(group, account)).toBe(true);
      expect(await b!.tryTake(group, account)).toBe(true);
      // Each bot's own group limit still holds, across processes.
      expect(await a!.tryTake(group, account)).toBe(false);
    }
    const other = dm('-1003002');
    await a!.block(other, 60_000, 'agt_aria');
    expect(await b!.tryTake(other, 'agt_aria')).toBe(false);
    expect(await b!.tryTake(other, 'agt_bo')).toBe(true);
    expect(await b!.tryTake(other)).toBe(true);
  });

  it('take() waits for the bucket to refill instead of failing', async () => {
    const [a, b] = processes({
      privateChat: { perSecond: 10, burst: 1 },
      groupChat: { perSecond: 10, burst: 1 },
      global: { perSecond: 100, burst: 10 },
    });
    const chat = dm('3001');
    await a!.take(chat);
    expect(await b!.tryTake(chat)).toBe(false);
    const started = Date.now();
    await b!.take(chat);
    // The next token cannot exist before ~100 ms have passed (one token per 100 ms).
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('block() from one process stops the chat in every process until it lapses', async () => {
    const [a, b] = processes({
      privateChat: { perSecond: 100, burst: 10 },
      groupChat: { perSecond: 100, burst: 10 },
      global: { perSecond: 1000, burst: 100 },
    });
    const chat = dm('4001');
    await a!.block(chat, 400);
    expect(await b!.tryTake(chat)).toBe(false);
    expect(await b!.tryTake(dm('4002'))).toBe(true); // only that chat
    const started = Date.now();
    await b!.take(chat);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('a global block stops every chat of the platform, not other platforms', async () => {
    const [a, b] = processes({
      privateChat: { perSecond: 100, burst: 10 },
      groupChat: { perSecond: 100, burst: 10 },
      global: { perSecond: 1000, burst: 100 },
    });
    await a!.block({ platform: 'telegram', global: true }, 10_000);
    expect(await b!.tryTake(dm('5001'))).toBe(false);
    expect(await b!.tryTake(dm('-5002'))).toBe(false);
    expect(await b!.tryTake({ platform: 'discord', chatId: '5001' })).toBe(true);
  });

  it('a shorter block never shortens a longer one', async () => {
    const [a, b] = processes({
      privateChat: { perSecond: 100, burst: 10 },
      groupChat: { perSecond: 100, burst: 10 },
      global: { perSecond: 1000, burst: 100 },
    });
    const chat = dm('6001');
    await a!.block(chat, 10_000);
    await b!.block(chat, 1);
    await new Promise((r) => setTimeout(r, 30));
    expect(await a!.tryTake(chat)).toBe(false);
  });

  it('take() gives up with a coded error when the wait would exceed maxWaitMs', async () => {
    const [a] = processes({
      privateChat: { perSecond: 100, burst: 10 },
      groupChat: { perSecond: 100, burst: 10 },
      global: { perSecond: 1000, burst: 100 },
    });
    const chat = dm('7001');
    await a!.block(chat, 60_000);
    const err: unknown = await a!.take(chat, { maxWaitMs: 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryBudgetTimeoutError);
    expect((err as DeliveryBudgetTimeoutError).code).toBe('DELIVERY_BUDGET_TIMEOUT');
  });

  it('hands out no more than the bucket allows to many concurrent takers', async () => {
    const budgets = processes(
      {
        privateChat: { perSecond: NEVER_REFILL, burst: 5 },
        groupChat: { perSecond: NEVER_REFILL, burst: 5 },
        global: { perSecond: NEVER_REFILL, burst: 100 },
      },
      4,
    );
    const chat = dm('8001');
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => budgets[i % 4]!.tryTake(chat)));
    expect(results.filter(Boolean)).toHaveLength(5);
  });
});
