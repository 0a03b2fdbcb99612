// Edits and deletes of messages we already hold (SPEC §7): an edit rewrites the stored text and
// keeps the previous one in `edits`; a delete marks the record. Neither opens a turn.
import type { Store } from '../store/store.js';
import { dialogueIdOf } from '../store/dialogues.js';
import { chatRefOf, type InboundDelete, type InboundEdit } from './inboundEvent.js';
import { albumMessageIdOf, messageIdOf } from './messageIds.js';
import type { IngestResult } from './ingest.js';

export async function ingestEdit(store: Store, ev: InboundEdit): Promise<IngestResult> {
  const chat = chatRefOf(ev);
  const byRef = messageIdOf(chat, ev.platformMessageId);
  const message =
    (await store.messages.get(byRef)) ??
    (ev.mediaGroupId ? await store.messages.get(albumMessageIdOf(chat, ev.mediaGroupId)) : null);
  if (!message) return { kind: 'ignored', reason: 'unknown_message' };
  const changed = await store.messages.applyEdit(message, (ev.text ?? '').trim(), ev.editedAt);
  return changed ? { kind: 'edited', messageId: message._id } : { kind: 'ignored', reason: 'unchanged' };
}

export async function ingestDelete(store: Store, ev: InboundDelete): Promise<IngestResult> {
  const chat = chatRefOf(ev);
  // A human's message, or one of ours removed by a moderator.
  const message =
    (await store.messages.get(messageIdOf(chat, ev.platformMessageId))) ??
    (await store.messages.findByDeliveredId(chat, dialogueIdOf(chat), ev.platformMessageId));
  if (!message) return { kind: 'ignored', reason: 'unknown_message' };
  await store.messages.markDeleted(message, ev.deletedAt);
  return { kind: 'deleted', messageId: message._id };
}
