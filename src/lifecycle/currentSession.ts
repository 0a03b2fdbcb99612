// The dialogue session a new turn or message belongs to (SPEC §3): the current one within the
// session gap, else a new one (the old one closed as `timeout` when its gap passed), with its
// idle check scheduled. One place for ingest, the check-in and the operator API; callers hold
// the dialogue's state guard and make the result current with `dialogues.noteActivity`.
import type { Dialogue, PreviousSession, Session } from '../domain/model.js';
import { guardKeys } from '../store/stateGuard.js';
import { decideSession, sessionIdleCheckAt, type SessionDecision } from '../domain/sessionRules.js';
import type { Store } from '../store/store.js';
import type { Scheduler } from './scheduler.js';

export interface SessionDeps {
  store: Store;
  scheduler: Scheduler;
  sessionGapMs: number;
}

export interface CurrentSession {
  session: Session;
  /** A new session was opened (the previous one, if any, is closed). */
  opened: boolean;
}

/** `current`: the dialogue's current session as already read (undefined: read it here). */
export async function currentSessionFor(
  deps: SessionDeps,
  dialogue: Pick<Dialogue, '_id' | 'currentSessionId'>,
  now: Date,
  current?: Session | null,
): Promise<CurrentSession> {
  const { store } = deps;
  const known =
    current !== undefined
      ? current
      : dialogue.currentSessionId
        ? await store.sessions.get(dialogue.currentSessionId)
        : null;
  const decision = decideSession(known, now, deps.sessionGapMs);
  if (decision.action === 'continue' && known) return { session: known, opened: false };
  if (decision.action === 'rollover') {
    const closed = await store.sessions.close(
      { _id: decision.closeSessionId, dialogueId: dialogue._id },
      'timeout',
      decision.closedAt,
    );
    // Its idle check has not run yet (a worker was down, or the message came first): the check
    // due now finds it closed and asks for its summary, as for any session the gap closed.
    if (closed) await deps.scheduler.checkSessionAt(decision.closeSessionId, now);
  }
  return { session: await openSession(deps, dialogue._id, now, previousOf(known, decision)), opened: true };
}

/** The session a gap ended, whose end the new one carries (none for a dialogue's first session). */
function previousOf(known: Session | null, decision: SessionDecision): PreviousSession | undefined {
  if (decision.action === 'rollover') return { sessionId: decision.closeSessionId, endedAt: decision.closedAt };
  if (!known || known.kind !== 'dialogue' || known.closeReason !== 'timeout') return undefined;
  return { sessionId: known._id, endedAt: known.endedAt ?? known.lastActivityAt };
}

/** A new dialogue session with its idle check (its caller makes it the current one). */
export async function openSession(
  deps: SessionDeps,
  dialogueId: string,
  now: Date,
  previous?: PreviousSession,
): Promise<Session> {
  const session = await deps.store.sessions.open(dialogueId, 'dialogue', now, previous);
  await deps.scheduler.checkSessionAt(session._id, sessionIdleCheckAt(now, deps.sessionGapMs));
  return session;
}

/**
 * `/new` and the API's createSession: the current session ends (manual) and a fresh one becomes
 * the dialogue's current session. `current` absent: the dialogue had none open.
 */
export async function startNewSession(
  deps: SessionDeps,
  dialogueId: string,
  current: Pick<Session, '_id' | 'dialogueId'> | undefined,
  at: Date,
): Promise<Session> {
  return deps.store.guard.run(guardKeys.dialogue(dialogueId), async () => {
    if (current) await deps.store.sessions.close(current, 'manual', at);
    const next = await openSession(deps, dialogueId, new Date(at.getTime() + 1));
    await deps.store.dialogues.noteActivity(dialogueId, { at, currentSessionId: next._id, messages: 0 });
    return next;
  });
}
