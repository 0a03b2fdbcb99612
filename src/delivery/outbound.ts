// The port through which replies reach a platform. Adapters implement it with the platform's
// REST API, so a worker needs no gateway connection (SPEC §7). Texts handed to an adapter are
// already split to `maxMessageChars` by the core (src/delivery/split.ts) and are Markdown as the
// model wrote it; the adapter renders the platform's format (Telegram HTML, Discord Markdown).
import type { ChatRef, Platform } from '../domain/model.js';

/** Who a message appears to come from when several AI personas share a chat (Discord webhooks). */
export interface Persona {
  name: string;
  avatarUrl?: string;
}

export interface SendOptions {
  persona?: Persona;
  /** Platform message id this message answers (shown as a reply/quote on the platform). */
  replyToPlatformMessageId?: string;
}

export interface OutboundChannel {
  readonly platform: Platform;
  /** Longest text one platform message may carry (Telegram 4096, Discord 2000). */
  readonly maxMessageChars: number;
  send(chat: ChatRef, text: string, options?: SendOptions): Promise<{ platformMessageId: string }>;
  edit(chat: ChatRef, platformMessageId: string, text: string, options?: SendOptions): Promise<void>;
  typing(chat: ChatRef): Promise<void>;
  /**
   * Telegram's draft streaming (sendMessageDraft) in private chats: shows the growing text as
   * a draft without creating a message. Absent or rejecting → the core streams by edits.
   */
  draft?(chat: ChatRef, draftId: number, text: string): Promise<void>;
}

export type Outbounds = Partial<Record<Platform, OutboundChannel>>;

/**
 * Thrown by an adapter when the platform answered 429. The core's delivery layer waits
 * `retryAfterMs` and retries; it never surfaces this to the user.
 */
/**
 * A platform call that failed, as its adapter tells the core: `status` is the platform's HTTP
 * answer; absent, no answer came (network, timeout). Adapters translate their client's errors
 * into this, so the core knows no client library's error shapes.
 */
export class PlatformCallError extends Error {
  override readonly name = 'PlatformCallError';
  constructor(
    readonly platform: Platform,
    readonly status: number | undefined,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class PlatformRateLimitedError extends Error {
  override readonly name = 'PlatformRateLimitedError';
  constructor(
    readonly platform: Platform,
    readonly retryAfterMs: number,
    /** Discord: the limit is global for the bot, not per route/chat. */
    readonly global = false,
  ) {
    super(`${platform} rate limited; retry after ${retryAfterMs} ms`);
  }
}
