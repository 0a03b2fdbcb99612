// The reply's first writes wait for the context's first reads, but never long: a read that hangs
// (a large memory index loading) must not keep the dialogue's guard (src/respond/readsFirst.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readsFirst } from '../../src/respond/readsFirst.js';

describe('readsFirst', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const settled = (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    return () => done;
  };

  it('goes on as soon as the reads are back, failed or not', async () => {
    const none = settled(readsFirst(undefined));
    const failed = settled(readsFirst(Promise.reject(new Error('down'))));
    await vi.advanceTimersByTimeAsync(0);
    expect(none()).toBe(true);
    expect(failed()).toBe(true);
    expect(vi.getTimerCount()).toBe(0); // its bound is cleared, not left running
  });

  it('waits 20 ms at most for reads that do not come back', async () => {
    const hanging = settled(readsFirst(new Promise(() => undefined)));
    await vi.advanceTimersByTimeAsync(19);
    expect(hanging()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(hanging()).toBe(true);
  });
});
