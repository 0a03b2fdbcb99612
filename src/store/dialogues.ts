import type { Collections } from './collections.js';
import type { ChatRef, Dialogue, DialogueType } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';

/** The one dialogue of a chat (or thread) has an id derived from where it lives. */
export const dialogueIdOf = (chat: ChatRef) => derivedId('dlg', chat.platform, chat.chatId, chat.threadId ?? '');

export class DialogueRepo {
  constructor(private readonly c: Collections) {}

  /** The one lasting dialogue for a chat; created on first contact, idempotently. */
  async resolve(chat: ChatRef, init: { type: DialogueType; humanId: string; agentId: string; at: Date }): Promise<Dialogue> {
    const _id = dialogueIdOf(chat);
    const doc = await this.c.dialogues.findOneAndUpdate(
      { _id },
      {
        $setOnInsert: {
          type: init.type,
          chat,
          status: 'active',
          messageCount: 0,
          createdAt: init.at,
          lastActivityAt: init.at,
        },
        $addToSet: { humanIds: init.humanId, agentIds: init.agentId },
        $set: { updatedAt: init.at },
      },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new Error(`dialogue upsert returned nothing for ${_id}`);
    return doc;
  }

  get(id: string): Promise<Dialogue | null> {
    return this.c.dialogues.findOne({ _id: id });
  }

  async noteActivity(id: string, patch: { at: Date; currentSessionId: string; messages: number; title?: string }): Promise<void> {
    await this.c.dialogues.updateOne(
      { _id: id },
      {
        $set: { lastActivityAt: patch.at, updatedAt: patch.at, currentSessionId: patch.currentSessionId },
        $inc: { messageCount: patch.messages },
      },
    );
    if (patch.title) {
      // Only the first message names the dialogue (FR-007); later ones never overwrite it.
      await this.c.dialogues.updateOne({ _id: id, title: { $exists: false } }, { $set: { title: patch.title } });
    }
  }

  async countMessage(id: string, at: Date): Promise<void> {
    await this.c.dialogues.updateOne({ _id: id }, { $inc: { messageCount: 1 }, $set: { lastActivityAt: at, updatedAt: at } });
  }

  /** A group's "answer everything" switch (SPEC §7). */
  async setAnswerAll(id: string, on: boolean, at: Date): Promise<void> {
    await this.c.dialogues.updateOne({ _id: id }, { $set: { 'settings.answerAll': on, updatedAt: at } });
  }
}
