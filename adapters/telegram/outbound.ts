// Replies to Telegram through the Bot API (REST), usable from any worker process.
// Texts arrive as the model's Markdown, already split by the core; they are sent as Telegram HTML
// and, when Telegram refuses that HTML, once more as the plain text itself. A 429 becomes
// PlatformRateLimitedError: the core's delivery layer owns waiting and retrying.
import { Api, GrammyError, HttpError } from 'grammy';
import type { Logger } from 'pino';
import type { ChatRef } from '../../src/domain/model.js';
import {
  PlatformCallError,
  PlatformRateLimitedError,
  type OutboundChannel,
  type SendOptions,
} from '../../src/delivery/outbound.js';
import { markdownToTelegramHtml } from './format.js';

export const TELEGRAM_MAX_MESSAGE_CHARS = 4096;

export interface TelegramOutboundOptions {
  /** Offer draft streaming (sendMessageDraft) in private chats; off → the core streams by edits. */
  drafts?: boolean;
  log?: Logger;
}

/** Telegram refused our formatting (or its rendering outgrew the limit): plain text will do. */
const formattingRefused = (err: unknown): boolean =>
  err instanceof GrammyError &&
  err.error_code === 400 &&
  /can't parse entities|message is too long|text is too long/i.test(err.description);

const notModified = (err: unknown): boolean =>
  err instanceof PlatformCallError && err.status === 400 && err.message.includes('message is not modified');

/**
 * Telegram's errors in the core's terms: a 429 is PlatformRateLimitedError, another answer a
 * PlatformCallError with its status, no answer (grammY's HttpError) one without; the original
 * is the cause. Anything else is rethrown as is.
 */
export function rethrowAsPortError(err: unknown): never {
  if (err instanceof GrammyError && err.error_code === 429) {
    const seconds = err.parameters.retry_after ?? 1;
    throw new PlatformRateLimitedError('telegram', seconds * 1000);
  }
  if (err instanceof GrammyError)
    throw new PlatformCallError('telegram', err.error_code, err.description, { cause: err });
  if (err instanceof HttpError) throw new PlatformCallError('telegram', undefined, err.message, { cause: err });
  throw err;
}

const thread = (chat: ChatRef) => (chat.threadId ? { message_thread_id: Number(chat.threadId) } : {});

export class TelegramOutbound implements OutboundChannel {
  readonly platform = 'telegram' as const;
  readonly maxMessageChars = TELEGRAM_MAX_MESSAGE_CHARS;
  /** Present only when drafts are enabled (the port treats an absent draft as "stream by edits"). */
  readonly draft?: (chat: ChatRef, draftId: number, text: string) => Promise<void>;
  private readonly api: Api;

  constructor(
    token: string,
    apiRoot: string,
    private readonly o: TelegramOutboundOptions = {},
  ) {
    this.api = new Api(token, { apiRoot });
    if (o.drafts ?? true) this.draft = (chat, draftId, text) => this.sendDraft(chat, draftId, text);
  }

  async send(chat: ChatRef, text: string, options: SendOptions = {}): Promise<{ platformMessageId: string }> {
    const other = {
      ...thread(chat),
      link_preview_options: { is_disabled: true },
      ...(options.replyToPlatformMessageId
        ? {
            reply_parameters: {
              message_id: Number(options.replyToPlatformMessageId),
              allow_sending_without_reply: true,
            },
          }
        : {}),
    };
    const sent = await this.withPlainFallback(
      'sendMessage',
      () => this.api.sendMessage(Number(chat.chatId), markdownToTelegramHtml(text), { ...other, parse_mode: 'HTML' }),
      () => this.api.sendMessage(Number(chat.chatId), text, other),
    );
    return { platformMessageId: String(sent.message_id) };
  }

  async edit(chat: ChatRef, platformMessageId: string, text: string): Promise<void> {
    const chatId = Number(chat.chatId);
    const id = Number(platformMessageId);
    const other = { link_preview_options: { is_disabled: true } };
    try {
      await this.withPlainFallback(
        'editMessageText',
        () => this.api.editMessageText(chatId, id, markdownToTelegramHtml(text), { ...other, parse_mode: 'HTML' }),
        () => this.api.editMessageText(chatId, id, text, other),
      );
    } catch (err) {
      // The platform already shows exactly this text (e.g. a retried final edit): done.
      if (notModified(err)) return;
      throw err;
    }
  }

  async typing(chat: ChatRef): Promise<void> {
    await this.api.sendChatAction(Number(chat.chatId), 'typing', thread(chat)).catch(rethrowAsPortError);
  }

  /** Telegram accepts drafts only in private chats (groups answer TEXTDRAFT_PEER_INVALID). */
  private async sendDraft(chat: ChatRef, draftId: number, text: string): Promise<void> {
    const chatId = Number(chat.chatId);
    if (!(chatId > 0)) throw new TelegramDraftUnavailableError(chat.chatId);
    await this.withPlainFallback(
      'sendMessageDraft',
      () =>
        this.api.sendMessageDraft(chatId, draftId, markdownToTelegramHtml(text), {
          ...thread(chat),
          parse_mode: 'HTML',
        }),
      () => this.api.sendMessageDraft(chatId, draftId, text, thread(chat)),
    );
  }

  private async withPlainFallback<T>(method: string, formatted: () => Promise<T>, plain: () => Promise<T>): Promise<T> {
    try {
      return await formatted();
    } catch (err) {
      if (!formattingRefused(err)) return rethrowAsPortError(err);
      this.o.log?.warn(
        { method, reason: (err as GrammyError).description },
        'telegram refused the HTML; sending plain text',
      );
    }
    return plain().catch(rethrowAsPortError);
  }
}

/** Drafts exist only in private chats; the core then streams by edits. */
export class TelegramDraftUnavailableError extends Error {
  override readonly name = 'TelegramDraftUnavailableError';
  readonly code = 'DRAFT_UNAVAILABLE';
  constructor(chatId: string) {
    super(`drafts are only available in private chats (chat ${chatId})`);
  }
}
