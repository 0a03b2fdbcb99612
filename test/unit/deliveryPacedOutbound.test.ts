// The paced decorator's error paths against a tiny in-test channel and an in-memory budget.
import { GrammyError, HttpError } from 'grammy';
import { describe, expect, it } from 'vitest';
import type { BudgetScope, ChatBudget } from '../../src/delivery/chatBudget.js';
import { classifyDeliveryError } from '../../src/delivery/deliveryErrors.js';
import { rethrowAsPortError } from '../../adapters/telegram/outbound.js';
import { PlatformCallError, PlatformRateLimitedError, type OutboundChannel } from '../../src/delivery/outbound.js';
import { PacedOutbound, isSkippable } from '../../src/delivery/pacedOutbound.js';
import type { ChatRef } from '../../src/domain/model.js';

const chat: ChatRef = { platform: 'telegram', chatId: '42' };

class MemoryBudget implements ChatBudget {
  tokens = Number.POSITIVE_INFINITY;
  readonly events: string[] = [];
  readonly blocks: Array<{ scope: BudgetScope; ms: number }> = [];
  take(): Promise<void> {
    this.events.push('take');
    return Promise.resolve();
  }
  tryTake(): Promise<boolean> {
    this.events.push('tryTake');
    if (this.tokens <= 0) return Promise.resolve(false);
    this.tokens -= 1;
    return Promise.resolve(true);
  }
  block(scope: BudgetScope, ms: number): Promise<void> {
    this.blocks.push({ scope, ms });
    return Promise.resolve();
  }
}

/** A channel whose every call fails with the queued errors first, then succeeds. */
function channel(errors: Error[] = [], o: { draft?: boolean } = {}) {
  const calls: string[] = [];
  const next = (what: string) => {
    calls.push(what);
    const err = errors.shift();
    return err === undefined ? Promise.resolve() : Promise.reject(err);
  };
  const inner: OutboundChannel = {
    platform: 'telegram',
    maxMessageChars: 4096,
    send: async (_c, text) => {
      await next(`send:${text}`);
      return { platformMessageId: String(calls.length) };
    },
    edit: (_c, id, text) => next(`edit:${id}:${text}`),
    typing: () => next('typing'),
    ...(o.draft ? { draft: (_c: ChatRef, id: number, text: string) => next(`draft:${id}:${text}`) } : {}),
  };
  return { inner, calls };
}

const grammyError = (code: number, description: string, retryAfter?: number) =>
  new GrammyError(
    `Call to 'sendMessage' failed! (${code}: ${description})`,
    { ok: false, error_code: code, description, ...(retryAfter ? { parameters: { retry_after: retryAfter } } : {}) },
    'sendMessage',
    {},
  );
/** A platform's refusal as an adapter hands it to the core. */
const callError = (status: number, description: string) => new PlatformCallError('telegram', status, description);

/** What the Telegram adapter hands the core for one of grammY's errors. */
function viaTelegram(err: unknown): unknown {
  try {
    rethrowAsPortError(err);
  } catch (translated) {
    return translated;
  }
}
const networkError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });
const fast = { baseBackoffMs: 1, maxBackoffMs: 4 };

describe('classifyDeliveryError', () => {
  it("reads the port's errors (the Telegram adapter's translation here), statuses and network failures", () => {
    expect(classifyDeliveryError(new PlatformRateLimitedError('discord', 2500, true))).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 2500,
      global: true,
    });
    expect(classifyDeliveryError(viaTelegram(grammyError(429, 'Too Many Requests: retry after 7', 7)))).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 7000,
      global: false,
    });
    expect(classifyDeliveryError(viaTelegram(grammyError(502, 'Bad Gateway')))).toEqual({ kind: 'transient' });
    expect(classifyDeliveryError(viaTelegram(grammyError(400, 'Bad Request: chat not found')))).toEqual({
      kind: 'permanent',
    });
    expect(classifyDeliveryError(viaTelegram(grammyError(403, 'Forbidden: bot was blocked by the user')))).toEqual({
      kind: 'permanent',
    });
    expect(classifyDeliveryError(Object.assign(new Error('Internal Server Error'), { status: 500 }))).toEqual({
      kind: 'transient',
    });
    expect(
      classifyDeliveryError(
        viaTelegram(new HttpError("Network request for 'sendMessage' failed!", networkError('ECONNREFUSED'))),
      ),
    ).toEqual({ kind: 'transient' });
    expect(classifyDeliveryError(new TypeError('fetch failed', { cause: networkError('ECONNRESET') }))).toEqual({
      kind: 'transient',
    });
    expect(classifyDeliveryError(new TypeError('x is not a function'))).toEqual({ kind: 'permanent' });
  });
});

describe('PacedOutbound', () => {
  it('spends one token per call and passes the options through', async () => {
    const budget = new MemoryBudget();
    const { inner, calls } = channel();
    const paced = new PacedOutbound(inner, { budget });
    await paced.send(chat, 'hello', { persona: { name: 'Iris' } });
    await paced.edit(chat, '1', 'hello!');
    expect(calls).toEqual(['send:hello', 'edit:1:hello!']);
    expect(budget.events).toEqual(['take', 'take']);
    expect(paced.platform).toBe('telegram');
    expect(paced.maxMessageChars).toBe(4096);
  });

  it('after a 429 blocks the chat for retry_after and sends again', async () => {
    const budget = new MemoryBudget();
    const { inner, calls } = channel([new PlatformRateLimitedError('telegram', 3000)]);
    const sent = await new PacedOutbound(inner, { budget }).send(chat, 'hi');
    expect(sent.platformMessageId).toBe('2');
    expect(calls).toEqual(['send:hi', 'send:hi']);
    expect(budget.blocks).toEqual([{ scope: chat, ms: 3000 }]);
    expect(budget.events).toEqual(['take', 'take']); // the retry waits for budget again (the block)
  });

  it('blocks the whole platform when the 429 is global', async () => {
    const budget = new MemoryBudget();
    const { inner } = channel([new PlatformRateLimitedError('telegram', 1000, true)]);
    await new PacedOutbound(inner, { budget }).edit(chat, '5', 'x');
    expect(budget.blocks).toEqual([{ scope: { platform: 'telegram', global: true }, ms: 1000 }]);
  });

  it('gives up after a bounded number of 429s', async () => {
    const budget = new MemoryBudget();
    const { inner, calls } = channel(Array.from({ length: 10 }, () => new PlatformRateLimitedError('telegram', 10)));
    await expect(new PacedOutbound(inner, { budget, maxRateLimitRetries: 3 }).send(chat, 'x')).rejects.toBeInstanceOf(
      PlatformRateLimitedError,
    );
    expect(calls).toHaveLength(4);
  });

  it('retries network failures and 5xx with backoff, then succeeds', async () => {
    const budget = new MemoryBudget();
    const { inner, calls } = channel([
      new HttpError("Network request for 'sendMessage' failed!", networkError('ECONNRESET')),
      callError(502, 'Bad Gateway'),
    ]);
    await new PacedOutbound(inner, { budget, ...fast }).send(chat, 'x');
    expect(calls).toHaveLength(3);
    expect(budget.blocks).toEqual([]);
  });

  it('surfaces a transient failure that outlasts the retries', async () => {
    const budget = new MemoryBudget();
    const { inner, calls } = channel(Array.from({ length: 10 }, () => callError(500, 'Internal Server Error')));
    await expect(
      new PacedOutbound(inner, { budget, maxTransientRetries: 2, ...fast }).edit(chat, '1', 'x'),
    ).rejects.toBeInstanceOf(PlatformCallError);
    expect(calls).toHaveLength(3);
  });

  it('with retrySends off, leaves a failed send to the caller but still retries edits and 429s', async () => {
    const budget = new MemoryBudget();
    const sends = channel([callError(502, 'Bad Gateway'), new PlatformRateLimitedError('telegram', 5)]);
    const paced = new PacedOutbound(sends.inner, { budget, retrySends: false, ...fast });
    await expect(paced.send(chat, 'once')).rejects.toBeInstanceOf(PlatformCallError);
    await paced.send(chat, 'after 429');
    expect(sends.calls).toEqual(['send:once', 'send:after 429', 'send:after 429']);
    const edits = channel([callError(502, 'Bad Gateway')]);
    await new PacedOutbound(edits.inner, { budget, retrySends: false, ...fast }).edit(chat, '1', 'edited');
    expect(edits.calls).toEqual(['edit:1:edited', 'edit:1:edited']);
  });

  it('surfaces a refusal (400) at once, without retrying', async () => {
    const budget = new MemoryBudget();
    const { inner, calls } = channel([callError(400, 'Bad Request: message to edit not found')]);
    await expect(new PacedOutbound(inner, { budget, ...fast }).edit(chat, '9', 'x')).rejects.toThrow(
      'message to edit not found',
    );
    expect(calls).toHaveLength(1);
  });

  it('tryEdit skips without calling the platform when the chat has no budget', async () => {
    const budget = new MemoryBudget();
    budget.tokens = 1;
    const { inner, calls } = channel();
    const paced = new PacedOutbound(inner, { budget });
    expect(isSkippable(paced)).toBe(true);
    expect(isSkippable(inner)).toBe(false);
    expect(await paced.tryEdit(chat, '1', 'a')).toBe(true);
    expect(await paced.tryEdit(chat, '1', 'ab')).toBe(false);
    expect(calls).toEqual(['edit:1:a']);
    expect(budget.events).toEqual(['tryTake', 'tryTake']);
  });

  it('tryEdit turns a 429 into a skip and blocks the chat; other failures still throw', async () => {
    const budget = new MemoryBudget();
    const { inner } = channel([
      new PlatformRateLimitedError('telegram', 2000),
      callError(400, 'Bad Request: message to edit not found'),
    ]);
    const paced = new PacedOutbound(inner, { budget });
    expect(await paced.tryEdit(chat, '1', 'a')).toBe(false);
    expect(budget.blocks).toEqual([{ scope: chat, ms: 2000 }]);
    await expect(paced.tryEdit(chat, '1', 'a')).rejects.toThrow('message to edit not found');
  });

  it('typing is skipped, never queued, when there is no budget', async () => {
    const budget = new MemoryBudget();
    budget.tokens = 0;
    const { inner, calls } = channel();
    await new PacedOutbound(inner, { budget }).typing(chat);
    expect(calls).toEqual([]);
    expect(budget.events).toEqual(['tryTake']);
  });

  it('offers drafts only when the adapter does', async () => {
    const budget = new MemoryBudget();
    expect(new PacedOutbound(channel().inner, { budget }).draft).toBeUndefined();
    const { inner, calls } = channel([], { draft: true });
    const paced = new PacedOutbound(inner, { budget });
    expect(await paced.tryDraft?.(chat, 7, 'partial')).toBe(true);
    await paced.draft?.(chat, 7, 'partial more');
    expect(calls).toEqual(['draft:7:partial', 'draft:7:partial more']);
    expect(budget.events).toEqual(['tryTake', 'take']);
  });
});
