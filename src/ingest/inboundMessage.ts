// The stored form of an inbound message, before it is placed in a turn: its content, sender,
// attachments (pending processing), quote and platform reference. Pure.
import type { Attachment, ContentMeta, Message, Quote } from '../domain/model.js';
import { inboundContentType } from '../domain/contentType.js';
import { DEFAULT_AGENT_ID } from '../store/participants.js';
import { mentionIds } from './addressing.js';
import type { InboundAttachment, InboundMessage } from './inboundEvent.js';

/** An attachment as stored: its processing (transcription, description) still to come. */
export const toAttachment = (a: InboundAttachment, at: Date): Attachment => ({
  ...a,
  processing: { state: 'pending', attempts: 0, updatedAt: at },
});

/** The stored form of an inbound message, before it is placed in a turn. */
export function inboundMessage(
  ev: InboundMessage,
  o: { messageId: string; dialogueId: string; sessionId: string; humanId: string; quote: Quote | undefined; now: Date },
): Message {
  const { quote, now } = o;
  const attachments = ev.attachments.map((a) => toAttachment(a, now));
  const senderName = ev.sender.displayName ?? ev.sender.username;
  const contentMeta: ContentMeta = {
    ...(senderName ? { senderName } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(quote ? { quote } : {}),
    ...(ev.mediaGroupId ? { mediaGroupId: ev.mediaGroupId } : {}),
  };
  return {
    _id: o.messageId,
    dialogueId: o.dialogueId,
    sessionId: o.sessionId,
    senderRole: 'human',
    senderId: o.humanId,
    contentType: inboundContentType(attachments, quote !== undefined),
    content: ev.text?.trim() ?? '',
    contentMeta,
    mentions: mentionIds(ev.platform, ev.mentions, ev.recipient, DEFAULT_AGENT_ID),
    ...(quote?.messageId ? { replyTo: quote.messageId } : {}),
    visible: true,
    platformRef: {
      platform: ev.platform,
      chatId: ev.chat.chatId,
      messageId: ev.platformMessageId,
      ...(ev.chat.bot ? { bot: ev.chat.bot } : {}),
    },
    sentAt: ev.sentAt,
    createdAt: now,
    updatedAt: now,
  };
}
