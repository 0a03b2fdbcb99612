// Inbound message ids derive from where the message came from, so a redelivered update maps to
// the same record (dedupe is a lookup by _id) and every process computes the same id.
import { derivedId } from '../domain/ids.js';
import { scopeParts, type MessageScope } from '../domain/chatScope.js';

export const messageIdOf = (chat: MessageScope, platformMessageId: string) =>
  derivedId('msg', ...scopeParts(chat), platformMessageId);

/** All items of a Telegram album are one message. */
export const albumMessageIdOf = (chat: MessageScope, mediaGroupId: string) =>
  derivedId('msg', ...scopeParts(chat), 'album', mediaGroupId);
