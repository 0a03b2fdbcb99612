// Platform message ids of the messages we sent, indexed by a derived `_id` (platform, chat,
// platform message id → our message), so a user quoting or deleting one of our messages is
// resolved by one point read instead of a query over the messages' delivery arrays. Documents
// recorded before this index existed are indexed by a one-off backfill (src/store/hotPathBackfills.ts);
// until it has finished, a miss falls back to the query.
import type { Collections } from './collections.js';
import { derivedId } from '../domain/ids.js';
import { scopeParts, type MessageScope } from '../domain/chatScope.js';
import type { MigrationRepo } from './migrations.js';

export interface OutboxEntry {
  _id: string;
  messageId: string;
  dialogueId: string;
}

export const outboxIdOf = (chat: MessageScope, platformMessageId: string) =>
  derivedId('out', ...scopeParts(chat), platformMessageId);

export const OUTBOX_BACKFILL = 'outbox-index';

export class OutboxRepo {
  constructor(
    private readonly c: Collections,
    private readonly migrations: MigrationRepo,
  ) {}

  async record(chat: MessageScope, platformMessageId: string, m: { _id: string; dialogueId: string }): Promise<void> {
    const _id = outboxIdOf(chat, platformMessageId);
    await this.c.outbox.replaceOne({ _id }, { messageId: m._id, dialogueId: m.dialogueId }, { upsert: true });
  }

  async messageIdOf(chat: MessageScope, platformMessageId: string): Promise<string | undefined> {
    return (await this.c.outbox.findOne({ _id: outboxIdOf(chat, platformMessageId) }))?.messageId;
  }

  /** Whether every platform id recorded before the index existed is indexed. */
  complete(): Promise<boolean> {
    return this.migrations.done(OUTBOX_BACKFILL);
  }
}
