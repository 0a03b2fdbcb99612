import type { Collections } from './collections.js';
import { isDuplicateKey } from './collections.js';
import type { DeliveryState, Message } from '../domain/model.js';

export class MessageRepo {
  constructor(private readonly c: Collections) {}

  get(id: string): Promise<Message | null> {
    return this.c.messages.findOne({ _id: id });
  }

  /** Inserts a message once; a second insert of the same id or platform reference is a no-op. */
  async insertOnce(message: Message): Promise<'inserted' | 'duplicate'> {
    try {
      await this.c.messages.insertOne(message);
      return 'inserted';
    } catch (err) {
      if (isDuplicateKey(err)) return 'duplicate';
      throw err;
    }
  }

  /** The last `limit` visible, accepted messages of a session, oldest first. */
  async recentInSession(sessionId: string, limit: number): Promise<Message[]> {
    const docs = await this.c.messages
      .find({ sessionId, visible: true, rejected: { $exists: false } })
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
  async saveStreamedText(id: string, content: string, at: Date): Promise<void> {
    await this.c.messages.updateOne({ _id: id, 'delivery.state': 'streaming' }, { $set: { content, updatedAt: at } });
  }

  async finishReply(
    id: string,
    outcome: { state: Exclude<DeliveryState, 'streaming'>; content: string; error?: { code: string; message: string } },
    at: Date,
  ): Promise<void> {
    await this.c.messages.updateOne(
      { _id: id },
      {
        $set: {
          content: outcome.content,
          'delivery.state': outcome.state,
          'delivery.completedAt': at,
          ...(outcome.error ? { 'delivery.error': outcome.error } : {}),
          updatedAt: at,
        },
      },
    );
  }

  /** A retried reply streams again into the same message (and the same platform messages). */
  async reopenReply(id: string, at: Date): Promise<void> {
    await this.c.messages.updateOne({ _id: id }, { $set: { 'delivery.state': 'streaming', updatedAt: at }, $unset: { 'delivery.error': '' } });
  }

  /** Outbox bookkeeping: which platform message carries chunk `index` of this message. */
  async recordPlatformMessage(id: string, platformMessageId: string): Promise<void> {
    await this.c.messages.updateOne({ _id: id }, { $push: { 'delivery.platformMessageIds': platformMessageId } });
  }
}
