// Telegram as the core sees it (src/platforms/platform.ts).
import type { PlatformDescriptor } from '../../src/platforms/platform.js';

export const telegramPlatform: PlatformDescriptor = {
  id: 'telegram',
  // Bot FAQ: about one message per second in a chat (short bursts tolerated), 20 per minute in
  // a group, about 30 per second overall; kept just under.
  limits: {
    privateChat: { perSecond: 1, burst: 3 },
    groupChat: { perSecond: 18 / 60, burst: 2 },
    global: { perSecond: 25, burst: 5 },
  },
  // Groups, supergroups and channels have negative ids.
  isGroupChat: (chat) => chat.chatId.startsWith('-'),
  // Telegram limits whole chats, forum topics included.
  budgetKey: (chat) => chat.chatId,
};
