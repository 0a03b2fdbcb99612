// Seed 000's DialogueTurn view, rebuilt from the store for any turn: what the initiator said,
// what the system did (context builds, LLM calls, tool calls, utterances, deliveries), what
// the responder answered, and the memories linked to it (none until memory exists, issue 5).
import type { Store } from '../store/store.js';
import type { EventLog, Message, Turn } from '../domain/model.js';

export interface DialogueTurnView {
  turn: Turn;
  /** The initiator's messages, oldest first. */
  input: Message[];
  /** Every recorded system action of the turn, in the order it happened. */
  systemActions: EventLog[];
  llmCalls: EventLog[];
  toolCalls: EventLog[];
  /** The responder's message(s): the AI's reply, or for an AI-initiated turn the human's answer. */
  response: Message[];
  memoryLinks: string[];
}

export async function dialogueTurnView(store: Store, turnId: string): Promise<DialogueTurnView | null> {
  const turn = await store.turns.get(turnId);
  if (!turn) return null;
  const [messages, events, answer] = await Promise.all([
    store.messages.ofTurn(turn._id),
    store.events.ofTurn(turn._id),
    turn.responseMessageId ? store.messages.get(turn.responseMessageId) : Promise.resolve(null),
  ]);
  const fromInitiator = (m: Message) => m.senderRole === turn.initiatorRole && m.senderId === turn.initiatorId;
  return {
    turn,
    input: messages.filter(fromInitiator),
    systemActions: events,
    llmCalls: events.filter((e) => e.kind === 'llm_call'),
    toolCalls: events.filter((e) => e.kind === 'tool_call'),
    response: [...messages.filter((m) => !fromInitiator(m) && m.senderRole !== 'system'), ...(answer ? [answer] : [])],
    memoryLinks: [],
  };
}
