// Rounds (seed 002, SPEC §8): in a room with several agents, who is asked to speak and when the
// round ends. Default mode asks every member in order, each may skip; @mentioned agents move to
// the next positions in mention order, cannot skip, and the last one's answer ends the round. Host mode asks only the
// agents the host @mentions; none may skip, and the round ends when all have answered. A member
// that does not answer in time is skipped for it (reason `timeout`). In host mode the host's
// messages start rounds (a human's message to the room asks the host: mentions = [host]). Pure:
// the caller stores the round and asks whoever `nextAsk` names.

export type RoomMode = 'default' | 'host';
/** `failed`: its reply failed (model error, timeout), so the round moves on without it. */
export type SkipReason = 'chose' | 'timeout' | 'left' | 'failed';

export interface Round {
  id: string;
  mode: RoomMode;
  /** The room's agents when the round started: whom a mention can call on. */
  members: string[];
  /** Agents in asking order. */
  queue: string[];
  /** Position of the agent asked now (queue.length: nobody left to ask). */
  index: number;
  /** @mentioned agents: they cannot skip (default mode: the first one's answer ends the round). */
  mustAnswer: string[];
  /** Who was asked, in order (an agent can be asked once per round). */
  asked: string[];
  answers: Array<{ agentId: string; messageId: string; at: Date }>;
  skips: Array<{ agentId: string; reason: SkipReason; at: Date }>;
  completed: boolean;
  endedBy?: 'queue_done' | 'mention_answered' | 'mentions_answered' | 'superseded';
  startedAt: Date;
  completedAt?: Date;
}

export type RoundRefusal = 'NOT_YOUR_TURN' | 'SKIP_NOT_ALLOWED' | 'ROUND_COMPLETED';
export type RoundStep = { ok: true; round: Round } | { ok: false; code: RoundRefusal };

/** Who is asked now and whether it may skip; undefined when the round is over. */
export function nextAsk(round: Round): { agentId: string; canSkip: boolean } | undefined {
  if (round.completed) return undefined;
  const agentId = round.queue[round.index];
  return agentId === undefined ? undefined : { agentId, canSkip: !round.mustAnswer.includes(agentId) };
}

/**
 * A round for a message that addresses the room. Default mode: every member in order, the
 * mentioned ones first. Host mode: the mentioned agents only (no mention: no round).
 */
export function startRound(o: {
  id: string;
  mode: RoomMode;
  members: readonly string[];
  mentions: readonly string[];
  at: Date;
}): Round | undefined {
  const mentioned = uniqueMembers(o.mentions, o.members);
  const queue = o.mode === 'host' ? mentioned : [...mentioned, ...o.members.filter((m) => !mentioned.includes(m))];
  if (queue.length === 0) return undefined;
  return markAsked({
    id: o.id,
    mode: o.mode,
    members: [...o.members],
    queue,
    index: 0,
    mustAnswer: mentioned,
    asked: [],
    answers: [],
    skips: [],
    completed: false,
    startedAt: o.at,
  });
}

/**
 * The agent asked now answered. Agents its answer @mentions are asked next and must answer; in
 * default mode the answer of a mentioned agent ends the round.
 */
export function answered(
  round: Round,
  o: { agentId: string; messageId: string; mentions: readonly string[]; at: Date },
): RoundStep {
  const refusal = turnRefusal(round, o.agentId);
  if (refusal) return { ok: false, code: refusal };
  const next = withMentions(
    { ...round, answers: [...round.answers, { agentId: o.agentId, messageId: o.messageId, at: o.at }] },
    o.mentions,
  );
  // "@A @B …": the round ends with the last mentioned agent's answer, not the first's.
  if (round.mode === 'default' && round.mustAnswer.includes(o.agentId) && !mentionedStillToAsk(next))
    return { ok: true, round: complete(next, 'mention_answered', o.at) };
  return { ok: true, round: advance(next, o.at) };
}

/** Whether a mentioned agent is still to be asked after the one asked now. */
const mentionedStillToAsk = (round: Round): boolean =>
  round.queue.slice(round.index + 1).some((a) => round.mustAnswer.includes(a));

/** The agent asked now skips: by choice (not when mentioned), by timeout, or because it left. */
export function skipped(round: Round, o: { agentId: string; reason: SkipReason; at: Date }): RoundStep {
  const refusal = turnRefusal(round, o.agentId);
  if (refusal) return { ok: false, code: refusal };
  if (o.reason === 'chose' && round.mustAnswer.includes(o.agentId)) return { ok: false, code: 'SKIP_NOT_ALLOWED' };
  const next: Round = { ...round, skips: [...round.skips, { agentId: o.agentId, reason: o.reason, at: o.at }] };
  return { ok: true, round: advance(next, o.at) };
}

/**
 * A member left the room: if it is still to be asked it leaves the queue (and the mentions), and
 * it leaves the round's members, so a later answer's @mention cannot call it back; the one asked
 * now is skipped instead (`skipped` with reason `left`), since its ask is open.
 */
export function withoutMember(round: Round, agentId: string): Round {
  if (round.completed || !round.members.includes(agentId) || nextAsk(round)?.agentId === agentId) return round;
  const queue = [
    ...round.queue.slice(0, round.index + 1),
    ...round.queue.slice(round.index + 1).filter((a) => a !== agentId),
  ];
  return {
    ...round,
    members: round.members.filter((a) => a !== agentId),
    queue,
    mustAnswer: round.mustAnswer.filter((a) => a !== agentId),
  };
}

/** A new message addressed the room before this round finished: it ends here, kept in history. */
export function superseded(round: Round, at: Date): Round {
  return round.completed ? round : complete(round, 'superseded', at);
}

function turnRefusal(round: Round, agentId: string): RoundRefusal | undefined {
  if (round.completed) return 'ROUND_COMPLETED';
  return nextAsk(round)?.agentId === agentId ? undefined : 'NOT_YOUR_TURN';
}

/** Mentioned members not yet asked move to the next position and must answer (seed 002). */
function withMentions(round: Round, mentions: readonly string[]): Round {
  const fresh = uniqueMembers(mentions, round.members).filter((a) => !round.asked.includes(a));
  if (fresh.length === 0) return round;
  const before = round.queue.slice(0, round.index + 1);
  const after = round.queue.slice(round.index + 1).filter((a) => !fresh.includes(a));
  return { ...round, queue: [...before, ...fresh, ...after], mustAnswer: [...round.mustAnswer, ...fresh] };
}

function advance(round: Round, at: Date): Round {
  const next = { ...round, index: round.index + 1 };
  if (next.index < next.queue.length) return markAsked(next);
  return complete(next, round.mode === 'host' ? 'mentions_answered' : 'queue_done', at);
}

function markAsked(round: Round): Round {
  const agentId = round.queue[round.index];
  return agentId === undefined ? round : { ...round, asked: [...round.asked, agentId] };
}

function complete(round: Round, endedBy: NonNullable<Round['endedBy']>, at: Date): Round {
  return { ...round, completed: true, endedBy, completedAt: at };
}

/** The ids in `ids` that are members, once each, in the order given. */
function uniqueMembers(ids: readonly string[], members: readonly string[]): string[] {
  return [...new Set(ids)].filter((id) => members.includes(id));
}
