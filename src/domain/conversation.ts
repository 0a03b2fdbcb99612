// Which stored messages are the conversation: visible, accepted, not deleted, not commands
// (/summary, /new … steer the gateway, they are not said to anyone). Prompts, summaries, the
// persona card and the working window all show exactly these. One rule, two forms: a predicate
// for documents in hand and a MongoDB filter for queries over the record. `isSaid` narrows it
// to what a model is shown as having been said (prompts, summaries, memory extraction);
// `isShownToAgents` adds the operator's posts, which agents read marked as the operator's.
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

/** How an operator's post is signed (src/ops/postMessage.ts): `operator:<token name>`. */
export const OPERATOR_SENDER_PREFIX = 'operator:';
export const operatorSenderId = (by: string): string => `${OPERATOR_SENDER_PREFIX}${by}`;

/** A post an operator made into the chat through the API, as opposed to the gateway's own notices. */
export const isOperatorPost = (m: Pick<Message, 'senderRole' | 'senderId'>): boolean =>
  m.senderRole === 'system' && m.senderId.startsWith(OPERATOR_SENDER_PREFIX);

/**
 * What an agent's prompt and the summaries show: what was said, plus operator posts that reached
 * the chat (people saw them, so the agents should too — marked as the operator's, never a
 * person's). Gateway notices (refusals, command answers) steer the gateway, not the talk: left out.
 * Memory extraction and persona evolution keep to `isSaid`: an operator's words are no one's facts.
 */
export function isShownToAgents(
  m: Pick<
    Message,
    'visible' | 'rejected' | 'deleted' | 'contentType' | 'senderRole' | 'senderId' | 'content' | 'delivery'
  >,
): boolean {
  if (isSaid(m)) return true;
  return isConversation(m) && isOperatorPost(m) && m.delivery?.state === 'complete' && m.content.trim().length > 0;
}
