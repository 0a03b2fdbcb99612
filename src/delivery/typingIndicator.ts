// "typing…" while a reply is pending and nothing is shown yet. Platforms show it for about 5 s
// (Telegram) or 10 s (Discord), so it is renewed every ~4.5 s; through a paced outbound each
// renewal spends budget only when there is some to spare (skipped otherwise, never queued).
import type { ChatRef } from '../domain/model.js';
import type { OutboundChannel } from './outbound.js';

export interface TypingIndicatorOptions {
  everyMs?: number;
  /** Safety stop when nobody calls stop() (e.g. the reply failed before streaming began). */
  maxMs?: number;
  onError?(err: unknown): void;
}

export class TypingIndicator {
  private timer: NodeJS.Timeout | undefined;
  private readonly deadline: number;
  private stopped = false;

  constructor(
    private readonly outbound: OutboundChannel,
    private readonly chat: ChatRef,
    private readonly o: TypingIndicatorOptions = {},
  ) {
    this.deadline = Date.now() + (o.maxMs ?? 120_000);
  }

  /** Sends the action now and keeps renewing it until stop(). */
  start(): this {
    this.tick();
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (this.stopped || Date.now() > this.deadline) return;
    this.outbound.typing(this.chat).catch((err: unknown) => this.o.onError?.(err));
    this.timer = setTimeout(() => this.tick(), this.o.everyMs ?? 4_500);
    this.timer.unref();
  }
}
