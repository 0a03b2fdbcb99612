// Turn lifecycle (SPEC §3, seed 000): consecutive initiator messages join the open turn until
// the responder starts answering; the responder's message closes it as responded.
import type { Role, Session, SessionWindow, Turn } from './model.js';

/**
 * The turn a new message of this session may join or answer: the dialogue's latest turn, when it
 * is this session's. A new session starts afresh (its first message always opens a turn).
 */
export function openTurnFor(
  latestTurn: Turn | null,
  session: Pick<Session, '_id'>,
  sessionOpened: boolean,
): Turn | null {
  return !sessionOpened && latestTurn?.sessionId === session._id ? latestTurn : null;
}

/**
 * Whether `sender`'s message joins this turn rather than opening the next: the turn is still
 * pending, its reply has not started (that mark closes the turn to newcomers: beginReply.ts),
 * and the sender is the one who opened it. Ordinary turns and a room's asks alike.
 */
export function joinsTurn(
  turn: Pick<Turn, 'status' | 'initiatorRole' | 'initiatorId' | 'replyStartedAt'>,
  sender: { role: Role; id: string },
): boolean {
  return turn.status === 'pending' && !turn.replyStartedAt && isInitiator(turn, sender);
}

/** Whether `sender` opened this turn. */
const isInitiator = (turn: Pick<Turn, 'initiatorRole' | 'initiatorId'>, sender: { role: Role; id: string }) =>
  turn.initiatorRole === sender.role && turn.initiatorId === sender.id;

/**
 * Where a new message of `sender` goes. `respondsTo` names a pending turn that this message
 * answers (an AI-initiated turn waiting for this human): that turn closes as responded, and
 * the message still opens a turn of its own for the AI to answer.
 */
export type TurnPlacement =
  | { action: 'join'; turnId: string }
  /** `after`: the earlier turn still being answered, which must be answered first (Turn.after). */
  | { action: 'open'; respondsTo?: string; after?: string };

export function placeInitiatorMessage(
  openTurn: Pick<
    Turn,
    '_id' | 'status' | 'initiatorRole' | 'initiatorId' | 'responderRole' | 'responderId' | 'replyStartedAt'
  > | null,
  sender: { role: Role; id: string },
): TurnPlacement {
  if (!openTurn || openTurn.status !== 'pending') return { action: 'open' };
  if (joinsTurn(openTurn, sender)) return { action: 'join', turnId: openTurn._id };
  // A message that arrives while the reply is being generated is folded into the next turn.
  if (isInitiator(openTurn, sender)) return { action: 'open', after: openTurn._id };
  if (openTurn.responderRole === sender.role && openTurn.responderId === sender.id) {
    return { action: 'open', respondsTo: openTurn._id };
  }
  return { action: 'open' };
}

/**
 * Whether a stored message of this turn was left out of its reply: the reply started without it
 * (the message was stored, its window entry lost with the server). It is placed again, as a
 * message arriving after the reply began would be. Turns marked before `heard` existed: never.
 */
export function missedByReply(turn: Pick<Turn, 'replyStartedAt' | 'heard'>, messageId: string): boolean {
  return turn.replyStartedAt !== undefined && turn.heard !== undefined && !turn.heard.includes(messageId);
}

/**
 * Whether a stored message must be placed again, as if new (ingest's orphan rule): its turn was
 * never stored (`null`), or its turn's reply started without it (`missedByReply`). `undefined`:
 * it names no turn, and stays where it is.
 */
export function placedAgain(
  turn: Pick<Turn, 'replyStartedAt' | 'heard'> | null | undefined,
  messageId: string,
): boolean {
  if (turn === null) return true;
  return turn !== undefined && missedByReply(turn, messageId);
}

/**
 * The turn's messages a reply's read holds (Turn.heard, which `missedByReply` checks): the
 * window's entries of this turn. A room's ask reads a round, not a turn: undefined.
 */
export function heardIn(
  window: Pick<SessionWindow, 'entries'>,
  turn: Pick<Turn, '_id' | 'round'>,
): string[] | undefined {
  if (turn.round) return undefined;
  return Object.values(window.entries)
    .filter((e) => e.turnId === turn._id)
    .map((e) => e._id);
}

/**
 * Whether the dialogue's turn pointer lags behind this pending turn: the crash that cut the
 * turn's message off its other writes lost the pointer's move. The next message must find this
 * turn, or its own would not wait for this one's reply (Turn.after).
 */
export function pointerBehind(
  pointed: Pick<Turn, '_id' | 'startedAt'> | null,
  turn: Pick<Turn, '_id' | 'startedAt'>,
): boolean {
  if (pointed?._id === turn._id) return false;
  return !pointed || pointed.startedAt.getTime() < turn.startedAt.getTime();
}

export interface NewTurnInput {
  id: string;
  dialogueId: string;
  sessionId: string;
  initiator: { role: Role; id: string };
  responder: { role: Role; id: string };
  startedAt: Date;
  responseWindowMs: number;
  /** The earlier turn still being answered when this one opened. */
  after?: string;
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
    ...(input.after ? { after: input.after } : {}),
  };
}

/**
 * Per-dialogue order (seed 000; issue 16's crash rule): a turn's reply may start only once the
 * turn it came after is answered. Found still pending with its reply started while the reply
 * lease is free, that earlier reply died with its worker: it is finished first, so every message
 * is answered once and in order, however the jobs were retried.
 */
export const mustAnswerFirst = (earlier: Pick<Turn, 'status' | 'responderRole' | 'replyStartedAt'>): boolean =>
  earlier.status === 'pending' && earlier.responderRole === 'ai' && earlier.replyStartedAt !== undefined;

/** The fields a responder's message sets on a pending turn. */
export function respondedFields(
  turn: Pick<Turn, 'startedAt'>,
  at: Date,
): Pick<Turn, 'status' | 'closedAt' | 'responseTime'> {
  return { status: 'responded', closedAt: at, responseTime: Math.max(0, at.getTime() - turn.startedAt.getTime()) };
}

/** When a pending turn's expiry should be checked: the first instant it counts as expired. */
export const expiryCheckAt = (turn: Pick<Turn, 'deadlineAt'>): Date => new Date(turn.deadlineAt.getTime() + 1);

/** True when a pending turn has passed its response window (exactly at the deadline it has not). */
export function isExpired(turn: Pick<Turn, 'status' | 'deadlineAt'>, now: Date): boolean {
  return turn.status === 'pending' && now.getTime() > turn.deadlineAt.getTime();
}

type TurnSides = Pick<Turn, 'initiatorRole' | 'initiatorId' | 'responderRole' | 'responderId'>;

/**
 * The AI of a turn, whichever side it is on: the one who answers, or who opened a check-in.
 * Between two AIs (a room's agents talking among themselves) it is the one who answers.
 */
export function turnAgentId(turn: TurnSides): string | undefined {
  if (turn.responderRole === 'ai') return turn.responderId;
  return turn.initiatorRole === 'ai' ? turn.initiatorId : undefined;
}

/** The human of a turn, whichever side it is on. */
export function turnHumanId(turn: TurnSides): string | undefined {
  if (turn.initiatorRole === 'human') return turn.initiatorId;
  return turn.responderRole === 'human' ? turn.responderId : undefined;
}

/** The AI of a turn an AI message is produced for; a turn without one cannot have that message. */
export function requireTurnAgent(turn: TurnSides & Pick<Turn, '_id'>): string {
  const agentId = turnAgentId(turn);
  if (!agentId) throw new Error(`turn ${turn._id} has no AI side`);
  return agentId;
}
