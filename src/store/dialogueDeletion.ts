// BR-006: deleting a dialogue deletes everything under it.
//
// No transactions (FerretDB 1.24): the children go first (events, messages, archived messages,
// turns, sessions) and the dialogue document last, so a crash halfway leaves the dialogue
// visible and calling this again finishes the job. Every delete is filtered on this exact
// dialogueId, so nothing of another dialogue is touched. Callers should hold the dialogue's
// lease (or otherwise stop its ingest/replies/archiving) while it runs, or a concurrent write
// may leave a stray child behind.
import type { Collections } from './collections.js';
import { roomIdOf } from './rooms.js';

export interface DialogueDeletion {
  /** Whether this call removed the dialogue document (false: unknown or already deleted). */
  found: boolean;
  /** Documents removed per collection; leftovers of an interrupted earlier call count here too. */
  deleted: {
    messages: number;
    archivedMessages: number;
    turns: number;
    sessions: number;
    events: number;
    memories: number;
  };
}

export async function deleteDialogue(c: Collections, dialogueId: string): Promise<DialogueDeletion> {
  // An empty or missing id would turn `{ dialogueId }` into a filter matching other dialogues.
  if (typeof dialogueId !== 'string' || dialogueId.length === 0)
    throw new TypeError('dialogueId must be a non-empty string');
  const events = (await c.events.deleteMany({ dialogueId })).deletedCount;
  // Memories learnt in this dialogue go with it (a merged memory belongs to its first source).
  const memories = (await c.memories.deleteMany({ 'sources.dialogueId': dialogueId })).deletedCount;
  // So do the relationship notes written from it (the next evolution writes them again from the
  // person's other private chats, if any).
  await c.relationships.deleteMany({ dialogueIds: dialogueId });
  const messages = (await c.messages.deleteMany({ dialogueId })).deletedCount;
  const archivedMessages = (await c.archivedMessages.deleteMany({ dialogueId })).deletedCount;
  const turns = (await c.turns.deleteMany({ dialogueId })).deletedCount;
  // The hot path's companions of the record (working windows, outbox index) go with it.
  await c.windows.deleteMany({ dialogueId });
  await c.outbox.deleteMany({ dialogueId });
  // A room lives on its dialogue: its rounds and the room itself go too.
  await c.rounds.deleteMany({ dialogueId });
  await c.seats.deleteMany({ roomId: roomIdOf(dialogueId) });
  await c.rooms.deleteMany({ dialogueId });
  const sessions = (await c.sessions.deleteMany({ dialogueId })).deletedCount;
  const found = (await c.dialogues.deleteOne({ _id: dialogueId })).deletedCount === 1;
  return { found, deleted: { messages, archivedMessages, turns, sessions, events, memories } };
}
