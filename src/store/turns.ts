// Turns. Status moves only pending → responded | unresponded, and `replyStartedAt` is set once;
// each transition is read, checked and written by `_id` under the dialogue's state guard
// (SPEC §3 access rule), never with a conditional filter.
import type { Collections } from './collections.js';
import type { DeliveryState, Turn } from '../domain/model.js';
import { respondedFields } from '../domain/turnRules.js';
import { silentFeed, type ChangeFeed } from '../feed/changeFeed.js';
import { guardKeys, type StateGuard } from './stateGuard.js';

type TurnKey = Pick<Turn, '_id' | 'dialogueId'>;

export class TurnRepo {
  constructor(
    private readonly c: Collections,
    private readonly guard: StateGuard,
    private readonly feed: ChangeFeed = silentFeed,
  ) {}

  /** Tells the dialogue's subscribers that a turn appeared or changed status. */
  private announce(turn: TurnKey, status: Turn['status']): void {
    this.feed.publish({ kind: 'turn', dialogueId: turn.dialogueId, turnId: turn._id, status });
  }

  private guarded<T>(t: Pick<Turn, 'dialogueId'>, fn: () => Promise<T>): Promise<T> {
    return this.guard.run(guardKeys.dialogue(t.dialogueId), fn);
  }

  get(id: string): Promise<Turn | null> {
    return this.c.turns.findOne({ _id: id });
  }

  /** The newest pending turn of a session, if any (API; the hot path follows `Dialogue.openTurnId`). */
  openIn(sessionId: string): Promise<Turn | null> {
    return this.c.turns.findOne({ sessionId, status: 'pending' }, { sort: { startedAt: -1, _id: -1 } });
  }

  async insert(turn: Turn): Promise<void> {
    await this.c.turns.insertOne(turn);
    this.announce(turn, turn.status);
  }

  /**
   * Marks that the responder started answering, so later messages open the next turn. The
   * caller holds the dialogue's guard, read `current` under it and reads the history under it,
   * so a message either joined this turn before the read or opens the next one. `heard`: the
   * turn's messages that read held (Turn.heard). A retried reply keeps its first start but
   * records what it read itself: the attempt that completes is the one whose prompt counts.
   */
  async markReplyStarted(current: Turn, at: Date, heard?: string[]): Promise<Turn> {
    if (current.replyStartedAt && sameIds(current.heard, heard)) return current;
    const mark = { replyStartedAt: current.replyStartedAt ?? at, ...(heard ? { heard } : {}) };
    await this.guarded(current, () => this.c.turns.updateOne({ _id: current._id }, { $set: mark }));
    return { ...current, ...mark };
  }

  /** pending → responded; false when the turn was no longer pending. */
  closeResponded(
    turn: Pick<Turn, '_id' | 'dialogueId' | 'startedAt'>,
    at: Date,
    detail: { outcome?: DeliveryState; responseMessageId?: string },
  ): Promise<boolean> {
    return this.guarded(turn, async () => {
      if ((await this.get(turn._id))?.status !== 'pending') return false;
      await this.c.turns.updateOne({ _id: turn._id }, { $set: { ...respondedFields(turn, at), ...detail } });
      this.announce(turn, 'responded');
      return true;
    });
  }

  /** pending → unresponded at its deadline; a no-op for a turn already answered. */
  expire(turn: Pick<Turn, '_id' | 'dialogueId' | 'deadlineAt'>): Promise<boolean> {
    return this.guarded(turn, async () => {
      if ((await this.get(turn._id))?.status !== 'pending') return false;
      await this.c.turns.updateOne({ _id: turn._id }, { $set: { status: 'unresponded', closedAt: turn.deadlineAt } });
      this.announce(turn, 'unresponded');
      return true;
    });
  }

  /** A dialogue's unresponded turns, oldest first. */
  unresponded(dialogueId: string, limit = 100): Promise<Turn[]> {
    return this.c.turns
      .find({ dialogueId, status: 'unresponded' })
      .sort({ startedAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  /** Pending turns the AI must answer, started before `before` and still inside their window (the sweeper). */
  awaitingAi(before: Date, now: Date, limit: number): Promise<Turn[]> {
    return this.c.turns
      .find({ status: 'pending', responderRole: 'ai', startedAt: { $lt: before }, deadlineAt: { $gt: now } })
      .sort({ startedAt: 1 })
      .limit(limit)
      .toArray();
  }

  /** The agent's latest answered dialogue turns across all its dialogues, newest first. */
  recentAnsweredOf(agentId: string, limit: number): Promise<Turn[]> {
    return this.c.turns
      .find({
        kind: 'dialogue',
        status: 'responded',
        $or: [
          { responderRole: 'ai', responderId: agentId },
          { initiatorRole: 'ai', initiatorId: agentId },
        ],
      })
      .sort({ startedAt: -1, _id: -1 })
      .limit(limit)
      .toArray();
  }
}

const sameIds = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  a?.length === b?.length && (a ?? []).every((id) => b?.includes(id));
