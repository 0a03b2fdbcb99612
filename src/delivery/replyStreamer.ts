// Shows a reply on the platform while it streams: one message sent, then edited at most once
// per interval, new messages when the text outgrows the platform limit. Persist-before-push:
// every text pushed was stored first. Already-delivered chunks (recorded in the message's
// outbox ids) are edited, never sent again, so a retried job does not duplicate them.
//
// Rate limits: through a paced outbound (pacedOutbound.ts) intermediate edits and drafts are
// skipped when the chat has no budget (the next push carries the whole text anyway), while new
// chunks and the final push wait for budget. In Telegram private chats the growing last chunk can
// be streamed as a draft (sendMessageDraft) and sent as a real message only once complete.
import { createHash } from 'node:crypto';
import type { ChatRef } from '../domain/model.js';
import type { MessageKey, MessageRepo } from '../store/messages.js';
import { classifyDeliveryError } from './deliveryErrors.js';
import type { OutboundChannel, SendOptions } from './outbound.js';
import { isSkippable } from './pacedOutbound.js';
import { splitForPlatform } from './split.js';
import { retryTransient } from '../transientRetry.js';

/** 250 ms, 500 ms … 16 s between tries: about 32 s in all. */
const RECORD_RETRY = { attempts: 8, baseMs: 250 };

export interface ReplyStreamerOptions {
  /** The stored reply; its dialogue is told about every streamed write. */
  message: MessageKey;
  chat: ChatRef;
  outbound: OutboundChannel;
  messages: Pick<MessageRepo, 'saveStreamedText' | 'recordPlatformMessage'>;
  intervalMs: number;
  /** Platform message ids already carrying this reply (from a previous attempt). */
  deliveredIds: string[];
  /** Persona for every message of the reply; replyTo for its first message only. */
  sendOptions?: SendOptions;
  /** Stream the growing text as a platform draft when the outbound offers drafts (private chats). */
  drafts?: boolean;
  /** Stopped when the first text shows (or at finish). */
  typing?: { stop(): void };
  /** Nothing is stored or shown before this settles; nothing at all if it fails. */
  ready?: Promise<unknown>;
}

/** Telegram draft ids are non-zero integers; one per chunk of a reply, stable across retries. */
export function draftIdOf(messageId: string, chunk: number): number {
  return (createHash('sha1').update(`${messageId}:${chunk}`).digest().readUInt32BE(0) % 2_147_483_646) + 1;
}

/**
 * The final chunks, at least as many as the messages already delivered: a retried reply can
 * come out shorter than what a crashed attempt showed, and no delivered message may keep text
 * that is not part of the reply (the port cannot delete, and the outbox keeps the ids).
 */
function spreadOver(text: string, delivered: number, limit: number): string[] {
  const chunks = splitForPlatform(text, limit);
  const visible = text.trim().length;
  if (chunks.length >= delivered || visible === 0) return chunks;
  return splitForPlatform(text.trim(), Math.max(1, Math.min(limit, Math.floor(visible / delivered))));
}

export class ReplyStreamer {
  private text = '';
  private readonly shown: string[] = [];
  private readonly drafted: string[] = [];
  private readonly ids: string[];
  private lastPush = 0;
  private pending: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private drafting: boolean;
  private finished = false;
  /** The last intermediate push failure, for the trace. */
  lastError: unknown;
  /** Why drafts were abandoned for this reply, if they were. */
  draftError: unknown;

  constructor(private readonly o: ReplyStreamerOptions) {
    this.ids = [...o.deliveredIds];
    this.drafting = o.drafts === true && o.outbound.draft !== undefined;
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

  /**
   * Ends streaming: no intermediate push starts from now on, and those in flight are awaited,
   * so the caller writes the final state alone (a store applying updates as read-then-write,
   * like FerretDB, would otherwise let a late streamed write undo it).
   */
  async endStreaming(): Promise<void> {
    this.finished = true;
    await this.drain();
  }

  /** Waits for pushes in flight and cancels a scheduled one. */
  async drain(): Promise<void> {
    for (;;) {
      clearTimeout(this.timer);
      this.timer = undefined;
      const inFlight = this.pending;
      await inFlight;
      // A push queued while we waited (a fired retry timer, a late delta) is awaited too.
      if (this.pending === inFlight && this.timer === undefined) return;
    }
  }

  /** Stores and shows the final text (which may differ from the streamed one, e.g. a notice). */
  async finish(finalText: string): Promise<void> {
    this.finished = true;
    this.o.typing?.stop();
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
      .then((complete) => {
        // Skipped for lack of budget with nothing more streaming in: try again later.
        if (!complete && !final && !this.finished)
          this.timer ??= setTimeout(() => this.queuePush(false), Math.max(50, this.o.intervalMs));
      })
      .catch((err: unknown) => {
        if (final) throw err;
        this.lastError = err;
      });
  }

  /** false when part of the push was skipped for lack of budget. */
  private async push(final: boolean): Promise<boolean> {
    if (!final && this.finished) return true; // a retry scheduled just before finish()
    await this.o.ready;
    this.lastPush = Date.now();
    const text = this.text;
    if (!final) {
      if (text.trim().length === 0) return true;
      await this.o.messages.saveStreamedText(this.o.message, text, new Date());
    }
    // The final text is stored by the caller (finishReply) before finish() is called.
    const chunks = final
      ? spreadOver(text, this.ids.length, this.o.outbound.maxMessageChars)
      : splitForPlatform(text, this.o.outbound.maxMessageChars);
    for (const [i, chunk] of chunks.entries()) {
      if (chunk.trim().length === 0) continue;
      const id = this.ids[i];
      if (id === undefined) {
        // The chunk still growing at the end of the text: a draft until it is complete.
        if (!final && this.drafting && i === chunks.length - 1) {
          if (this.drafted[i] === chunk) continue;
          const drafted = await this.showDraft(i, chunk);
          if (drafted === 'skipped') return false;
          if (drafted === 'shown') {
            this.drafted[i] = chunk;
            this.o.typing?.stop();
            continue;
          }
          // Refused: this reply streams by edits from here on.
        }
        const sent = await this.o.outbound.send(this.o.chat, chunk, this.optionsFor(i));
        this.ids.push(sent.platformMessageId);
        // Sent: a store restarting now must not fail the reply, or its retry would send the
        // chunk again. Recording waits the store out (about half a minute at most).
        await retryTransient(
          () => this.o.messages.recordPlatformMessage(this.o.message, this.o.chat, sent.platformMessageId),
          RECORD_RETRY,
        );
        this.o.typing?.stop();
      } else if (this.shown[i] !== chunk) {
        const outbound = this.o.outbound;
        if (!final && isSkippable(outbound)) {
          if (!(await outbound.tryEdit(this.o.chat, id, chunk, this.optionsFor(i)))) return false;
        } else {
          await outbound.edit(this.o.chat, id, chunk, this.optionsFor(i));
        }
        this.o.typing?.stop();
      }
      this.shown[i] = chunk;
    }
    return true;
  }

  private async showDraft(i: number, chunk: string): Promise<'shown' | 'skipped' | 'refused'> {
    const { outbound, chat } = this.o;
    const draftId = draftIdOf(this.o.message._id, i);
    try {
      if (isSkippable(outbound) && outbound.tryDraft)
        return (await outbound.tryDraft(chat, draftId, chunk)) ? 'shown' : 'skipped';
      await outbound.draft?.(chat, draftId, chunk);
      return 'shown';
    } catch (err) {
      if (classifyDeliveryError(err).kind === 'rate_limited') return 'skipped';
      this.drafting = false;
      this.draftError = err;
      return 'refused';
    }
  }

  private optionsFor(chunk: number): SendOptions | undefined {
    const o = this.o.sendOptions;
    if (!o) return undefined;
    if (chunk === 0) return o;
    const { replyToPlatformMessageId: _first, ...rest } = o;
    return rest;
  }
}
