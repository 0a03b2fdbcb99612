// BR-002: a dialogue keeps at most MAX_LIVE_MESSAGES messages in its live record; beyond that,
// its oldest closed sessions are archived (moved to `archivedMessages`), never lost.
import type { Session } from './model.js';

export const MAX_LIVE_MESSAGES = 1000;

export interface SessionLoad {
  _id: string;
  status: Session['status'];
  startedAt: Date;
  /** Live (not yet archived) messages of the session. */
  messageCount: number;
}

/**
 * The sessions to archive, oldest first: the oldest closed sessions whose removal brings the
 * live count to at most `limit`. An open session is never chosen. When archiving every closed
 * session is still not enough, all of them are returned (and nothing more can be done).
 * Sessions without live messages are skipped: moving them would not lower the count.
 */
export function sessionsToArchive(
  sessions: readonly SessionLoad[],
  liveMessageCount: number,
  limit: number = MAX_LIVE_MESSAGES,
): string[] {
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  let live = liveMessageCount;
  if (live <= limit) return [];
  const candidates = sessions
    .filter((s) => s.status === 'closed' && s.messageCount > 0)
    .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const chosen: string[] = [];
  for (const s of candidates) {
    if (live <= limit) break;
    chosen.push(s._id);
    live -= s.messageCount;
  }
  return chosen;
}
