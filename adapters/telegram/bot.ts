// The Telegram gateway connection: grammY long polling feeding translated updates to the core.
import { Bot } from 'grammy';
import type { Logger } from 'pino';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';
import { translateMessage } from './translate.js';

export interface TelegramBotOptions {
  token: string;
  apiRoot: string;
  log: Logger;
  onInbound(event: InboundEventInput): Promise<void>;
}

export class TelegramGateway {
  readonly bot: Bot;
  private running: Promise<void> | undefined;

  constructor(private readonly o: TelegramBotOptions) {
    this.bot = new Bot(o.token, { client: { apiRoot: o.apiRoot } });
    this.bot.on('message', async (ctx) => {
      const t = translateMessage(ctx.message);
      if (!t.ok) {
        o.log.warn({ updateId: ctx.update.update_id, reason: t.reason }, 'telegram update dropped');
        return;
      }
      await o.onInbound(t.event);
    });
    this.bot.catch((err) => {
      o.log.error({ updateId: err.ctx.update.update_id, err: err.error }, 'telegram update failed');
    });
  }

  /** Starts long polling; resolves once the bot is connected (getMe answered). */
  async start(): Promise<void> {
    await this.bot.init();
    this.running = this.bot.start({ drop_pending_updates: false, allowed_updates: ['message', 'edited_message'] });
    this.running.catch((err: unknown) => this.o.log.error({ err }, 'telegram polling stopped'));
  }

  async stop(): Promise<void> {
    await this.bot.stop();
    await this.running?.catch(() => {});
  }
}
