// The web channel as the core sees it (src/platforms/platform.ts). People reach it through the
// gateway's own REST + SSE API (SPEC §12), so there is no remote platform whose limits to keep:
// the budget only stops one runaway conversation from flooding the store with streamed writes
// (a reply streams at most every 100 ms anyway).
import type { PlatformDescriptor } from '../../src/platforms/platform.js';

export const WEB_PLATFORM = 'web';

export const webPlatform: PlatformDescriptor = {
  id: WEB_PLATFORM,
  limits: {
    privateChat: { perSecond: 20, burst: 20 },
    groupChat: { perSecond: 20, burst: 20 },
    global: { perSecond: 2_000, burst: 2_000 },
  },
  // A web conversation is one person with one agent.
  isGroupChat: () => false,
  budgetKey: (chat) => chat.chatId,
  // Text reaches the browser as fast as it is stored: store it often enough to read as typing.
  streamIntervalMs: 100,
  // Cited sources travel as source_reference events (the client lists them), not as footnotes.
  sourcesAsEvents: true,
};
