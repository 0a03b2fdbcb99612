// The gateway role: the platform adapters, which turn platform updates into inbound events.
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import { TelegramGateway } from '../adapters/telegram/bot.js';
import { DiscordGateway } from '../adapters/discord/gateway.js';
import type { Shared } from './shared.js';
import type { Stops } from './stops.js';

export interface GatewayRole {
  /** Where this process listens for Telegram webhook updates (webhook mode). */
  telegramWebhookUrl?: string;
}

export async function startGatewayRole(s: Shared, ingest: (event: InboundEventInput) => Promise<unknown>, stops: Stops): Promise<GatewayRole> {
  const { env, log } = s;
  const onInbound = async (event: InboundEventInput) => {
    await ingest(event);
  };
  let telegramWebhookUrl: string | undefined;
  if (env.TELEGRAM_BOT_TOKEN) {
    const webhook =
      env.TELEGRAM_MODE === 'webhook' && env.TELEGRAM_WEBHOOK_SECRET
        ? { ...(env.TELEGRAM_WEBHOOK_URL ? { url: env.TELEGRAM_WEBHOOK_URL } : {}), secret: env.TELEGRAM_WEBHOOK_SECRET, port: env.TELEGRAM_WEBHOOK_PORT }
        : undefined;
    const telegram = new TelegramGateway({ token: env.TELEGRAM_BOT_TOKEN, apiRoot: env.TELEGRAM_API_ROOT, log, mode: env.TELEGRAM_MODE, ...(webhook ? { webhook } : {}), onInbound });
    await telegram.start();
    stops.push(() => telegram.stop());
    telegramWebhookUrl = telegram.webhookListenUrl;
    log.info({ mode: telegram.mode, listen: telegram.webhookListenUrl }, 'Telegram adapter started');
  }
  if (env.DISCORD_BOT_TOKEN) {
    // Our own posts and their streaming edits come back from the gateway; the core would
    // ignore them too, but dropping them here saves a store lookup per edit.
    const discord = new DiscordGateway({ token: env.DISCORD_BOT_TOKEN, apiRoot: env.DISCORD_API_ROOT, log, dropOwnEchoes: true, onInbound });
    await discord.start();
    stops.push(() => discord.stop());
    log.info('Discord adapter connected to the gateway');
  }
  return telegramWebhookUrl ? { telegramWebhookUrl } : {};
}
