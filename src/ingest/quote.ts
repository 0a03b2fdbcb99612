// Seed 000's QuoteReplyResolver: the message a reply points at, inlined with its source so the
// context says who is quoted. The stored original wins; the platform's copy is the fallback.
import type { ChatRef, Message, Quote, QuotedMedia } from '../domain/model.js';
import type { Store } from '../store/store.js';
import type { InboundMessage } from './inboundEvent.js';
import { messageIdOf } from './messageIds.js';

export async function resolveQuote(
  store: Store,
  chat: ChatRef,
  dialogueId: string,
  ev: InboundMessage,
): Promise<Quote | undefined> {
  const reply = ev.replyTo;
  if (!reply) return undefined;
  const stored: Message | null =
    (await store.messages.get(messageIdOf(chat, reply.platformMessageId))) ??
    (await store.messages.findByDeliveredId(chat, dialogueId, reply.platformMessageId));
  const partial = reply.quote !== undefined && reply.quote.length > 0;
  const text = partial ? (reply.quote ?? '') : stored?.content || reply.text || '';
  const senderName = stored?.contentMeta?.senderName ?? reply.sender?.displayName ?? reply.sender?.username;
  const media: QuotedMedia[] = stored
    ? (stored.contentMeta?.attachments ?? []).map((a) => ({
        kind: a.kind,
        ...(a.fileName ? { fileName: a.fileName } : {}),
        ...(a.processing.state === 'done' && a.processing.text?.trim() ? { text: a.processing.text.trim() } : {}),
      }))
    : (reply.media ?? []);
  return {
    platformMessageId: reply.platformMessageId,
    text,
    ...(media.length > 0 && !partial ? { media } : {}),
    ...(stored ? { messageId: stored._id, senderRole: stored.senderRole, senderId: stored.senderId } : {}),
    ...(senderName ? { senderName } : {}),
    ...(partial ? { partial: true } : {}),
  };
}
