// The web channel's one entry (adapters/platforms.ts): its descriptor, and the REST + SSE routes the
// api role mounts under /api (app/webChannel.ts) — its people come through them, not the gateway.
import type { PlatformAdapter } from '../platforms.js';
import { WebOutbound } from './outbound.js';
import { webPlatform } from './platform.js';

export { webApiRoutes } from './routes.js';
export { RedisDialogueFeed } from './feedSubscriber.js';
export { documentRoutes } from './documentRoutes.js';
export { notFound, sendCoded } from './httpErrors.js';

/** The web channel: no token, no media to fetch, no inbound of the gateway role's. */
export const web: PlatformAdapter = {
  platform: webPlatform,
  // Served by every api process (the one answering the health query among them).
  health: () => ({ on: true, mode: 'http' }),
  // Its people come through this deployment's own API, so it is always on.
  connect: () => ({ channel: new WebOutbound() }),
  // A web identity is the one others link to, never linked itself.
  linkTarget: true,
};
