// Sessions. Every write runs under the dialogue's state guard and addresses the session by
// `_id`: a transition (open → closed, a new rolling summary) is read, checked and written
// there instead of with a conditional filter (SPEC §3 access rule).
import type { Collections } from './collections.js';
import type {
  RollingSummary,
  PreviousSession,
  Session,
  SessionCloseReason,
  SessionKind,
  SessionSeed,
  SessionWindow,
  WindowEntry,
} from '../domain/model.js';
import { derivedId, newId } from '../domain/ids.js';
import type { WindowRepo } from './windows.js';
import { guardKeys, type StateGuard } from './stateGuard.js';

/** The session the summarise action opens after `fromSessionId`: one per summarised session. */
export const successorIdOf = (fromSessionId: string) => derivedId('ses', 'summary-successor', fromSessionId);

type SessionKey = Pick<Session, '_id' | 'dialogueId'>;

/** A new open session, not yet stored. */
export function newSession(dialogueId: string, kind: SessionKind, at: Date, previous?: PreviousSession): Session {
  return {
    _id: newId('ses', at),
    dialogueId,
    kind,
    status: 'open',
    startedAt: at,
    lastActivityAt: at,
    stats: { messageCount: 0, turnCount: 0 },
    ...(previous ? { previous } : {}),
  };
}

export class SessionRepo {
  constructor(
    private readonly c: Collections,
    private readonly windows: WindowRepo,
    private readonly guard: StateGuard,
  ) {}

  private guarded<T>(s: Pick<Session, 'dialogueId'>, fn: () => Promise<T>): Promise<T> {
    return this.guard.run(guardKeys.dialogue(s.dialogueId), fn);
  }

  get(id: string): Promise<Session | null> {
    return this.c.sessions.findOne({ _id: id });
  }

  /** A new open session with its empty working window. */
  async open(dialogueId: string, kind: SessionKind, at: Date, previous?: PreviousSession): Promise<Session> {
    const session = newSession(dialogueId, kind, at, previous);
    await this.insert(session);
    return session;
  }

  /** Stores a session built by `newSession` with its empty window. Returns the window as stored (undefined: a retry found one). */
  insert(session: Session): Promise<SessionWindow | undefined> {
    return this.guarded(session, async () => {
      // The window first would only matter to a reader of a session not yet stored: none.
      const [window] = await Promise.all([
        this.windows.create(session, session.startedAt),
        this.c.sessions.insertOne(session),
      ]);
      return window;
    });
  }

  /** Closes an open session; false when it was already closed (or is unknown). */
  close(s: SessionKey, reason: SessionCloseReason, endedAt: Date): Promise<boolean> {
    return this.guarded(s, async () => {
      if ((await this.get(s._id))?.status !== 'open') return false;
      await this.c.sessions.updateOne({ _id: s._id }, { $set: { status: 'closed', closeReason: reason, endedAt } });
      return true;
    });
  }

  async touch(s: SessionKey, at: Date, inc: { messages: number; turns: number }): Promise<void> {
    await this.guarded(s, () =>
      this.c.sessions.updateOne(
        { _id: s._id },
        { $set: { lastActivityAt: at }, $inc: { 'stats.messageCount': inc.messages, 'stats.turnCount': inc.turns } },
      ),
    );
  }

  /**
   * Stores a new rolling summary only if the stored one still covers up to `expectedCoversUntil`
   * (absent: there was none). A concurrent or retried run that already moved it changes nothing.
   */
  setRollingSummary(s: SessionKey, next: RollingSummary, expectedCoversUntil: Date | undefined): Promise<boolean> {
    return this.guarded(s, async () => {
      const stored = (await this.get(s._id))?.rollingSummary?.coversUntil;
      if (stored?.getTime() !== expectedCoversUntil?.getTime()) return false;
      await this.c.sessions.updateOne({ _id: s._id }, { $set: { rollingSummary: next } });
      return true;
    });
  }

  /** Opens the summarised session's successor once (its window seeded); a retry gets the one already stored. */
  openSeeded(dialogueId: string, seed: SessionSeed, at: Date, seedMessages: WindowEntry[]): Promise<Session> {
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
    return this.guarded(session, async () => {
      const existing = await this.get(session._id);
      if (existing) return existing;
      await this.windows.create(session, at, { seed: seedMessages });
      await this.c.sessions.insertOne(session);
      return session;
    });
  }

  /** Closes the session as `summarized` with its summary; a session closed earlier keeps its end time. */
  markSummarized(s: SessionKey, summary: string, at: Date): Promise<boolean> {
    return this.guarded(s, async () => {
      const current = await this.get(s._id);
      if (!current || current.closeReason === 'summarized') return false;
      const close = current.status === 'open' ? { status: 'closed' as const, endedAt: at } : {};
      await this.c.sessions.updateOne({ _id: s._id }, { $set: { ...close, closeReason: 'summarized', summary } });
      return true;
    });
  }

  /** Sets the summary of a session that has none (the closing summary); false when one exists. */
  setSummaryIfAbsent(s: SessionKey, summary: string): Promise<boolean> {
    return this.guarded(s, async () => {
      const current = await this.get(s._id);
      if (!current || current.summary !== undefined) return false;
      await this.c.sessions.updateOne({ _id: s._id }, { $set: { summary } });
      return true;
    });
  }
}
