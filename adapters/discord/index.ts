// Discord's one entry (adapters/platforms.ts): what the composition root wires for it.
import type { AdapterInbound, PlatformAdapter } from '../platforms.js';
import { DiscordOutbound } from './outbound.js';
import { DiscordMediaSource } from './media.js';
import { DiscordGateway } from './gateway.js';
import { discordPlatform } from './platform.js';

/** The gateway connection, opened once the process is up; nothing is served over HTTP. */
const discordInbound: AdapterInbound = {
  servesHttp: () => false,
  mount: ({ env, log, onInbound }) => ({
    async start(_serverUrl, onStop) {
      if (!env.DISCORD_BOT_TOKEN) return {};
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
      onStop(() => discord.stop());
      log.info('Discord adapter connected to the gateway');
      return {};
    },
  }),
};

/** Discord: the deployment's application, its gateway connection, persona webhooks when on. */
export const discord: PlatformAdapter = {
  platform: discordPlatform,
  health: (env) => ({ on: Boolean(env.DISCORD_BOT_TOKEN), mode: 'gateway' }),
  connect(env, log) {
    if (!env.DISCORD_BOT_TOKEN) {
      log.info('DISCORD_BOT_TOKEN is not set: the Discord adapter is disabled');
      return undefined;
    }
    // Every rate limit goes to the shared chat budget (maxRateLimitWaitMs 0); sends are not
    // re-sent by the pacer because the adapter retries them itself with Discord's nonce.
    const channel = new DiscordOutbound({
      token: env.DISCORD_BOT_TOKEN,
      apiRoot: env.DISCORD_API_ROOT,
      log,
      maxRateLimitWaitMs: 0,
    });
    const media = new DiscordMediaSource({ token: env.DISCORD_BOT_TOKEN, apiRoot: env.DISCORD_API_ROOT });
    return { channel, retrySends: false, media };
  },
  inbound: discordInbound,
  personas: (env) => env.DISCORD_PERSONAS === 'on',
};
