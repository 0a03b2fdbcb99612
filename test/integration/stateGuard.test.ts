// The state guard on a real Redis (src/store/stateGuard.ts): holders of one key never overlap,
// in one process or across two, each hold takes the key's next generation, and callers queued
// in one process do not poll Redis while they wait (issue 34: the acquire loop was a hot spot
// of a worker carrying hundreds of replies).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { RedisStateGuard } from '../../src/store/stateGuard.js';

const prefix = `guardtest${process.pid}`;
let n = 0;
const newKey = () => `dlg:${Date.now()}-${++n}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `count` holders of `key` at once on the given guards (round robin); the spans each held it. */
async function contend(guards: RedisStateGuard[], key: string, count: number, holdMs: number) {
  const spans: Array<{ from: number; to: number; generation: number }> = [];
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      guards[i % guards.length]!.run(key, async (hold) => {
        const from = performance.now();
        await sleep(holdMs);
        spans.push({ from, to: performance.now(), generation: hold.generation });
      }),
    ),
  );
  return spans.sort((a, b) => a.from - b.from);
}

const overlapping = (spans: Array<{ from: number; to: number }>) =>
  spans.filter((s, i) => i > 0 && s.from < spans[i - 1]!.to).length;

describe('the Redis state guard', () => {
  let redis: Redis;
  let other: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
    other = redis.duplicate();
  });
  afterAll(async () => {
    await redis.quit();
    await other.quit();
  });

  it('lets holders of one key in one process through one at a time, in order, without polling', async () => {
    const guard = new RedisStateGuard(redis, { prefix });
    const sent = vi.spyOn(redis, 'sendCommand');
    const spans = await contend([guard], newKey(), 30, 3);
    expect(overlapping(spans)).toBe(0);
    expect(spans.map((s) => s.generation)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // One acquire and one release per hold (a waiter that polled would send one every few ms).
    const guardCalls = sent.mock.calls.filter(([c]) => /^eval/.test(c.name)).length;
    sent.mockRestore();
    expect(guardCalls).toBeLessThanOrEqual(60 + 2);
  });

  it('keeps holders in two processes apart, every hold with its own generation', async () => {
    const a = new RedisStateGuard(redis, { prefix });
    const b = new RedisStateGuard(other, { prefix });
    const spans = await contend([a, b], newKey(), 20, 5);
    expect(overlapping(spans)).toBe(0);
    expect(new Set(spans.map((s) => s.generation)).size).toBe(20);
  });

  it('gives up with DIALOGUE_BUSY when another process keeps the key, and frees the queue behind', async () => {
    const key = newKey();
    const holder = new RedisStateGuard(other, { prefix });
    const waiting = new RedisStateGuard(redis, { prefix, maxWaitMs: 150 });
    let letGo!: () => void;
    const held = holder.run(key, () => new Promise<void>((r) => (letGo = r)));
    await sleep(20);
    const first = waiting.run(key, () => Promise.resolve('first'));
    const second = waiting.run(key, () => Promise.resolve('second'));
    await expect(first).rejects.toMatchObject({ code: 'DIALOGUE_BUSY' });
    await expect(second).rejects.toMatchObject({ code: 'DIALOGUE_BUSY' }); // its wait counts from its own call
    letGo();
    await held;
    await expect(waiting.run(key, () => Promise.resolve('after'))).resolves.toBe('after');
  });

  it('enters a key this call chain already holds without waiting on itself', async () => {
    const guard = new RedisStateGuard(redis, { prefix });
    const key = newKey();
    const inner = await guard.run(key, (outer) => guard.run(key, (hold) => Promise.resolve({ outer, hold })));
    expect(inner.hold).toEqual({ generation: inner.outer.generation, reentered: true });
  });
});
