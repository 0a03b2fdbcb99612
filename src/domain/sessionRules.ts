// Session rollover (SPEC §3): a dialogue session continues while the gap since its last
// activity is at most the session gap; a longer gap closes it (timeout) and opens a new one.
import type { Session } from './model.js';

export type SessionDecision =
  | { action: 'continue'; sessionId: string }
  | { action: 'open' }
  | { action: 'rollover'; closeSessionId: string; closedAt: Date };

export function decideSession(
  current: Pick<Session, '_id' | 'status' | 'lastActivityAt'> | null,
  now: Date,
  sessionGapMs: number,
): SessionDecision {
  if (!current || current.status === 'closed') return { action: 'open' };
  const gap = now.getTime() - current.lastActivityAt.getTime();
  if (gap > sessionGapMs) {
    // The session ended when its last activity happened, not when we noticed.
    return { action: 'rollover', closeSessionId: current._id, closedAt: current.lastActivityAt };
  }
  return { action: 'continue', sessionId: current._id };
}

/**
 * When an idle session should be looked at again: the first instant its gap is exceeded. A
 * session job that fires earlier (because activity moved the gap) reschedules itself here.
 */
export const sessionIdleCheckAt = (lastActivityAt: Date, sessionGapMs: number): Date =>
  new Date(lastActivityAt.getTime() + sessionGapMs + 1);
