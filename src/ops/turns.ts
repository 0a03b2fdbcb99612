// Operator turn actions (seed 000's write API: open a turn, close a turn) over the pure rules of
// src/domain/turnRules.ts. A turn opened here expires like any other (its window is scheduled);
// one the AI must answer is queued for a reply at once, as ingest does for a human's message.
import { z } from 'zod';
import type { Turn } from '../domain/model.js';
import { expiryCheckAt, newTurn } from '../domain/turnRules.js';
import { newId } from '../domain/ids.js';
import { guardKeys } from '../store/stateGuard.js';
import { GatewayError } from '../errors.js';
import type { OpsDeps } from './opsDeps.js';
import { turnPartiesProblem, type TurnParty } from './turnParties.js';
import { parseInput } from './input.js';

/** One minute to one week: a window outside that is a typo, not a plan. */
export const MAX_RESPONSE_WINDOW_MINUTES = 7 * 24 * 60;

const party = z.object({
  role: z.enum(['human', 'ai', 'system']),
  id: z.string().trim().min(1, 'must not be empty').max(200),
});
const openTurnInput = z.object({
  sessionId: z.string().min(1),
  initiator: party,
  responder: party,
  responseWindowMinutes: z.number().int().min(1).max(MAX_RESPONSE_WINDOW_MINUTES).optional(),
});

export interface OpenTurnInput {
  sessionId: string;
  initiator: TurnParty;
  responder: TurnParty;
  responseWindowMinutes?: number | undefined;
}

export async function openTurn(
  deps: Pick<OpsDeps, 'store' | 'scheduler' | 'responseWindowMs' | 'enqueueReply'>,
  raw: OpenTurnInput,
  now: Date,
): Promise<Turn> {
  const input = parseInput(openTurnInput, raw);
  const { store } = deps;
  const session = await store.sessions.get(input.sessionId);
  if (!session) throw new GatewayError('NOT_FOUND', `no session with id ${input.sessionId}`);
  if (session.status !== 'open')
    throw new GatewayError(
      'BAD_REQUEST',
      `session ${session._id} is closed (${session.closeReason ?? 'closed'}); turns open only in an open session`,
    );
  const dialogue = await store.dialogues.get(session.dialogueId);
  if (!dialogue)
    throw new GatewayError('CONVERSATION_NOT_FOUND', `session ${session._id} belongs to no stored dialogue`);
  const problem = turnPartiesProblem(dialogue, input.initiator, input.responder);
  if (problem) throw new GatewayError('BAD_REQUEST', problem);
  // One pending turn per session (turnRules: a new message joins or answers it).
  const pending = await store.turns.openIn(session._id);
  if (pending)
    throw new GatewayError(
      'BAD_REQUEST',
      `session ${session._id} already has a pending turn (${pending._id}); close it first`,
    );

  const turn: Turn = {
    ...newTurn({
      id: newId('trn', now),
      dialogueId: dialogue._id,
      sessionId: session._id,
      initiator: input.initiator,
      responder: input.responder,
      startedAt: now,
      responseWindowMs:
        input.responseWindowMinutes !== undefined ? input.responseWindowMinutes * 60_000 : deps.responseWindowMs,
    }),
    ...(session.kind === 'self_reflection' ? { kind: 'introspection' as const } : {}),
  };
  await store.guard.run(guardKeys.dialogue(dialogue._id), async () => {
    await store.turns.insert(turn);
    await Promise.all([
      store.sessions.touch(session, now, { messages: 0, turns: 1 }),
      store.dialogues.setOpenTurn(dialogue._id, turn._id),
      deps.scheduler.expireTurnAt(turn._id, expiryCheckAt(turn)),
    ]);
  });
  if (turn.responderRole === 'ai') await deps.enqueueReply({ turnId: turn._id, dialogueId: turn.dialogueId });
  return turn;
}

export async function closeTurn(
  deps: Pick<OpsDeps, 'store'>,
  turnId: string,
  status: 'responded' | 'unresponded',
  now: Date,
): Promise<Turn> {
  const { store } = deps;
  const turn = await store.turns.get(turnId);
  if (!turn) throw new GatewayError('NOT_FOUND', `no turn with id ${turnId}`);
  const notPending = () =>
    new GatewayError(
      'BAD_REQUEST',
      `turn ${turnId} is already ${turn.status === 'pending' ? 'closed' : turn.status}; only a pending turn can be closed`,
    );
  if (turn.status !== 'pending') throw notPending();
  // Conditional on pending, like the reply and the expiry: whoever closes it first wins.
  const closed =
    status === 'responded'
      ? await store.turns.closeResponded(turn, now, {})
      : // The window ends now: an unresponded turn's closedAt is when its window ended.
        await store.turns.expire({ _id: turn._id, dialogueId: turn.dialogueId, deadlineAt: now });
  if (!closed) throw notPending();
  const after = await store.turns.get(turnId);
  if (!after) throw new GatewayError('NOT_FOUND', `turn ${turnId} was deleted meanwhile`);
  return after;
}
