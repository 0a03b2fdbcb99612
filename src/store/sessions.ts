import type { Collections } from './collections.js';
import type { RollingSummary, Session, SessionCloseReason, SessionKind, SessionSeed } from '../domain/model.js';
import { derivedId, newId } from '../domain/ids.js';
import { isDuplicateKey } from './collections.js';

/** The session the summarise action opens after `fromSessionId`: one per summarised session. */
export const successorIdOf = (fromSessionId: string) => derivedId('ses', 'summary-successor', fromSessionId);

export class SessionRepo {
  constructor(private readonly c: Collections) {}

  get(id: string): Promise<Session | null> {
    return this.c.sessions.findOne({ _id: id });
  }

  /** The persona card's history over these dialogues: how many sessions (visits), and what the last summarised one was about. */
  async visitHistory(dialogueIds: string[]): Promise<{ visits: number; lastTopic?: string }> {
    const inDialogues = { dialogueId: { $in: dialogueIds } };
    const [visits, previous] = await Promise.all([
      this.c.sessions.countDocuments(inDialogues),
      this.c.sessions.find({ ...inDialogues, status: 'closed', summary: { $exists: true } }).sort({ endedAt: -1 }).limit(1).next(),
    ]);
    return { visits, ...(previous?.summary ? { lastTopic: previous.summary } : {}) };
  }

  async open(dialogueId: string, kind: SessionKind, at: Date): Promise<Session> {
    const session: Session = {
      _id: newId('ses', at),
      dialogueId,
      kind,
      status: 'open',
      startedAt: at,
      lastActivityAt: at,
      stats: { messageCount: 0, turnCount: 0 },
    };
    await this.c.sessions.insertOne(session);
    return session;
  }

  /** Closes an open session; a no-op when it is already closed. */
  async close(id: string, reason: SessionCloseReason, endedAt: Date): Promise<boolean> {
    const r = await this.c.sessions.updateOne({ _id: id, status: 'open' }, { $set: { status: 'closed', closeReason: reason, endedAt } });
    return r.modifiedCount === 1;
  }

  async touch(id: string, at: Date, inc: { messages: number; turns: number }): Promise<void> {
    await this.c.sessions.updateOne(
      { _id: id },
      { $set: { lastActivityAt: at }, $inc: { 'stats.messageCount': inc.messages, 'stats.turnCount': inc.turns } },
    );
  }

  /**
   * Stores a new rolling summary only if the stored one still covers up to `expectedCoversUntil`
   * (absent: there was none). A concurrent or retried run that already moved it changes nothing.
   */
  async setRollingSummary(id: string, next: RollingSummary, expectedCoversUntil: Date | undefined): Promise<boolean> {
    const guard = expectedCoversUntil ? { 'rollingSummary.coversUntil': expectedCoversUntil } : { rollingSummary: { $exists: false } };
    const r = await this.c.sessions.updateOne({ _id: id, ...guard }, { $set: { rollingSummary: next } });
    return r.modifiedCount === 1;
  }

  /** Opens the summarised session's successor once; a retry gets the one already stored. */
  async openSeeded(dialogueId: string, seed: SessionSeed, at: Date): Promise<Session> {
    const session: Session = {
      _id: successorIdOf(seed.fromSessionId),
      dialogueId,
      kind: 'dialogue',
      status: 'open',
      startedAt: at,
      lastActivityAt: at,
      stats: { messageCount: 0, turnCount: 0 },
      seed,
    };
    try {
      await this.c.sessions.insertOne(session);
      return session;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await this.get(session._id);
      if (!existing) throw err;
      return existing;
    }
  }

  /**
   * Makes `toSessionId` the dialogue's current session, only while the dialogue is still on
   * `fromSessionId` (or on none): a session ingest opened meanwhile is never replaced.
   */
  async adoptSuccessor(dialogueId: string, fromSessionId: string, toSessionId: string, at: Date): Promise<boolean> {
    const r = await this.c.dialogues.updateOne(
      { _id: dialogueId, $or: [{ currentSessionId: fromSessionId }, { currentSessionId: { $exists: false } }] },
      { $set: { currentSessionId: toSessionId, updatedAt: at } },
    );
    return r.modifiedCount === 1;
  }

  /** Closes the session as `summarized` with its summary; a session closed earlier keeps its end time. */
  async markSummarized(id: string, summary: string, at: Date): Promise<boolean> {
    const open = await this.c.sessions.updateOne({ _id: id, status: 'open' }, { $set: { status: 'closed', closeReason: 'summarized', endedAt: at, summary } });
    if (open.modifiedCount === 1) return true;
    const closed = await this.c.sessions.updateOne({ _id: id, closeReason: { $ne: 'summarized' } }, { $set: { closeReason: 'summarized', summary } });
    return closed.modifiedCount === 1;
  }

  /** Sets the summary of a session that has none (the closing summary); false when one exists. */
  async setSummaryIfAbsent(id: string, summary: string): Promise<boolean> {
    const r = await this.c.sessions.updateOne({ _id: id, summary: { $exists: false } }, { $set: { summary } });
    return r.modifiedCount === 1;
  }
}
