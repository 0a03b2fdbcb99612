// Replies to Telegram through the Bot API (REST), usable from any worker process.
import { Api, GrammyError } from 'grammy';
import type { ChatRef } from '../../src/domain/model.js';
import type { OutboundChannel } from '../../src/delivery/outbound.js';

export const TELEGRAM_MAX_MESSAGE_CHARS = 4096;

export class TelegramOutbound implements OutboundChannel {
  readonly platform = 'telegram' as const;
  readonly maxMessageChars = TELEGRAM_MAX_MESSAGE_CHARS;
  private readonly api: Api;

  constructor(token: string, apiRoot: string) {
    this.api = new Api(token, { apiRoot });
  }

  async send(chat: ChatRef, text: string): Promise<{ platformMessageId: string }> {
    const sent = await this.withRetryAfter(() =>
      this.api.sendMessage(Number(chat.chatId), text, {
        ...(chat.threadId ? { message_thread_id: Number(chat.threadId) } : {}),
        link_preview_options: { is_disabled: true },
      }),
    );
    return { platformMessageId: String(sent.message_id) };
  }

  async edit(chat: ChatRef, platformMessageId: string, text: string): Promise<void> {
    try {
      await this.withRetryAfter(() => this.api.editMessageText(Number(chat.chatId), Number(platformMessageId), text, { link_preview_options: { is_disabled: true } }));
    } catch (err) {
      // The platform already shows exactly this text (e.g. a retried final edit): done.
      if (err instanceof GrammyError && err.description.includes('message is not modified')) return;
      throw err;
    }
  }

  async typing(chat: ChatRef): Promise<void> {
    await this.api.sendChatAction(Number(chat.chatId), 'typing', chat.threadId ? { message_thread_id: Number(chat.threadId) } : {});
  }

  /** Honours Telegram's 429 retry_after (a few times) instead of failing the reply. */
  private async withRetryAfter<T>(call: () => Promise<T>, attempts = 3): Promise<T> {
    for (let i = 1; ; i++) {
      try {
        return await call();
      } catch (err) {
        const retryAfter = err instanceof GrammyError && err.error_code === 429 ? err.parameters.retry_after : undefined;
        if (retryAfter === undefined || i >= attempts) throw err;
        await new Promise((r) => setTimeout(r, retryAfter * 1000));
      }
    }
  }
}
