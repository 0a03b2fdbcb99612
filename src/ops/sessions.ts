// Operator session actions (seed 000's write API: create a session, close a session). A new
// dialogue session is what `/new` does (src/lifecycle/currentSession.ts startNewSession); a closed current
// session is replaced by the dialogue's next message as usual (decideSession: closed → open).
import type { Session, SessionCloseReason, SessionKind } from '../domain/model.js';
import { GatewayError } from '../errors.js';
import { startNewSession } from '../lifecycle/currentSession.js';
import type { OpsDeps } from './opsDeps.js';

type SessionOpsDeps = Pick<OpsDeps, 'store' | 'scheduler' | 'sessionGapMs'>;

/**
 * A dialogue session closes the dialogue's open dialogue session (manual) and becomes its current
 * session. A self-reflection session stands beside it: the conversation carries on where it was.
 */
export async function createSession(
  deps: SessionOpsDeps,
  dialogueId: string,
  kind: SessionKind,
  now: Date,
): Promise<Session> {
  const { store } = deps;
  const dialogue = await store.dialogues.get(dialogueId);
  if (!dialogue) throw new GatewayError('CONVERSATION_NOT_FOUND', `no dialogue with id ${dialogueId}`);
  if (kind === 'self_reflection') return store.sessions.open(dialogue._id, 'self_reflection', now);
  const current = dialogue.currentSessionId ? await store.sessions.get(dialogue.currentSessionId) : null;
  const closing = current?.status === 'open' && current.kind === 'dialogue' ? current : undefined;
  return startNewSession(deps, dialogue._id, closing, now);
}

export async function closeSession(
  deps: Pick<OpsDeps, 'store'>,
  sessionId: string,
  reason: Exclude<SessionCloseReason, 'summarized'>,
  now: Date,
): Promise<Session> {
  const { store } = deps;
  const session = await store.sessions.get(sessionId);
  if (!session) throw new GatewayError('NOT_FOUND', `no session with id ${sessionId}`);
  const closed = () => new GatewayError('BAD_REQUEST', `session ${sessionId} is already closed`);
  if (session.status !== 'open') throw closed();
  if (!(await store.sessions.close(session, reason, now))) throw closed();
  const after = await store.sessions.get(sessionId);
  if (!after) throw new GatewayError('NOT_FOUND', `session ${sessionId} was deleted meanwhile`);
  return after;
}
