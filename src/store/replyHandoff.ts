// What ingest leaves for the start of the reply it queued, in this process: the turn, its
// dialogue, session and working window exactly as ingest wrote them, so the reply does not read
// them back (four point reads, on the model's path). Valid only for the dialogue guard's very
// next hold: every writer of those documents holds that guard (any process), and every hold takes
// the next generation (stateGuard.ts), so generation g + 1 proves nothing changed since ingest's
// hold g. Anything else — another process's worker, a hold in between, a retry — reads the store.
import type { Dialogue, Session, SessionWindow, Turn } from '../domain/model.js';

/** The documents a reply's start would read, as the hold that wrote them left them. */
export interface PlacedRecord {
  turn: Turn;
  dialogue: Dialogue;
  session: Session;
  window: SessionWindow;
}

interface Left {
  generation: number;
  at: number;
  record: PlacedRecord;
}

export interface ReplyHandoffOptions {
  /** Dialogues remembered at once; the oldest are dropped first. */
  capacity?: number;
  /** Older than this, a record is not taken (a delayed or retried job reads the store). */
  maxAgeMs?: number;
  now?: () => number;
}

export class ReplyHandoff {
  private readonly left = new Map<string, Left>();
  private readonly capacity: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(o: ReplyHandoffOptions = {}) {
    this.capacity = o.capacity ?? 256;
    this.maxAgeMs = o.maxAgeMs ?? 5_000;
    this.now = o.now ?? Date.now;
  }

  /** Called by the holder of the dialogue's guard, generation `generation`, once its writes are stored. */
  leave(generation: number, record: PlacedRecord): void {
    const key = record.dialogue._id;
    this.left.delete(key); // re-inserted: a Map iterates oldest first
    this.left.set(key, { generation, at: this.now(), record });
    if (this.left.size > this.capacity) this.left.delete(this.left.keys().next().value as string);
  }

  /**
   * The record left for `turnId`, if the caller's hold of the dialogue's guard (`generation`,
   * newly acquired) directly follows the hold that left it. Taken once either way.
   */
  take(dialogueId: string, turnId: string, generation: number): PlacedRecord | undefined {
    const left = this.left.get(dialogueId);
    if (!left) return undefined;
    this.left.delete(dialogueId);
    const fresh = this.now() - left.at <= this.maxAgeMs;
    const next = left.generation + 1 === generation;
    return fresh && next && left.record.turn._id === turnId ? left.record : undefined;
  }
}
