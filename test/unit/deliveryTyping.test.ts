import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboundChannel } from '../../src/delivery/outbound.js';
import { TypingIndicator } from '../../src/delivery/typingIndicator.js';
import type { ChatRef } from '../../src/domain/model.js';

const chat: ChatRef = { platform: 'telegram', chatId: '9' };

function outbound(fail = false) {
  const typed: number[] = [];
  const o: OutboundChannel = {
    platform: 'telegram',
    maxMessageChars: 4096,
    send: () => Promise.resolve({ platformMessageId: '1' }),
    edit: () => Promise.resolve(),
    typing: () => {
      typed.push(Date.now());
      return fail ? Promise.reject(new Error('typing failed')) : Promise.resolve();
    },
  };
  return { o, typed };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TypingIndicator', () => {
  it('sends typing at once and renews it every 4.5 s until stopped', async () => {
    vi.useFakeTimers({ now: 0 });
    const { o, typed } = outbound();
    const t = new TypingIndicator(o, chat).start();
    expect(typed).toEqual([0]);
    await vi.advanceTimersByTimeAsync(4_499);
    expect(typed).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(4_500);
    expect(typed).toEqual([0, 4_500, 9_000]);
    t.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(typed).toHaveLength(3);
  });

  it('stops by itself after maxMs when nobody stops it', async () => {
    vi.useFakeTimers({ now: 0 });
    const { o, typed } = outbound();
    new TypingIndicator(o, chat, { everyMs: 1_000, maxMs: 3_000 }).start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(typed).toEqual([0, 1_000, 2_000, 3_000]);
  });

  it('reports a failing typing action and keeps going', async () => {
    vi.useFakeTimers({ now: 0 });
    const { o, typed } = outbound(true);
    const errors: unknown[] = [];
    const t = new TypingIndicator(o, chat, { onError: (e) => errors.push(e) }).start();
    await vi.advanceTimersByTimeAsync(4_500);
    t.stop();
    expect(typed).toHaveLength(2);
    expect(errors).toHaveLength(2);
  });
});
