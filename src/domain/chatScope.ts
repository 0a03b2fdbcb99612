// Where a platform's message ids are unique: its chat, as held by one bot. A platform numbers
// messages per bot and chat, so a private chat with an agent's own bot (ChatRef.bot) is a scope
// of its own; a chat held by the deployment's bot keeps the ids it always had.
import type { ChatRef } from './model.js';

export type MessageScope = Pick<ChatRef, 'platform' | 'chatId' | 'bot'>;

/** The parts every id derived from a platform message starts with. */
export const scopeParts = (chat: MessageScope): string[] =>
  chat.bot ? [chat.platform, chat.chatId, 'bot', chat.bot] : [chat.platform, chat.chatId];
