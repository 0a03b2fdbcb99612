// A system notice answering one inbound message: stored first, then sent (persist before push).
// Used by the gateway (refusals, command answers) and by workers (a summary finished).
import type { Store } from '../store/store.js';
import type { Outbounds } from './outbound.js';
import type { ChatRef } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';

export async function sendNotice(
  deps: { store: Store; outbounds: Outbounds },
  r: { messageId: string; dialogueId: string; sessionId: string; chat: ChatRef },
  content: string,
  code: string,
  replyToPlatformMessageId?: string,
  /** Distinguishes several notices answering the same message (e.g. summary started / done). */
  variant?: string,
): Promise<void> {
  const outbound = deps.outbounds[r.chat.platform];
  const now = new Date();
  const noticeId = variant ? derivedId('msg', 'notice', r.messageId, variant) : derivedId('msg', 'notice', r.messageId);
  const inserted = await deps.store.messages.insertOnce({
    _id: noticeId,
    dialogueId: r.dialogueId,
    sessionId: r.sessionId,
    senderRole: 'system',
    senderId: 'gateway',
    contentType: 'text',
    content,
    mentions: [],
    replyTo: r.messageId,
    visible: true,
    delivery: { state: 'complete', platformMessageIds: [] },
    createdAt: now,
    updatedAt: now,
  });
  if (inserted === 'duplicate' || !outbound) return;
  await deps.store.events.record({
    kind: 'system_utterance',
    dialogueId: r.dialogueId,
    sessionId: r.sessionId,
    messageId: noticeId,
    data: { code, content },
  });
  const sent = await outbound.send(r.chat, content, replyToPlatformMessageId ? { replyToPlatformMessageId } : {});
  await deps.store.messages.recordPlatformMessage(
    { _id: noticeId, dialogueId: r.dialogueId },
    r.chat,
    sent.platformMessageId,
  );
}
