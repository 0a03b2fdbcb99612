// Which stored messages are the conversation: visible, accepted, not deleted, not commands
// (/summary, /new … steer the gateway, they are not said to anyone). Prompts, summaries, the
// persona card and the working window all show exactly these. One rule, two forms: a predicate
// for documents in hand and a MongoDB filter for queries over the record. `isSaid` narrows it
// to what a model is shown as having been said (prompts, summaries, memory extraction).
import type { Message } from './model.js';

export const CONVERSATION_FILTER = {
  visible: true,
  rejected: { $exists: false },
  deleted: { $exists: false },
  contentType: { $ne: 'command' },
} as const;

export function isConversation(m: Pick<Message, 'visible' | 'rejected' | 'deleted' | 'contentType'>): boolean {
  return m.visible && m.rejected === undefined && m.deleted === undefined && m.contentType !== 'command';
}

/**
 * What was said: a human's message, or an AI message that reached people with text. Failed,
 * empty and timed-out replies carry only a notice, and a reply still streaming is being
 * (re)written: neither is something the AI said.
 */
export function isSaid(
  m: Pick<Message, 'visible' | 'rejected' | 'deleted' | 'contentType' | 'senderRole' | 'content' | 'delivery'>,
): boolean {
  if (!isConversation(m)) return false;
  if (m.senderRole === 'human') return true;
  if (m.senderRole !== 'ai') return false;
  const state = m.delivery?.state ?? 'complete';
  return (state === 'complete' || state === 'interrupted') && m.content.trim().length > 0;
}
