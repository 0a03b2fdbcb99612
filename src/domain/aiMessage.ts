// A turn's AI message (its reply) as plain data: the id is derived from the turn, so a retried
// reply writes into the same message rather than a second one; a new one is empty and streaming.
import { derivedId } from './ids.js';
import type { Message, Turn } from './model.js';
import { requireTurnAgent } from './turnRules.js';

/** The id of a turn's reply message: a retry of the reply finds the same one. */
export const replyIdOf = (turnId: string) => derivedId('msg', 'reply', turnId);

/** A new AI message of a turn, before anything is streamed into it. */
export function newAiMessage(turn: Turn, id: string, at: Date): Message {
  return {
    _id: id,
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    senderRole: 'ai',
    senderId: requireTurnAgent(turn),
    contentType: 'text',
    content: '',
    mentions: [],
    visible: true,
    delivery: { state: 'streaming', platformMessageIds: [] },
    createdAt: at,
    updatedAt: at,
  };
}
