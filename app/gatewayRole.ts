// The gateway role: the platform adapters' inbound sides, which turn platform updates into
// inbound events — each registered adapter's (app/platforms.ts), started in order.
import type { Env } from '../src/config/env.js';
import type { Platform } from '../src/domain/model.js';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import { ADAPTERS } from './platforms.js';
import type { HttpServer } from './http/server.js';
import type { Shared } from './shared.js';
import type { Stops } from './stops.js';

export interface GatewayRole {
  /** Where this process serves each platform's webhook updates (webhook mode), by platform. */
  webhookUrls?: Partial<Record<Platform, string>>;
}

/** The gateway role in two steps: mounted (routes added to the HTTP server), then started once it listens. */
export interface MountedGatewayRole {
  /** `serverUrl`: the base URL of the HTTP server, when the role serves HTTP. */
  start(serverUrl: string | undefined): Promise<GatewayRole>;
}

/** Whether the gateway role serves HTTP: some adapter's webhook (Telegram's, in webhook mode). */
export function gatewayServesHttp(env: Env): boolean {
  return ADAPTERS.some((a) => a.inbound?.servesHttp(env));
}

/** Builds every adapter's inbound side and mounts its webhook routes (needs `http` for those). */
export function mountGatewayRole(
  s: Shared,
  ingest: (event: InboundEventInput) => Promise<unknown>,
  stops: Stops,
  http: HttpServer | undefined,
): MountedGatewayRole {
  const { env, log, store } = s;
  const onInbound = async (event: InboundEventInput) => {
    await ingest(event);
  };
  const mounted = ADAPTERS.flatMap((a) =>
    a.inbound ? [{ id: a.platform.id, inbound: a.inbound.mount({ env, log, store, onInbound, http: http?.app }) }] : [],
  );
  return {
    async start(serverUrl) {
      const webhookUrls: Partial<Record<Platform, string>> = {};
      for (const { id, inbound } of mounted) {
        const { webhookUrl } = await inbound.start(serverUrl, (step) => stops.push(step));
        if (webhookUrl) webhookUrls[id] = webhookUrl;
      }
      return Object.keys(webhookUrls).length > 0 ? { webhookUrls } : {};
    },
  };
}
