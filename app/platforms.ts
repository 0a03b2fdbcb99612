// The platforms this deployment talks to: an outbound channel and a media source for each one
// with a token. Every call to a platform spends the chat's shared budget (SPEC §4.3).
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import type { Outbounds } from '../src/delivery/outbound.js';
import type { MediaSources } from '../src/media/mediaSource.js';
import type { ChatBudget } from '../src/delivery/chatBudget.js';
import { PacedOutbound } from '../src/delivery/pacedOutbound.js';
import type { Metrics } from '../src/metrics/metrics.js';
import { TelegramOutbound } from '../adapters/telegram/outbound.js';
import { TelegramMediaSource } from '../adapters/telegram/media.js';
import { DiscordOutbound } from '../adapters/discord/outbound.js';
import { DiscordMediaSource } from '../adapters/discord/media.js';
import { telegramBotOf } from '../adapters/telegram/accounts.js';
import type { PlatformAccounts } from '../src/ops/agentBots.js';
import { GatewayError } from '../src/errors.js';
import { WebOutbound } from '../adapters/web/outbound.js';

export interface Platforms {
  outbounds: Outbounds;
  mediaSources: MediaSources;
}

export function buildPlatforms(env: Env, o: { budget: ChatBudget; log: Logger; metrics: Metrics }): Platforms {
  const { budget, log, metrics } = o;
  // The web channel needs no token: its people come through this deployment's own API. Paced
  // like the others, so one runaway reply cannot flood the store with streamed writes.
  const outbounds: Outbounds = { web: new PacedOutbound(new WebOutbound(), { budget, log, metrics }) };
  const mediaSources: MediaSources = {};
  if (env.TELEGRAM_BOT_TOKEN) {
    const telegram = new TelegramOutbound(env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_API_ROOT, {
      drafts: env.TELEGRAM_DRAFTS === 'on',
      log,
    });
    outbounds.telegram = new PacedOutbound(telegram, { budget, log, metrics });
    mediaSources.telegram = new TelegramMediaSource(env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_API_ROOT);
  } else log.info('TELEGRAM_BOT_TOKEN is not set: the Telegram adapter is disabled');
  if (env.DISCORD_BOT_TOKEN) {
    // Every rate limit goes to the shared chat budget (maxRateLimitWaitMs 0); sends are not
    // re-sent by the pacer because the adapter retries them itself with Discord's nonce.
    const discord = new DiscordOutbound({
      token: env.DISCORD_BOT_TOKEN,
      apiRoot: env.DISCORD_API_ROOT,
      log,
      maxRateLimitWaitMs: 0,
    });
    outbounds.discord = new PacedOutbound(discord, { budget, log, metrics, retrySends: false });
    mediaSources.discord = new DiscordMediaSource({ token: env.DISCORD_BOT_TOKEN, apiRoot: env.DISCORD_API_ROOT });
  } else log.info('DISCORD_BOT_TOKEN is not set: the Discord adapter is disabled');
  return { outbounds, mediaSources };
}

/** Which account a bot token belongs to, asked of the platform (registering an agent's own bot). */
export function platformAccounts(env: Env): PlatformAccounts {
  return {
    whoIs: (platform, token) =>
      platform === 'telegram'
        ? telegramBotOf(token, env.TELEGRAM_API_ROOT)
        : Promise.reject(new GatewayError('BAD_REQUEST', `agents cannot have their own ${platform} account yet`)),
  };
}
