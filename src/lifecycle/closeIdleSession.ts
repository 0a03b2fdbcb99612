// Session close after the gap (SPEC §4.4). Activity may have moved the gap since the job was
// scheduled; then the job asks to be run again at the new idle instant.
import type { Store } from '../store/store.js';
import { decideSession, sessionIdleCheckAt } from '../domain/sessionRules.js';

export type IdleCheck = { kind: 'closed' } | { kind: 'recheck'; at: Date } | { kind: 'nothing' };

export async function closeIdleSession(store: Store, sessionId: string, now: Date, sessionGapMs: number): Promise<IdleCheck> {
  const session = await store.sessions.get(sessionId);
  if (!session || session.status === 'closed') return { kind: 'nothing' };
  const decision = decideSession(session, now, sessionGapMs);
  if (decision.action !== 'rollover') return { kind: 'recheck', at: sessionIdleCheckAt(session.lastActivityAt, sessionGapMs) };
  return (await store.sessions.close(sessionId, 'timeout', decision.closedAt)) ? { kind: 'closed' } : { kind: 'nothing' };
}
