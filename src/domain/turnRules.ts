// Turn lifecycle (SPEC §3, seed 000): consecutive initiator messages join the open turn until
// the responder starts answering; the responder's message closes it as responded.
import type { Role, Turn } from './model.js';

export type TurnPlacement = { action: 'join'; turnId: string } | { action: 'open' };

export function placeInitiatorMessage(
  openTurn: Pick<Turn, '_id' | 'status' | 'initiatorRole' | 'initiatorId' | 'replyStartedAt'> | null,
  sender: { role: Role; id: string },
): TurnPlacement {
  if (
    openTurn &&
    openTurn.status === 'pending' &&
    openTurn.initiatorRole === sender.role &&
    openTurn.initiatorId === sender.id &&
    // A message that arrives while the reply is being generated is folded into the next turn.
    !openTurn.replyStartedAt
  ) {
    return { action: 'join', turnId: openTurn._id };
  }
  return { action: 'open' };
}

export interface NewTurnInput {
  id: string;
  dialogueId: string;
  sessionId: string;
  initiator: { role: Role; id: string };
  responder: { role: Role; id: string };
  startedAt: Date;
  responseWindowMs: number;
}

export function newTurn(input: NewTurnInput): Turn {
  return {
    _id: input.id,
    dialogueId: input.dialogueId,
    sessionId: input.sessionId,
    kind: 'dialogue',
    initiatorRole: input.initiator.role,
    initiatorId: input.initiator.id,
    responderRole: input.responder.role,
    responderId: input.responder.id,
    startedAt: input.startedAt,
    responseWindowMs: input.responseWindowMs,
    deadlineAt: new Date(input.startedAt.getTime() + input.responseWindowMs),
    status: 'pending',
  };
}

/** The fields a responder's message sets on a pending turn. */
export function respondedFields(turn: Pick<Turn, 'startedAt'>, at: Date): Pick<Turn, 'status' | 'closedAt' | 'responseTime'> {
  return { status: 'responded', closedAt: at, responseTime: Math.max(0, at.getTime() - turn.startedAt.getTime()) };
}

/** True when a pending turn has passed its response window (exactly at the deadline it has not). */
export function isExpired(turn: Pick<Turn, 'status' | 'deadlineAt'>, now: Date): boolean {
  return turn.status === 'pending' && now.getTime() > turn.deadlineAt.getTime();
}
