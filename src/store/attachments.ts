// Attachment processing state inside messages (contentMeta.attachments[i].processing). One
// attachment is written by index, only if it is still in the state the writer started from
// (checked under the dialogue's state guard), so two workers processing the same attachment
// cannot overwrite a newer result with an older one. The result reaches the working window too.
import type { Collections } from './collections.js';
import type { AttachmentProcessing, Message } from '../domain/model.js';
import type { MessageRepo } from './messages.js';
import { guardKeys, type StateGuard } from './stateGuard.js';

export class AttachmentRepo {
  constructor(
    private readonly c: Collections,
    private readonly messages: Pick<MessageRepo, 'get' | 'mirror'>,
    private readonly guard: StateGuard,
  ) {}

  /**
   * Stores attachment `index`'s processing if it is still the same file at the same attempt
   * count; false when another writer got there first (read theirs with `processingOf`).
   */
  async saveProcessing(
    messageId: string,
    index: number,
    from: { fileRef: string; attempts: number },
    processing: AttachmentProcessing,
  ): Promise<boolean> {
    const message = await this.messages.get(messageId);
    if (!message) return false;
    return this.guard.run(guardKeys.dialogue(message.dialogueId), async () => {
      const stored = (await this.messages.get(messageId))?.contentMeta?.attachments?.[index];
      if (stored?.fileRef !== from.fileRef || stored.processing.attempts !== from.attempts) return false;
      await this.c.messages.updateOne(
        { _id: messageId },
        { $set: { [`contentMeta.attachments.${index}.processing`]: processing } },
      );
      await this.messages.mirror(messageId, processing.updatedAt);
      return true;
    });
  }

  async processingOf(messageId: string, index: number): Promise<AttachmentProcessing | undefined> {
    const m = await this.c.messages.findOne({ _id: messageId }, { projection: { 'contentMeta.attachments': 1 } });
    return m?.contentMeta?.attachments?.[index]?.processing;
  }

  /**
   * Messages with a failed attachment whose next attempt is due (for a sweep after lost jobs).
   * FerretDB 1.24's $elemMatch takes no field paths, so the query finds candidates (some
   * attachment failed, some next attempt due) and the exact per-attachment test runs here.
   */
  async dueForRetry(now: Date, maxAttempts: number, limit = 100): Promise<Message[]> {
    const candidates = await this.c.messages
      .find({
        'contentMeta.attachments.processing.state': 'failed',
        'contentMeta.attachments.processing.nextAttemptAt': { $lte: now },
      })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return candidates.filter((m) =>
      (m.contentMeta?.attachments ?? []).some(
        (a) =>
          a.processing.state === 'failed' &&
          a.processing.attempts < maxAttempts &&
          !!a.processing.nextAttemptAt &&
          a.processing.nextAttemptAt <= now,
      ),
    );
  }
}
