// Session close after the gap (SPEC §4.4). Activity may have moved the gap since the job was
// scheduled; then the job asks to be run again at the new idle instant. Decided under the
// dialogue's state guard, so a message arriving meanwhile either keeps the session open or
// finds it closed. A session a message already closed after its gap (currentSession.ts) is
// reported closed too, until its summary is written: its summary is due all the same.
import type { Session } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { decideSession, sessionIdleCheckAt } from '../domain/sessionRules.js';
import { guardKeys } from '../store/stateGuard.js';

export type IdleCheck = { kind: 'closed' } | { kind: 'recheck'; at: Date } | { kind: 'nothing' };

export async function closeIdleSession(
  store: Store,
  sessionId: string,
  now: Date,
  sessionGapMs: number,
): Promise<IdleCheck> {
  const seen = await store.sessions.get(sessionId);
  if (!seen) return { kind: 'nothing' };
  if (seen.status === 'closed') return summaryDue(seen) ? { kind: 'closed' } : { kind: 'nothing' };
  return store.guard.run(guardKeys.dialogue(seen.dialogueId), async () => {
    const session = await store.sessions.get(sessionId);
    if (!session || session.status === 'closed') return { kind: 'nothing' };
    const decision = decideSession(session, now, sessionGapMs);
    if (decision.action !== 'rollover')
      return { kind: 'recheck', at: sessionIdleCheckAt(session.lastActivityAt, sessionGapMs) };
    return (await store.sessions.close(session, 'timeout', decision.closedAt))
      ? { kind: 'closed' }
      : { kind: 'nothing' };
  });
}

const summaryDue = (s: Session): boolean => s.closeReason === 'timeout' && s.summary === undefined;
