// Telegram-style flood limits for the fake Bot API: sliding windows per chat (about one message a
// second), per group (20 a minute) and overall (about 30 a second), each counted for every bot
// (token) on its own, as Telegram limits each bot, over every method that posts into a chat
// (messages, edits, chat actions, drafts, media). A request over a limit is refused as Telegram
// does — HTTP 429, "Too Many Requests: retry after N", parameters.retry_after in whole seconds —
// and is not counted as sent.

export interface TelegramRateLimits {
  /** Requests into one chat within any 1 s (Telegram: about 1, with short bursts tolerated). */
  perChatPerSecond?: number;
  /** Requests into one group/supergroup (negative chat id) within any 60 s (Telegram: 20). */
  groupPerMinute?: number;
  /** The group window's length (default 60 000 ms); shorter, with the sender's budget scaled alike, a test sees minutes in seconds. */
  groupWindowMs?: number;
  /** Requests into all chats within any 1 s (Telegram: about 30). */
  globalPerSecond?: number;
}

const LIMITED_METHODS = new Set(
  [
    'sendMessage',
    'editMessageText',
    'editMessageCaption',
    'editMessageMedia',
    'sendChatAction',
    'sendMessageDraft',
    'sendPhoto',
    'sendDocument',
    'sendAudio',
    'sendVoice',
    'sendVideo',
    'sendVideoNote',
    'sendAnimation',
    'sendSticker',
    'sendMediaGroup',
    'sendLocation',
    'copyMessage',
    'forwardMessage',
  ].map((m) => m.toLowerCase()),
);

/** Whether a method posts into a chat and so counts against the limits. */
export const isLimitedMethod = (method: string): boolean => LIMITED_METHODS.has(method.toLowerCase());

class SlidingWindow {
  private readonly times: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait before one more request fits, or 0 when it fits now. */
  waitSeconds(now: number): number {
    while (this.times.length > 0 && this.times[0]! <= now - this.windowMs) this.times.shift();
    if (this.times.length < this.limit) return 0;
    return Math.max(1, Math.ceil((this.times[0]! + this.windowMs - now) / 1000));
  }

  add(now: number): void {
    this.times.push(now);
  }
}

export class TelegramRateLimiter {
  /** How many requests were answered 429. */
  rejected = 0;
  private readonly windows = new Map<string, SlidingWindow>();

  constructor(private readonly limits: TelegramRateLimits) {}

  /** Admits and counts the request of bot `token`, or returns retry_after (seconds) for a 429. */
  admit(method: string, params: Record<string, unknown>, token = '', now = Date.now()): number | undefined {
    if (!isLimitedMethod(method)) return undefined;
    const chat = typeof params.chat_id === 'number' || typeof params.chat_id === 'string' ? String(params.chat_id) : '';
    const applicable: SlidingWindow[] = [];
    const { perChatPerSecond, groupPerMinute, globalPerSecond } = this.limits;
    if (globalPerSecond !== undefined) applicable.push(this.window(`${token}|global`, globalPerSecond, 1_000));
    if (chat !== '' && perChatPerSecond !== undefined)
      applicable.push(this.window(`${token}|chat:${chat}`, perChatPerSecond, 1_000));
    if (chat.startsWith('-') && groupPerMinute !== undefined)
      applicable.push(this.window(`${token}|group:${chat}`, groupPerMinute, this.limits.groupWindowMs ?? 60_000));
    const wait = Math.max(0, ...applicable.map((w) => w.waitSeconds(now)));
    if (wait > 0) {
      this.rejected += 1;
      return wait;
    }
    for (const w of applicable) w.add(now);
    return undefined;
  }

  private window(key: string, limit: number, windowMs: number): SlidingWindow {
    let w = this.windows.get(key);
    if (!w) {
      w = new SlidingWindow(limit, windowMs);
      this.windows.set(key, w);
    }
    return w;
  }
}
