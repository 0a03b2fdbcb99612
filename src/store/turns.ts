import type { Collections } from './collections.js';
import type { DeliveryState, Turn } from '../domain/model.js';
import { respondedFields } from '../domain/turnRules.js';

export class TurnRepo {
  constructor(private readonly c: Collections) {}

  get(id: string): Promise<Turn | null> {
    return this.c.turns.findOne({ _id: id });
  }

  /** The newest pending turn of a session, if any. */
  openIn(sessionId: string): Promise<Turn | null> {
    return this.c.turns.findOne({ sessionId, status: 'pending' }, { sort: { startedAt: -1, _id: -1 } });
  }

  async insert(turn: Turn): Promise<void> {
    await this.c.turns.insertOne(turn);
  }

  /** Marks that the responder started answering, so later messages open the next turn. */
  async markReplyStarted(id: string, at: Date): Promise<void> {
    await this.c.turns.updateOne({ _id: id, status: 'pending', replyStartedAt: { $exists: false } }, { $set: { replyStartedAt: at } });
  }

  /** pending → responded, atomically; false when the turn was no longer pending. */
  async closeResponded(turn: Pick<Turn, '_id' | 'startedAt'>, at: Date, outcome: DeliveryState): Promise<boolean> {
    const r = await this.c.turns.updateOne(
      { _id: turn._id, status: 'pending' },
      { $set: { ...respondedFields(turn, at), outcome } },
    );
    return r.modifiedCount === 1;
  }
}
