// Attachment processing state inside messages (contentMeta.attachments[i].processing). One
// attachment is written by index, conditionally on the state the writer started from, so two
// workers processing the same attachment cannot overwrite a newer result with an older one.
import type { Collections } from './collections.js';
import type { AttachmentProcessing, Message } from '../domain/model.js';

export class AttachmentRepo {
  constructor(private readonly c: Collections) {}

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
    const at = `contentMeta.attachments.${index}`;
    const r = await this.c.messages.updateOne(
      { _id: messageId, [`${at}.fileRef`]: from.fileRef, [`${at}.processing.attempts`]: from.attempts },
      { $set: { [`${at}.processing`]: processing } },
    );
    return r.matchedCount === 1;
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
      .find({ 'contentMeta.attachments.processing.state': 'failed', 'contentMeta.attachments.processing.nextAttemptAt': { $lte: now } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return candidates.filter((m) =>
      (m.contentMeta?.attachments ?? []).some(
        (a) => a.processing.state === 'failed' && a.processing.attempts < maxAttempts && !!a.processing.nextAttemptAt && a.processing.nextAttemptAt <= now,
      ),
    );
  }
}
