// Telegram's one entry (adapters/platforms.ts): what the composition root wires for it. Every call
// to Telegram spends the chat's shared budget (SPEC §4.3), paced by app/.
import type { PlatformAdapter } from '../platforms.js';
import { TelegramOutbound, TELEGRAM_MAX_MESSAGE_CHARS } from './outbound.js';
import { TelegramMediaSource } from './media.js';
import { telegramBotOf } from './accounts.js';
import { telegramLimits, telegramPlatform } from './platform.js';
import { telegramInbound } from './inbound.js';

/** Telegram: the deployment's bot, the agents' own bots, long polling or a webhook. */
export const telegram: PlatformAdapter = {
  platform: telegramPlatform,
  limits: (env) => telegramLimits(env.TELEGRAM_GLOBAL_PER_SECOND),
  health: (env) => ({ on: Boolean(env.TELEGRAM_BOT_TOKEN), mode: env.TELEGRAM_MODE }),
  connect(env, log) {
    if (!env.TELEGRAM_BOT_TOKEN) {
      log.info('TELEGRAM_BOT_TOKEN is not set: the Telegram adapter is disabled');
      return undefined;
    }
    return {
      channel: new TelegramOutbound(env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_API_ROOT, {
        drafts: env.TELEGRAM_DRAFTS === 'on',
        log,
      }),
      media: new TelegramMediaSource(env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_API_ROOT),
    };
  },
  inbound: telegramInbound,
  agentAccounts: (env) => ({
    whoIs: (token) => telegramBotOf(token, env.TELEGRAM_API_ROOT),
    channel: (token, log) =>
      new TelegramOutbound(token, env.TELEGRAM_API_ROOT, { drafts: env.TELEGRAM_DRAFTS === 'on', log }),
    maxMessageChars: TELEGRAM_MAX_MESSAGE_CHARS,
    drafts: env.TELEGRAM_DRAFTS === 'on',
  }),
};
