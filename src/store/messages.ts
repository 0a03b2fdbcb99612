import type { Collections } from './collections.js';
import { isDuplicateKey } from './collections.js';
import type { Attachment, ChatRef, DeliveryState, Message, SourceReference } from '../domain/model.js';
import { belongsInWindow } from '../domain/windowRules.js';
import { silentFeed, type ChangeFeed } from '../feed/changeFeed.js';
import { CONVERSATION_FILTER as CONVERSATION } from '../domain/conversation.js';
import type { WindowRepo } from './windows.js';
import type { OutboxRepo } from './outbox.js';
import { guardKeys, type StateGuard } from './stateGuard.js';
import type { SearchJournalRepo } from './searchJournal.js';

/** The chat a platform message id belongs to. */
export type PlatformChat = Pick<ChatRef, 'platform' | 'chatId' | 'bot'>;

/** What a write needs to find a message and to tell the dialogue's subscribers about it. */
export type MessageKey = Pick<Message, '_id' | 'dialogueId'>;

export class MessageRepo {
  constructor(
    private readonly c: Collections,
    private readonly windows: WindowRepo,
    private readonly outbox: OutboxRepo,
    private readonly guard: StateGuard,
    /** Every write of a message's text notes the message here, for the search index (src/store/searchIndexer.ts). */
    private readonly journal: SearchJournalRepo,
    private readonly feed: ChangeFeed = silentFeed,
  ) {}

  private announce(m: MessageKey, change: 'created' | 'updated'): void {
    this.feed.publish({ kind: 'message', dialogueId: m.dialogueId, messageId: m._id, change });
  }

  /** Runs a read-check-write of one message under its dialogue's state guard (no conditional filters). */
  private guarded<T>(m: MessageKey, fn: () => Promise<T>): Promise<T> {
    return this.guard.run(guardKeys.dialogue(m.dialogueId), fn);
  }

  get(id: string): Promise<Message | null> {
    return this.c.messages.findOne({ _id: id });
  }

  /** Several messages by id, in no particular order (API and old-session fallbacks, not the hot path). */
  getMany(ids: string[]): Promise<Message[]> {
    return ids.length === 0
      ? Promise.resolve([])
      : this.c.messages
          .find({ _id: { $in: ids } })
          .sort({ createdAt: 1, _id: 1 })
          .toArray();
  }

  /**
   * Inserts a message once; a second insert of the same id or platform reference is a no-op.
   * A conversation message also enters its session's working window, once it is stored: an
   * entry whose message was lost with the server would be read by a reply, and the message,
   * redelivered, placed again and answered twice (issue 35). A message stored without its entry
   * is put back by ingest when redelivered (or placed again if its reply began without it).
   * `windowed: false`: bulk loads (benches, seeded records) that keep no window.
   */
  async insertOnce(message: Message, o: { windowed?: boolean } = {}): Promise<'inserted' | 'duplicate'> {
    // Journaled beside the insert, so the message is searchable once the insert returns.
    const journaled = this.journal.note(message);
    try {
      await this.c.messages.insertOne(message);
    } catch (err) {
      await journaled.catch(() => undefined);
      if (isDuplicateKey(err)) return 'duplicate';
      throw err;
    }
    await Promise.all([
      o.windowed !== false && belongsInWindow(message) ? this.windows.put(message, message.updatedAt) : undefined,
      journaled,
    ]);
    this.announce(message, 'created');
    return 'inserted';
  }

  /**
   * A session's conversation created at or after `since` (all when absent), oldest first, from
   * the record. Prompts read the working window instead (src/store/sessionHistory.ts).
   * `limit` caps the count from the oldest end, so a caller folding history in order continues
   * where it stopped.
   */
  inSessionSince(sessionId: string, since?: Date, limit?: number): Promise<Message[]> {
    const cursor = this.c.messages
      .find({ sessionId, ...CONVERSATION, ...(since ? { createdAt: { $gte: since } } : {}) })
      .sort({ createdAt: 1, _id: 1 });
    return (limit !== undefined ? cursor.limit(limit) : cursor).toArray();
  }

  /** The last `limit` things a human said in these dialogues, oldest first (the operator's persona card). */
  async recentSaidBy(humanId: string, dialogueIds: string[], limit: number): Promise<Message[]> {
    const docs = await this.c.messages
      .find({ dialogueId: { $in: dialogueIds }, senderId: humanId, senderRole: 'human', ...CONVERSATION })
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return docs.reverse();
  }

  /** A turn's messages from the record (API, old turns); prompts take them from the window. */
  ofTurn(turnId: string): Promise<Message[]> {
    return this.c.messages.find({ turnId }).sort({ createdAt: 1, _id: 1 }).toArray();
  }

  /**
   * Persist-before-push: the streamed text is stored before the platform may show it. By `_id`
   * alone: the streamer awaits its last save before the reply is finished (ReplyStreamer.drain),
   * so no save lands after the final text.
   */
  async saveStreamedText(message: MessageKey, content: string, at: Date): Promise<void> {
    await this.c.messages.updateOne({ _id: message._id }, { $set: { content, updatedAt: at } });
    this.announce(message, 'updated');
  }

  /** The reply's outcome; the finished reply enters its session's working window. */
  async finishReply(
    message: Message,
    outcome: {
      state: Exclude<DeliveryState, 'streaming'>;
      content: string;
      error?: { code: string; message: string };
      /** false: a room agent's skip, kept but never shown (seed 002). */
      visible?: false;
      /** What people were shown, when it differs from `content`. */
      shown?: string;
      usage?: { inputTokens: number; outputTokens: number };
      /** The knowledge the reply validly cited (src/respond/replySources.ts). */
      sources?: SourceReference[];
    },
    at: Date,
  ): Promise<Message> {
    const delivery = {
      ...(message.delivery ?? { platformMessageIds: [] }),
      state: outcome.state,
      completedAt: at,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.shown !== undefined ? { shown: outcome.shown } : {}),
      ...(outcome.usage ? { usage: outcome.usage } : {}),
    };
    await this.c.messages.updateOne(
      { _id: message._id },
      {
        $set: {
          content: outcome.content,
          'delivery.state': outcome.state,
          'delivery.completedAt': at,
          ...(outcome.error ? { 'delivery.error': outcome.error } : {}),
          ...(outcome.shown !== undefined ? { 'delivery.shown': outcome.shown } : {}),
          ...(outcome.usage ? { 'delivery.usage': outcome.usage } : {}),
          ...(outcome.visible === false ? { visible: false } : {}),
          ...(outcome.sources ? { sources: outcome.sources } : {}),
          updatedAt: at,
        },
        // A retried reply that cites nothing keeps no sources of an earlier attempt.
        ...(!outcome.sources && message.sources ? { $unset: { sources: '' as const } } : {}),
      },
    );
    await this.journal.note(message);
    this.announce(message, 'updated');
    const finished: Message = {
      ...message,
      content: outcome.content,
      delivery,
      updatedAt: at,
      ...(outcome.visible === false ? { visible: false } : {}),
    };
    if (outcome.sources) finished.sources = outcome.sources;
    else delete finished.sources;
    await this.windows.put(finished, at);
    return finished;
  }

  /**
   * Places a stored message in another turn: the one ingest opens for it again when the turn it
   * was stored with never was, or whose reply never read it (the server died between writes).
   * Placed as if new, it is dated then, after the reply it missed. Its window entry follows.
   */
  async reassignTurn(message: Message, turnId: string, at: Date): Promise<void> {
    const moved = { ...message, turnId, createdAt: at, updatedAt: at };
    await Promise.all([
      this.c.messages.updateOne({ _id: message._id }, { $set: { turnId, createdAt: at, updatedAt: at } }),
      belongsInWindow(moved) ? this.windows.put(moved, at) : Promise.resolve(),
    ]);
    this.announce(message, 'updated');
  }

  /**
   * A retried reply streams again into the same message (and the same platform messages). It
   * read anew at `at`, so it is dated then: after every message its prompt held, which a later
   * turn's prompt must show as answered (issue 35).
   */
  async reopenReply(message: MessageKey, at: Date): Promise<void> {
    await this.c.messages.updateOne(
      { _id: message._id },
      {
        $set: { 'delivery.state': 'streaming', createdAt: at, updatedAt: at },
        $unset: { 'delivery.error': '', 'delivery.shown': '', 'delivery.usage': '' },
      },
    );
    this.announce(message, 'updated');
  }

  /**
   * Outbox bookkeeping: which platform message carries chunk `index` of this message. The
   * platform id is also indexed by `_id` (OutboxRepo), so a quote of it resolves without a query.
   */
  async recordPlatformMessage(message: MessageKey, chat: PlatformChat, platformMessageId: string): Promise<void> {
    await this.outbox.record(chat, platformMessageId, message);
    await this.c.messages.updateOne(
      { _id: message._id },
      { $push: { 'delivery.platformMessageIds': platformMessageId } },
    );
    this.announce(message, 'updated');
  }

  /**
   * Adds the items of a Telegram album that arrived after its first item. Idempotent: an item
   * already present (same source message) is not added again.
   */
  async appendAlbumItems(
    message: MessageKey,
    items: Attachment[],
    caption: string | undefined,
    at: Date,
  ): Promise<boolean> {
    return this.guarded(message, async () => {
      const current = await this.get(message._id);
      if (!current) return false;
      const have = new Set((current.contentMeta?.attachments ?? []).map((a) => a.sourceMessageId));
      const fresh = items.filter((a) => !have.has(a.sourceMessageId));
      if (fresh.length === 0) return false;
      const stamp = new Date(Math.max(at.getTime(), current.updatedAt.getTime() + 1));
      // Only one item of an album usually carries the caption; it becomes the message text.
      const setCaption = caption && current.content === '' ? { content: caption } : {};
      await this.c.messages.updateOne(
        { _id: message._id },
        { $push: { 'contentMeta.attachments': { $each: fresh } }, $set: { updatedAt: stamp, ...setCaption } },
      );
      if (setCaption.content !== undefined) await this.journal.note(current);
      this.announce(message, 'updated');
      await this.mirror(message._id, stamp);
      return true;
    });
  }

  /**
   * An edit on the platform: the previous text moves to `edits`, `content` becomes the new text.
   * A redelivered edit (the text is already the new one) changes nothing.
   */
  async applyEdit(message: MessageKey, content: string, editedAt: Date): Promise<boolean> {
    return this.guarded(message, async () => {
      const current = await this.get(message._id);
      if (!current || current.content === content) return false;
      await this.c.messages.updateOne(
        { _id: message._id },
        {
          $push: { edits: { content: current.content, editedAt } },
          $set: {
            content,
            updatedAt: editedAt,
          },
        },
      );
      await this.journal.note(current);
      this.announce(message, 'updated');
      await this.windows.refresh({ ...current, content, updatedAt: editedAt }, editedAt);
      return true;
    });
  }

  /** Deleted on the platform: kept for the record, left out of every later context. */
  async markDeleted(message: MessageKey, at: Date): Promise<boolean> {
    return this.guarded(message, async () => {
      const current = await this.get(message._id);
      if (!current || current.deleted) return false;
      await this.c.messages.updateOne({ _id: message._id }, { $set: { deleted: { at }, updatedAt: at } });
      this.announce(message, 'updated');
      await this.windows.refresh({ ...current, deleted: { at }, updatedAt: at }, at);
      return true;
    });
  }

  /**
   * A person's messages in one dialogue not yet marked deleted (BR-006 of a person marks them in
   * the chats that are not theirs alone). Off the hot path: the dialogue's messages, filtered.
   */
  async undeletedOf(dialogueId: string, senderIds: readonly string[]): Promise<MessageKey[]> {
    if (senderIds.length === 0) return [];
    return this.c.messages
      .find(
        { dialogueId, senderRole: 'human', senderId: { $in: [...senderIds] }, deleted: { $exists: false } },
        { projection: { _id: 1, dialogueId: 1 } },
      )
      .toArray();
  }

  /** Copies the stored message into its window entry, if the window holds it (media results, albums). */
  async mirror(id: string, at: Date): Promise<void> {
    const current = await this.get(id);
    if (current) await this.windows.refresh(current, at);
  }

  /** Our AI message that a platform message id belongs to (replies are split into several). */
  async findByDeliveredId(chat: PlatformChat, dialogueId: string, platformMessageId: string): Promise<Message | null> {
    const id = await this.outbox.messageIdOf(chat, platformMessageId);
    if (id) return this.get(id);
    if (await this.outbox.complete()) return null;
    // Platform messages recorded before the outbox index was backfilled.
    return this.c.messages.findOne({
      dialogueId,
      senderRole: { $in: ['ai', 'system'] },
      'delivery.platformMessageIds': platformMessageId,
    });
  }
}
