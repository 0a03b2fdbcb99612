// Telegram as the core sees it (src/platforms/platform.ts).
import type { PlatformDescriptor, PlatformLimits } from '../../src/platforms/platform.js';

/**
 * Bot FAQ: about one message per second in a chat (short bursts tolerated), 20 per minute in a
 * group, about 30 per second overall (kept at 25 unless the operator's bot is allowed more).
 */
export function telegramLimits(globalPerSecond = 25): PlatformLimits {
  return {
    privateChat: { perSecond: 1, burst: 3 },
    groupChat: { perSecond: 18 / 60, burst: 2 },
    global: { perSecond: globalPerSecond, burst: Math.max(5, Math.round(globalPerSecond / 5)) },
  };
}

export const telegramPlatform: PlatformDescriptor = {
  id: 'telegram',
  limits: telegramLimits(),
  // Groups, supergroups and channels have negative ids.
  isGroupChat: (chat) => chat.chatId.startsWith('-'),
  // Telegram limits whole chats, forum topics included.
  budgetKey: (chat) => chat.chatId,
};
