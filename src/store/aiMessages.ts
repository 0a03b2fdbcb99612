// The turn's AI message in the record: inserted on a reply's first attempt, and reopened (same
// message, same platform messages) by a retry after an attempt that died before closing its turn.
import type { Message, Turn } from '../domain/model.js';
import { newAiMessage } from '../domain/aiMessage.js';
import type { Store } from './store.js';

/** The turn's AI message, created on the first attempt and reused by retries. */
export async function openAiMessage(store: Store, turn: Turn, id: string, at: Date): Promise<Message> {
  const message = newAiMessage(turn, id, at);
  if ((await store.messages.insertOnce(message)) === 'inserted') return message;
  const existing = await store.messages.get(id);
  if (!existing) throw new Error(`reply ${id} vanished`);
  // A previous attempt died before closing the turn: generate anew into the same message and
  // the same platform messages, dated by this attempt's read.
  await store.messages.reopenReply(existing, at);
  return { ...existing, createdAt: at, updatedAt: at };
}
