// Which stored messages are the conversation: visible, accepted, not deleted, not commands
// (/summary, /new … steer the gateway, they are not said to anyone). Prompts, summaries, the
// persona card and the working window all show exactly these. One rule, two forms: a predicate
// for documents in hand and a MongoDB filter for queries over the record.
import type { Message } from './model.js';

export const CONVERSATION_FILTER = { visible: true, rejected: { $exists: false }, deleted: { $exists: false }, contentType: { $ne: 'command' } } as const;

export function isConversation(m: Pick<Message, 'visible' | 'rejected' | 'deleted' | 'contentType'>): boolean {
  return m.visible && m.rejected === undefined && m.deleted === undefined && m.contentType !== 'command';
}
