// Inbound message ids derive from where the message came from, so a redelivered update maps to
// the same record (dedupe is a lookup by _id) and every process computes the same id.
import type { Platform } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';

export const messageIdOf = (platform: Platform, chatId: string, platformMessageId: string) =>
  derivedId('msg', platform, chatId, platformMessageId);

/** All items of a Telegram album are one message. */
export const albumMessageIdOf = (platform: Platform, chatId: string, mediaGroupId: string) =>
  derivedId('msg', platform, chatId, 'album', mediaGroupId);
