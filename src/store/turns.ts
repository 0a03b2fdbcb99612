import type { Collections } from './collections.js';
import type { DeliveryState, Turn } from '../domain/model.js';
import { respondedFields } from '../domain/turnRules.js';
import { silentFeed, type ChangeFeed } from '../feed/changeFeed.js';

export class TurnRepo {
  constructor(
    private readonly c: Collections,
    private readonly feed: ChangeFeed = silentFeed,
  ) {}

  /** Tells the dialogue's subscribers that a turn appeared or changed status. */
  private announce(turn: Pick<Turn, '_id' | 'dialogueId'>, status: Turn['status']): void {
    this.feed.publish({ kind: 'turn', dialogueId: turn.dialogueId, turnId: turn._id, status });
  }

  get(id: string): Promise<Turn | null> {
    return this.c.turns.findOne({ _id: id });
  }

  /** The newest pending turn of a session, if any. */
  openIn(sessionId: string): Promise<Turn | null> {
    return this.c.turns.findOne({ sessionId, status: 'pending' }, { sort: { startedAt: -1, _id: -1 } });
  }

  async insert(turn: Turn): Promise<void> {
    await this.c.turns.insertOne(turn);
    this.announce(turn, turn.status);
  }

  /** Marks that the responder started answering, so later messages open the next turn. */
  async markReplyStarted(id: string, at: Date): Promise<void> {
    await this.c.turns.updateOne({ _id: id, status: 'pending', replyStartedAt: { $exists: false } }, { $set: { replyStartedAt: at } });
  }

  /** pending → responded, atomically; false when the turn was no longer pending. */
  async closeResponded(turn: Pick<Turn, '_id' | 'dialogueId' | 'startedAt'>, at: Date, detail: { outcome?: DeliveryState; responseMessageId?: string }): Promise<boolean> {
    const r = await this.c.turns.updateOne({ _id: turn._id, status: 'pending' }, { $set: { ...respondedFields(turn, at), ...detail } });
    if (r.modifiedCount !== 1) return false;
    this.announce(turn, 'responded');
    return true;
  }

  /** pending → unresponded at its deadline, atomically; a no-op for a turn already answered. */
  async expire(turn: Pick<Turn, '_id' | 'dialogueId' | 'deadlineAt'>): Promise<boolean> {
    const r = await this.c.turns.updateOne({ _id: turn._id, status: 'pending' }, { $set: { status: 'unresponded', closedAt: turn.deadlineAt } });
    if (r.modifiedCount !== 1) return false;
    this.announce(turn, 'unresponded');
    return true;
  }

  /** A dialogue's unresponded turns, oldest first. */
  unresponded(dialogueId: string, limit = 100): Promise<Turn[]> {
    return this.c.turns.find({ dialogueId, status: 'unresponded' }).sort({ startedAt: 1, _id: 1 }).limit(limit).toArray();
  }

  /** Pending turns the AI must answer, started before `before` and still inside their window. */
  awaitingAi(before: Date, now: Date, limit: number): Promise<Turn[]> {
    return this.c.turns
      .find({ status: 'pending', responderRole: 'ai', startedAt: { $lt: before }, deadlineAt: { $gt: now } })
      .sort({ startedAt: 1 })
      .limit(limit)
      .toArray();
  }

  /** Whether the AI is generating a reply in this dialogue right now (as far as the store knows). */
  async replyInProgress(dialogueId: string): Promise<boolean> {
    return (await this.c.turns.countDocuments({ dialogueId, status: 'pending', responderRole: 'ai', replyStartedAt: { $exists: true } }, { limit: 1 })) > 0;
  }

  /** The agent's latest answered dialogue turns across all its dialogues, newest first. */
  recentAnsweredOf(agentId: string, limit: number): Promise<Turn[]> {
    return this.c.turns
      .find({ kind: 'dialogue', status: 'responded', $or: [{ responderRole: 'ai', responderId: agentId }, { initiatorRole: 'ai', initiatorId: agentId }] })
      .sort({ startedAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
  }
}
