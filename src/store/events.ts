import type { Collections } from './collections.js';
import type { EventKind, EventLog } from '../domain/model.js';
import { derivedId, newId } from '../domain/ids.js';
import { isDuplicateKey } from './collections.js';
import { silentFeed, type ChangeFeed } from '../feed/changeFeed.js';

export class EventRepo {
  constructor(
    private readonly c: Collections,
    private readonly feed: ChangeFeed = silentFeed,
  ) {}

  private announce(e: { _id: string; kind: EventKind; dialogueId: string; turnId?: string | undefined }): void {
    this.feed.publish({
      kind: 'event',
      dialogueId: e.dialogueId,
      ...(e.turnId ? { turnId: e.turnId } : {}),
      eventId: e._id,
      eventKind: e.kind,
    });
  }

  /** `id`: a derived id makes the event once-only (a second record of it is a no-op). */
  async record(e: {
    kind: EventKind;
    dialogueId: string;
    sessionId?: string;
    turnId?: string;
    messageId?: string;
    data: Record<string, unknown>;
    at?: Date;
    id?: string;
  }): Promise<string> {
    const { id, ...fields } = e;
    const at = e.at ?? new Date();
    const _id = id ?? newId('evt', at);
    try {
      await this.c.events.insertOne({ _id, ...fields, at });
    } catch (err) {
      if (id && isDuplicateKey(err)) return _id;
      throw err;
    }
    this.announce({ _id, ...fields });
    return _id;
  }

  /**
   * A warning deduplicated by category per dialogue (seed 001: one warning per kind): the first
   * occurrence is stored, later ones update its current value, count and last turn.
   */
  async warnOnce(e: {
    dialogueId: string;
    sessionId?: string;
    turnId?: string;
    category: string;
    data: Record<string, unknown>;
    at?: Date;
  }): Promise<'new' | 'repeat'> {
    const at = e.at ?? new Date();
    const _id = derivedId('evt', 'warning', e.dialogueId, e.category);
    try {
      await this.c.events.insertOne({
        _id,
        kind: 'warning',
        dialogueId: e.dialogueId,
        ...(e.sessionId ? { sessionId: e.sessionId } : {}),
        ...(e.turnId ? { turnId: e.turnId } : {}),
        at,
        data: { ...e.data, category: e.category, count: 1, lastAt: at, lastTurnId: e.turnId ?? null },
      });
      this.announce({ _id, kind: 'warning', dialogueId: e.dialogueId, turnId: e.turnId });
      return 'new';
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const set = Object.fromEntries(Object.entries(e.data).map(([k, v]) => [`data.${k}`, v]));
      const r = await this.c.events.updateOne(
        { _id },
        { $set: { ...set, 'data.lastAt': at, 'data.lastTurnId': e.turnId ?? null }, $inc: { 'data.count': 1 } },
      );
      // The stored warning keeps its first turn; the repeat is news for the turn that saw it.
      if (r.modifiedCount === 1) this.announce({ _id, kind: 'warning', dialogueId: e.dialogueId, turnId: e.turnId });
      return 'repeat';
    }
  }

  get(id: string): Promise<EventLog | null> {
    return this.c.events.findOne({ _id: id });
  }

  ofTurn(turnId: string): Promise<EventLog[]> {
    return this.c.events.find({ turnId }).sort({ at: 1, _id: 1 }).toArray();
  }
}
