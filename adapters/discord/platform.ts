// Discord as the core sees it (src/platforms/platform.ts).
import type { PlatformDescriptor } from '../../src/platforms/platform.js';

export const discordPlatform: PlatformDescriptor = {
  id: 'discord',
  // 5 messages per 5 s per channel, 50 requests per second per bot; kept just under.
  limits: {
    privateChat: { perSecond: 0.6, burst: 2 },
    groupChat: { perSecond: 0.6, burst: 2 },
    global: { perSecond: 45, burst: 5 },
  },
  // One channel rate for DMs and guild channels alike.
  isGroupChat: () => false,
  // Each channel or thread has its own limit.
  budgetKey: (chat) => chat.threadId ?? chat.chatId,
};
