import type { Collections } from './collections.js';
import type { Session, SessionCloseReason, SessionKind } from '../domain/model.js';
import { newId } from '../domain/ids.js';

export class SessionRepo {
  constructor(private readonly c: Collections) {}

  get(id: string): Promise<Session | null> {
    return this.c.sessions.findOne({ _id: id });
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
}
