// The port through which the core asks for delayed work (SPEC §4.4). jobs/timers.ts
// implements it with BullMQ delayed jobs, which live in Redis and survive process restarts.
export interface Scheduler {
  /** Check the turn's response window at `at` (pending → unresponded). */
  expireTurnAt(turnId: string, at: Date): Promise<void>;
  /** Check whether the session has gone idle at `at` (close it, or look again later). */
  checkSessionAt(sessionId: string, at: Date): Promise<void>;
  /** Consider a proactive check-in at `at`, if nothing happened in the dialogue since `since`. */
  checkInAt(dialogueId: string, since: Date, at: Date): Promise<void>;
  /** A room's ask (SPEC §8): skip the agent at `at` if it has not started answering. */
  roomAnswerDueAt(turnId: string, at: Date): Promise<void>;
}
