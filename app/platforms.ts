// The platforms this deployment talks to, one registered adapter each (adapters/platforms.ts): an
// outbound channel and a media source for each one with a token. Every call to a platform spends
// the chat's shared budget (SPEC §4.3).
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import type { Outbounds } from '../src/delivery/outbound.js';
import type { MediaSources } from '../src/media/mediaSource.js';
import type { ChatBudget } from '../src/delivery/chatBudget.js';
import { PacedOutbound } from '../src/delivery/pacedOutbound.js';
import type { Metrics } from '../src/metrics/metrics.js';
import type { PlatformAccounts } from '../src/ops/agentBots.js';
import type { Platform } from '../src/domain/model.js';
import type { PlatformDescriptor, PlatformLimits } from '../src/platforms/platform.js';
import { GatewayError } from '../src/errors.js';
import type { AgentOutbounds } from './agentOutbounds.js';
import { BotRoutedOutbound } from './botRoutedOutbound.js';
import type { PlatformAdapter } from '../adapters/platforms.js';
import { telegram } from '../adapters/telegram/index.js';
import { discord } from '../adapters/discord/index.js';
import { web } from '../adapters/web/index.js';

/** Every adapter of this gateway, in start order: app/ loops over these and names no platform. */
export const ADAPTERS: readonly PlatformAdapter[] = [telegram, discord, web];

/** What the core knows of each registered platform (src/platforms/platform.ts). */
export const PLATFORMS: readonly PlatformDescriptor[] = ADAPTERS.map((a) => a.platform);

/** The registered adapter of a platform, undefined for an unknown one. */
export function adapterOf(platform: string): PlatformAdapter | undefined {
  return ADAPTERS.find((a) => a.platform.id === platform);
}

/** The sending limits this deployment sets per platform (from its env); others keep their descriptor's. */
export function deploymentLimits(env: Env): Partial<Record<Platform, PlatformLimits>> {
  const limits: Partial<Record<Platform, PlatformLimits>> = {};
  for (const a of ADAPTERS) if (a.limits) limits[a.platform.id] = a.limits(env);
  return limits;
}

export interface Platforms {
  outbounds: Outbounds;
  mediaSources: MediaSources;
}

export function buildPlatforms(env: Env, o: { budget: ChatBudget; log: Logger; metrics: Metrics }): Platforms {
  const { budget, log, metrics } = o;
  const outbounds: Outbounds = {};
  const mediaSources: MediaSources = {};
  for (const adapter of ADAPTERS) {
    const connection = adapter.connect(env, log);
    if (!connection) continue;
    const { channel, retrySends, media } = connection;
    const id = adapter.platform.id;
    // Paced alike, the web too: one runaway reply cannot flood the store with streamed writes.
    outbounds[id] = new PacedOutbound(channel, {
      budget,
      log,
      metrics,
      ...(retrySends === undefined ? {} : { retrySends }),
    });
    if (media) mediaSources[id] = media;
  }
  return { outbounds, mediaSources };
}

/** Which account a bot token belongs to, asked of the platform (registering an agent's own bot). */
export function platformAccounts(env: Env): PlatformAccounts {
  return {
    whoIs: (platform, token) => {
      const accounts = adapterOf(platform)?.agentAccounts?.(env);
      return accounts
        ? accounts.whoIs(token)
        : Promise.reject(new GatewayError('BAD_REQUEST', `agents cannot have their own ${platform} account yet`));
    },
  };
}

/** Where agents have their own accounts, a chat one of them holds is written to through it. */
export function routeAgentBots(env: Env, outbounds: Outbounds, agentOutbounds: AgentOutbounds): void {
  for (const a of ADAPTERS) {
    const accounts = a.agentAccounts?.(env);
    if (!accounts) continue;
    const id = a.platform.id;
    outbounds[id] = new BotRoutedOutbound(outbounds[id], agentOutbounds, {
      platform: id,
      maxMessageChars: accounts.maxMessageChars,
      drafts: accounts.drafts,
    });
  }
}
