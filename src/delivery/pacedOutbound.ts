// An OutboundChannel that spends the chat's budget on every call and owns the retries: a 429
// blocks the chat (or the platform) for every process and is retried after retry_after; network
// hiccups and 5xx are retried with exponential backoff and jitter; a refusal (400s) surfaces at
// once. Both retry counts are bounded. Adapters stay thin: they only translate a 429 into
// PlatformRateLimitedError.
import type { Logger } from 'pino';
import type { ChatRef } from '../domain/model.js';
import type { DeliveryFailure } from '../domain/deliveryFailure.js';
import type { BudgetAccount, ChatBudget } from './chatBudget.js';
import { classifyDeliveryError } from './deliveryErrors.js';
import type { OutboundChannel, SendOptions } from './outbound.js';
import type { Metrics } from '../metrics/metrics.js';

/** The failure a 429 is: how long to wait, and whether the limit is the platform's as a whole. */
type RateLimited = Extract<DeliveryFailure, { kind: 'rate_limited' }>;

/**
 * An outbound that can skip a call when the chat has no budget right now. Intermediate pushes of
 * a streamed reply use it: a skipped one costs nothing, the next push carries the whole text.
 */
export interface SkippableOutbound extends OutboundChannel {
  /** false: skipped (no budget now, or the platform said 429; the chat is then blocked). */
  tryEdit(chat: ChatRef, platformMessageId: string, text: string, options?: SendOptions): Promise<boolean>;
  tryDraft?(chat: ChatRef, draftId: number, text: string): Promise<boolean>;
}

export const isSkippable = (o: OutboundChannel): o is SkippableOutbound =>
  typeof (o as Partial<SkippableOutbound>).tryEdit === 'function';

export interface PacedOutboundOptions {
  budget: ChatBudget;
  /** The bot this channel sends as, when not the deployment's (an agent's own bot): its own budget. */
  account?: BudgetAccount;
  /** 429s retried per call (default 8). */
  maxRateLimitRetries?: number;
  /** Network / 5xx failures retried per call (default 4). */
  maxTransientRetries?: number;
  /**
   * Retry a send after a network / 5xx failure (default true). A send that timed out may have
   * posted; turn this off for an adapter that already retries its sends idempotently (Discord's
   * nonce) so a second post is never made here. Edits, typing and drafts are always retried.
   */
  retrySends?: boolean;
  /** First backoff (default 500 ms), doubling up to maxBackoffMs (default 10 s). */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  log?: Logger;
  /** Failed calls counted by code (429s among them). */
  metrics?: Metrics;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class PacedOutbound implements SkippableOutbound {
  readonly platform: OutboundChannel['platform'];
  readonly maxMessageChars: number;
  readonly draft?: (chat: ChatRef, draftId: number, text: string) => Promise<void>;
  readonly tryDraft?: (chat: ChatRef, draftId: number, text: string) => Promise<boolean>;

  constructor(
    private readonly inner: OutboundChannel,
    private readonly o: PacedOutboundOptions,
  ) {
    this.platform = inner.platform;
    this.maxMessageChars = inner.maxMessageChars;
    const draft = inner.draft?.bind(inner);
    if (draft) {
      this.draft = (chat, draftId, text) => this.paced(chat, 'draft', () => draft(chat, draftId, text));
      this.tryDraft = (chat, draftId, text) => this.once(chat, 'draft', () => draft(chat, draftId, text));
    }
  }

  send(chat: ChatRef, text: string, options?: SendOptions): Promise<{ platformMessageId: string }> {
    return this.paced(chat, 'send', () => this.inner.send(chat, text, options), this.o.retrySends ?? true);
  }

  edit(chat: ChatRef, platformMessageId: string, text: string, options?: SendOptions): Promise<void> {
    return this.paced(chat, 'edit', () => this.inner.edit(chat, platformMessageId, text, options));
  }

  tryEdit(chat: ChatRef, platformMessageId: string, text: string, options?: SendOptions): Promise<boolean> {
    return this.once(chat, 'edit', () => this.inner.edit(chat, platformMessageId, text, options));
  }

  /** Typing is a hint: skipped, never queued, when the chat has no budget. */
  async typing(chat: ChatRef): Promise<void> {
    await this.once(chat, 'typing', () => this.inner.typing(chat));
  }

  /** Waits for budget, retries 429s and transient failures (bounded). */
  private async paced<T>(chat: ChatRef, what: string, call: () => Promise<T>, retryTransient = true): Promise<T> {
    let rateLimited = 0;
    let transient = 0;
    for (;;) {
      await this.o.budget.take(chat, { account: this.o.account });
      try {
        return await call();
      } catch (err) {
        const failure = classifyDeliveryError(err);
        this.o.metrics?.deliveryFailure(this.platform, failure);
        if (failure.kind === 'rate_limited' && rateLimited < (this.o.maxRateLimitRetries ?? 8)) {
          rateLimited += 1;
          // The next take() waits out the block, as does every other process sending there.
          await this.blockFor(chat, what, failure, 'backing off');
          continue;
        }
        if (failure.kind === 'transient' && retryTransient && transient < (this.o.maxTransientRetries ?? 4)) {
          transient += 1;
          const delay = this.backoff(transient);
          this.o.log?.warn(
            { platform: this.platform, chatId: chat.chatId, what, attempt: transient, delay, err: String(err) },
            'platform call failed: retrying',
          );
          await sleep(delay);
          continue;
        }
        throw err;
      }
    }
  }

  /** One call if the chat has budget now; a 429 blocks the chat and counts as skipped. */
  private async once(chat: ChatRef, what: string, call: () => Promise<unknown>): Promise<boolean> {
    if (!(await this.o.budget.tryTake(chat, this.o.account))) return false;
    try {
      await call();
      return true;
    } catch (err) {
      const failure = classifyDeliveryError(err);
      this.o.metrics?.deliveryFailure(this.platform, failure);
      if (failure.kind !== 'rate_limited') throw err;
      await this.blockFor(chat, what, failure, 'skipping');
      return false;
    }
  }

  /**
   * A 429 blocks where the platform said, for every process: the whole platform when the limit is
   * global, else the chat; logged with what hit it and what the caller does next.
   */
  private async blockFor(chat: ChatRef, what: string, limited: RateLimited, next: string): Promise<void> {
    this.o.log?.info(
      { platform: this.platform, chatId: chat.chatId, what, retryAfterMs: limited.retryAfterMs },
      `platform rate limit: ${next}`,
    );
    await this.o.budget.block(
      limited.global ? { platform: this.platform, global: true } : chat,
      limited.retryAfterMs,
      this.o.account,
    );
  }

  /** Exponential with "equal jitter": half fixed, half random, so retries spread out. */
  private backoff(attempt: number): number {
    const cap = Math.min(this.o.maxBackoffMs ?? 10_000, (this.o.baseBackoffMs ?? 500) * 2 ** (attempt - 1));
    return Math.round(cap / 2 + Math.random() * (cap / 2));
  }
}
