// Seed 000's DialogueTurn view, rebuilt from the store for any turn: what the initiator said,
// what the system did (context builds, LLM calls, tool calls, utterances, deliveries), what
// the responder answered, and the memories linked to it (extracted from it or recalled for it).
import type { Store } from '../store/store.js';
import type { EventLog, Message, Turn } from '../domain/model.js';

export interface DialogueTurnView {
  turn: Turn;
  /** The initiator's messages, oldest first. */
  input: Message[];
  /** Every recorded system action of the turn, in the order it happened. */
  systemActions: EventLog[];
  /** The reply's own model calls; background tasks on the turn (memory extraction) are system actions. */
  llmCalls: EventLog[];
  toolCalls: EventLog[];
  /** The responder's message(s): the AI's reply, or for an AI-initiated turn the human's answer. */
  response: Message[];
  /** Memories recalled into the turn's context, then those extracted from it. */
  memoryLinks: string[];
}

export async function dialogueTurnView(store: Store, turnId: string): Promise<DialogueTurnView | null> {
  const turn = await store.turns.get(turnId);
  if (!turn) return null;
  const [messages, events, answer, extracted] = await Promise.all([
    store.messages.ofTurn(turn._id),
    store.events.ofTurn(turn._id),
    turn.responseMessageId ? store.messages.get(turn.responseMessageId) : Promise.resolve(null),
    store.memories.idsFromTurn(turn._id),
  ]);
  const recalled = events.flatMap((e) =>
    e.kind === 'context_built' ? ((e.data.recall as { memoryIds?: string[] } | null)?.memoryIds ?? []) : [],
  );
  const fromInitiator = (m: Message) => m.senderRole === turn.initiatorRole && m.senderId === turn.initiatorId;
  return {
    turn,
    input: messages.filter(fromInitiator),
    systemActions: events,
    llmCalls: events.filter((e) => e.kind === 'llm_call' && e.data.task === undefined),
    toolCalls: events.filter((e) => e.kind === 'tool_call'),
    response: [...messages.filter((m) => !fromInitiator(m) && m.senderRole !== 'system'), ...(answer ? [answer] : [])],
    memoryLinks: [...new Set([...recalled, ...extracted])],
  };
}
