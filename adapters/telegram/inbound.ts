// How Telegram updates reach the gateway role: the deployment's bot (long polling, or a webhook
// on the process's HTTP server) and, beside it in the same mode, the agents' own bots.
import type { Env } from '../../src/config/env.js';
import type { AdapterInbound, InboundDeps, MountedInbound } from '../platforms.js';
import { TelegramGateway } from './bot.js';
import { AgentGateways } from './agentGateways.js';

/** Webhook mode is on: the deployment's bot and the agents' are served over HTTP. */
function servesHttp(env: Env): boolean {
  return Boolean(env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_MODE === 'webhook' && env.TELEGRAM_WEBHOOK_SECRET);
}

/** Builds the bots and mounts their webhook routes (webhook mode; needs `http`). */
function mount({ env, log, store, onInbound, http }: InboundDeps): MountedInbound {
  let telegram: TelegramGateway | undefined;
  if (env.TELEGRAM_BOT_TOKEN) {
    const webhook =
      servesHttp(env) && env.TELEGRAM_WEBHOOK_SECRET
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
      void http.register(telegram.webhookRoutes());
    }
  }
  // The agents' own bots (rooms), beside the deployment's, in the same mode.
  const agentWebhooks =
    servesHttp(env) && env.TELEGRAM_WEBHOOK_SECRET
      ? {
          secret: env.TELEGRAM_WEBHOOK_SECRET,
          ...(env.TELEGRAM_WEBHOOK_URL ? { publicBase: new URL(env.TELEGRAM_WEBHOOK_URL).origin } : {}),
        }
      : undefined;
  const agentBots = new AgentGateways({
    store,
    apiRoot: env.TELEGRAM_API_ROOT,
    log,
    refreshMs: env.AGENT_BOTS_REFRESH_MS,
    onInbound,
    ...(agentWebhooks ? { webhooks: agentWebhooks } : {}),
  });
  if (agentWebhooks) {
    if (!http) throw new Error('the agents’ Telegram webhooks need the HTTP server');
    void http.register(agentBots.routes());
  }
  return {
    async start(serverUrl, onStop) {
      let webhookUrl: string | undefined;
      if (telegram) {
        const t = telegram;
        await t.start(serverUrl ? { serverUrl } : {});
        onStop(() => t.stop());
        webhookUrl = t.webhookListenUrl;
        log.info({ mode: t.mode, listen: t.webhookListenUrl }, 'Telegram adapter started');
      }
      await agentBots.start(serverUrl);
      onStop(() => agentBots.stop());
      return webhookUrl ? { webhookUrl } : {};
    },
  };
}

export const telegramInbound: AdapterInbound = { servesHttp, mount };
