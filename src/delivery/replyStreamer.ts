// Shows a reply on the platform while it streams: one message sent, then edited at most once
// per interval, new messages when the text outgrows the platform limit. Persist-before-push:
// every text pushed was stored first. Already-delivered chunks (recorded in the message's
// outbox ids) are edited, never sent again, so a retried job does not duplicate them.
import type { ChatRef } from '../domain/model.js';
import type { MessageRepo } from '../store/messages.js';
import type { OutboundChannel } from './outbound.js';
import { splitForPlatform } from './split.js';

export interface ReplyStreamerOptions {
  messageId: string;
  chat: ChatRef;
  outbound: OutboundChannel;
  messages: MessageRepo;
  intervalMs: number;
  /** Platform message ids already carrying this reply (from a previous attempt). */
  deliveredIds: string[];
}

export class ReplyStreamer {
  private text = '';
  private readonly shown: string[] = [];
  private readonly ids: string[];
  private lastPush = 0;
  private pending: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  /** The last intermediate push failure, for the trace. */
  lastError: unknown;

  constructor(private readonly o: ReplyStreamerOptions) {
    this.ids = [...o.deliveredIds];
  }

  /** Adds streamed text; pushes now or schedules one push within the interval. */
  append(delta: string): void {
    this.text += delta;
    const wait = this.lastPush + this.o.intervalMs - Date.now();
    if (wait <= 0) this.queuePush(false);
    else this.timer ??= setTimeout(() => this.queuePush(false), wait);
  }

  get currentText(): string {
    return this.text;
  }

  get platformMessageIds(): string[] {
    return [...this.ids];
  }

  /** Waits for pushes in flight and cancels a scheduled one, so the caller can write the final state alone. */
  async drain(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.pending;
  }

  /** Stores and shows the final text (which may differ from the streamed one, e.g. a notice). */
  async finish(finalText: string): Promise<void> {
    this.text = finalText;
    this.queuePush(true);
    await this.pending;
  }

  private queuePush(final: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // A failed intermediate push is not fatal: the next push (and the final one) carries the
    // whole text again. Only a failed final push fails the delivery.
    this.pending = this.pending
      .catch(() => {})
      .then(() => this.push(final))
      .catch((err: unknown) => {
        if (final) throw err;
        this.lastError = err;
      });
  }

  private async push(final: boolean): Promise<void> {
    this.lastPush = Date.now();
    const text = this.text;
    if (!final) {
      if (text.trim().length === 0) return;
      await this.o.messages.saveStreamedText(this.o.messageId, text, new Date());
    }
    // The final text is stored by the caller (finishReply) before finish() is called.
    const chunks = splitForPlatform(text, this.o.outbound.maxMessageChars);
    for (const [i, chunk] of chunks.entries()) {
      if (chunk.trim().length === 0) continue;
      const id = this.ids[i];
      if (id === undefined) {
        const sent = await this.o.outbound.send(this.o.chat, chunk);
        this.ids.push(sent.platformMessageId);
        await this.o.messages.recordPlatformMessage(this.o.messageId, sent.platformMessageId);
      } else if (this.shown[i] !== chunk) {
        await this.o.outbound.edit(this.o.chat, id, chunk);
      }
      this.shown[i] = chunk;
    }
  }
}
