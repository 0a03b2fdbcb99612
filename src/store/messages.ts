import type { Collections } from './collections.js';
import { isDuplicateKey } from './collections.js';
import type { Attachment, DeliveryState, Message } from '../domain/model.js';
import { messageSearchKeys } from '../search/searchKeys.js';
import { silentFeed, type ChangeFeed } from '../feed/changeFeed.js';

/**
 * The conversation: visible, accepted messages that are not commands (/summary, /new … steer the
 * gateway, they are not said to anyone). Prompts, summaries and persona cards all read this.
 */
const CONVERSATION = { visible: true, rejected: { $exists: false }, deleted: { $exists: false }, contentType: { $ne: 'command' } } as const;

/** What a write needs to find a message and to tell the dialogue's subscribers about it. */
export type MessageKey = Pick<Message, '_id' | 'dialogueId'>;

export class MessageRepo {
  constructor(
    private readonly c: Collections,
    private readonly feed: ChangeFeed = silentFeed,
  ) {}

  private announce(m: MessageKey, change: 'created' | 'updated'): void {
    this.feed.publish({ kind: 'message', dialogueId: m.dialogueId, messageId: m._id, change });
  }

  get(id: string): Promise<Message | null> {
    return this.c.messages.findOne({ _id: id });
  }

  /** Inserts a message once; a second insert of the same id or platform reference is a no-op. */
  async insertOnce(message: Message): Promise<'inserted' | 'duplicate'> {
    try {
      // Every write of a message's text also writes its search keys (src/search/searchKeys.ts).
      await this.c.messages.insertOne({ ...message, searchKeys: messageSearchKeys(message) });
      this.announce(message, 'created');
      return 'inserted';
    } catch (err) {
      if (isDuplicateKey(err)) return 'duplicate';
      throw err;
    }
  }

  /**
   * A session's conversation created at or after `since` (all when absent), oldest first.
   * `limit` caps the count from the oldest end, so a caller folding history in order continues
   * where it stopped.
   */
  inSessionSince(sessionId: string, since?: Date, limit?: number): Promise<Message[]> {
    const cursor = this.c.messages.find({ sessionId, ...CONVERSATION, ...(since ? { createdAt: { $gte: since } } : {}) }).sort({ createdAt: 1, _id: 1 });
    return (limit !== undefined ? cursor.limit(limit) : cursor).toArray();
  }

  /** The last `limit` things a human said in these dialogues, oldest first. */
  async recentSaidBy(humanId: string, dialogueIds: string[], limit: number): Promise<Message[]> {
    const docs = await this.c.messages
      .find({ dialogueId: { $in: dialogueIds }, senderId: humanId, senderRole: 'human', ...CONVERSATION })
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return docs.reverse();
  }

  ofTurn(turnId: string): Promise<Message[]> {
    return this.c.messages.find({ turnId }).sort({ createdAt: 1, _id: 1 }).toArray();
  }

  async moveToTurn(id: string, turnId: string): Promise<void> {
    await this.c.messages.updateOne({ _id: id }, { $set: { turnId } });
  }

  /** Persist-before-push: the streamed text is stored before the platform may show it. */
  async saveStreamedText(message: MessageKey, content: string, at: Date): Promise<void> {
    const r = await this.c.messages.updateOne({ _id: message._id, 'delivery.state': 'streaming' }, { $set: { content, updatedAt: at } });
    if (r.modifiedCount === 1) this.announce(message, 'updated');
  }

  async finishReply(
    message: MessageKey,
    outcome: { state: Exclude<DeliveryState, 'streaming'>; content: string; error?: { code: string; message: string } },
    at: Date,
  ): Promise<void> {
    const r = await this.c.messages.updateOne(
      { _id: message._id },
      {
        $set: {
          content: outcome.content,
          searchKeys: messageSearchKeys({ content: outcome.content }),
          'delivery.state': outcome.state,
          'delivery.completedAt': at,
          ...(outcome.error ? { 'delivery.error': outcome.error } : {}),
          updatedAt: at,
        },
      },
    );
    if (r.modifiedCount === 1) this.announce(message, 'updated');
  }

  /** A retried reply streams again into the same message (and the same platform messages). */
  async reopenReply(message: MessageKey, at: Date): Promise<void> {
    const r = await this.c.messages.updateOne({ _id: message._id }, { $set: { 'delivery.state': 'streaming', updatedAt: at }, $unset: { 'delivery.error': '' } });
    if (r.modifiedCount === 1) this.announce(message, 'updated');
  }

  /** Outbox bookkeeping: which platform message carries chunk `index` of this message. */
  async recordPlatformMessage(message: MessageKey, platformMessageId: string): Promise<void> {
    const r = await this.c.messages.updateOne({ _id: message._id }, { $push: { 'delivery.platformMessageIds': platformMessageId } });
    if (r.modifiedCount === 1) this.announce(message, 'updated');
  }

  /**
   * Adds the items of a Telegram album that arrived after its first item. Idempotent: an item
   * already present (same source message) is not added again.
   */
  async appendAlbumItems(message: MessageKey, items: Attachment[], caption: string | undefined, at: Date): Promise<boolean> {
    const id = message._id;
    // Read-check-write with the previous updatedAt as the guard (FerretDB cannot filter on a
    // field inside array elements): a concurrent append makes ours retry, never duplicate.
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.c.messages.findOne({ _id: id }, { projection: { contentMeta: 1, updatedAt: 1, content: 1 } });
      if (!current) return false;
      const have = new Set((current.contentMeta?.attachments ?? []).map((a) => a.sourceMessageId));
      const fresh = items.filter((a) => !have.has(a.sourceMessageId));
      if (fresh.length === 0) return false;
      const stamp = new Date(Math.max(at.getTime(), current.updatedAt.getTime() + 1));
      // Only one item of an album usually carries the caption; it becomes the message text.
      const setCaption = caption && current.content === '' ? { content: caption, searchKeys: messageSearchKeys({ content: caption, contentMeta: current.contentMeta }) } : {};
      const r = await this.c.messages.updateOne(
        { _id: id, updatedAt: current.updatedAt },
        { $push: { 'contentMeta.attachments': { $each: fresh } }, $set: { updatedAt: stamp, ...setCaption } },
      );
      if (r.modifiedCount === 1) {
        this.announce(message, 'updated');
        return true;
      }
    }
    throw new Error(`album message ${id} kept changing; item not added`);
  }

  /**
   * An edit on the platform: the previous text moves to `edits`, `content` becomes the new text.
   * Conditional on the text we saw, so a redelivered edit changes nothing.
   */
  async applyEdit(message: Pick<Message, '_id' | 'dialogueId' | 'content'> & Partial<Pick<Message, 'contentMeta'>>, content: string, editedAt: Date): Promise<boolean> {
    if (message.content === content) return false;
    const r = await this.c.messages.updateOne(
      { _id: message._id, content: message.content },
      { $push: { edits: { content: message.content, editedAt } }, $set: { content, searchKeys: messageSearchKeys({ content, contentMeta: message.contentMeta }), updatedAt: editedAt } },
    );
    if (r.modifiedCount !== 1) return false;
    this.announce(message, 'updated');
    return true;
  }

  /** Deleted on the platform: kept for the record, left out of every later context. */
  async markDeleted(message: MessageKey, at: Date): Promise<boolean> {
    const r = await this.c.messages.updateOne({ _id: message._id, deleted: { $exists: false } }, { $set: { deleted: { at }, updatedAt: at } });
    if (r.modifiedCount !== 1) return false;
    this.announce(message, 'updated');
    return true;
  }

  /** Our AI message that a platform message id belongs to (replies are split into several). */
  findByDeliveredId(dialogueId: string, platformMessageId: string): Promise<Message | null> {
    return this.c.messages.findOne({ dialogueId, senderRole: { $in: ['ai', 'system'] }, 'delivery.platformMessageIds': platformMessageId });
  }
}
