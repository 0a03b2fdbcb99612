// The gateway role: the platform adapters, which turn platform updates into inbound events.
import type { Env } from '../src/config/env.js';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import { TelegramGateway } from '../adapters/telegram/bot.js';
import { DiscordGateway } from '../adapters/discord/gateway.js';
import { AgentGateways } from './agentGateways.js';
import type { HttpServer } from './http/server.js';
import type { Shared } from './shared.js';
import type { Stops } from './stops.js';

export interface GatewayRole {
  /** Where this process serves Telegram webhook updates (webhook mode). */
  telegramWebhookUrl?: string;
}

/** The gateway role in two steps: mounted (routes added to the HTTP server), then started once it listens. */
export interface MountedGatewayRole {
  /** `serverUrl`: the base URL of the HTTP server, when the role serves HTTP. */
  start(serverUrl: string | undefined): Promise<GatewayRole>;
}

/** Whether the gateway role serves HTTP: the Telegram webhook, in webhook mode. */
export function gatewayServesHttp(env: Env): boolean {
  return Boolean(env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_MODE === 'webhook' && env.TELEGRAM_WEBHOOK_SECRET);
}

/** Builds the adapters and mounts the Telegram webhook route (webhook mode; needs `http`). */
export function mountGatewayRole(
  s: Shared,
  ingest: (event: InboundEventInput) => Promise<unknown>,
  stops: Stops,
  http: HttpServer | undefined,
): MountedGatewayRole {
  const { env, log } = s;
  const onInbound = async (event: InboundEventInput) => {
    await ingest(event);
  };
  let telegram: TelegramGateway | undefined;
  if (env.TELEGRAM_BOT_TOKEN) {
    const webhook =
      gatewayServesHttp(env) && env.TELEGRAM_WEBHOOK_SECRET
        ? {
            ...(env.TELEGRAM_WEBHOOK_URL ? { url: env.TELEGRAM_WEBHOOK_URL } : {}),
            secret: env.TELEGRAM_WEBHOOK_SECRET,
          }
        : undefined;
    telegram = new TelegramGateway({
      token: env.TELEGRAM_BOT_TOKEN,
      apiRoot: env.TELEGRAM_API_ROOT,
      log,
      mode: env.TELEGRAM_MODE,
      ...(webhook ? { webhook } : {}),
      onInbound,
    });
    if (telegram.mode === 'webhook') {
      if (!http) throw new Error('the Telegram webhook needs the HTTP server');
      void http.app.register(telegram.webhookRoutes());
    }
  }
  // The agents' own bots (rooms), beside the deployment's, in the same mode.
  const agentWebhooks =
    gatewayServesHttp(env) && env.TELEGRAM_WEBHOOK_SECRET
      ? {
          secret: env.TELEGRAM_WEBHOOK_SECRET,
          ...(env.TELEGRAM_WEBHOOK_URL ? { publicBase: new URL(env.TELEGRAM_WEBHOOK_URL).origin } : {}),
        }
      : undefined;
  const agentBots = new AgentGateways({
    store: s.store,
    apiRoot: env.TELEGRAM_API_ROOT,
    log,
    refreshMs: env.AGENT_BOTS_REFRESH_MS,
    onInbound,
    ...(agentWebhooks ? { webhooks: agentWebhooks } : {}),
  });
  if (agentWebhooks) {
    if (!http) throw new Error('the agents’ Telegram webhooks need the HTTP server');
    void http.app.register(agentBots.routes());
  }
  return {
    async start(serverUrl) {
      let telegramWebhookUrl: string | undefined;
      if (telegram) {
        const t = telegram;
        await t.start(serverUrl ? { serverUrl } : {});
        stops.push(() => t.stop());
        telegramWebhookUrl = t.webhookListenUrl;
        log.info({ mode: t.mode, listen: t.webhookListenUrl }, 'Telegram adapter started');
      }
      await agentBots.start(serverUrl);
      stops.push(() => agentBots.stop());
      if (env.DISCORD_BOT_TOKEN) {
        // Our own posts and their streaming edits come back from the gateway; the core would
        // ignore them too, but dropping them here saves a store lookup per edit.
        const discord = new DiscordGateway({
          token: env.DISCORD_BOT_TOKEN,
          apiRoot: env.DISCORD_API_ROOT,
          log,
          dropOwnEchoes: true,
          onInbound,
        });
        await discord.start();
        stops.push(() => discord.stop());
        log.info('Discord adapter connected to the gateway');
      }
      return telegramWebhookUrl ? { telegramWebhookUrl } : {};
    },
  };
}
