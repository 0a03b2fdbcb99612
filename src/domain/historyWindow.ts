// Which raw messages the prompt shows (SPEC §5, seed 003 rolling summary; seed 001 whole-session
// mode), and which ones the rolling-summary job folds next. Pure.
import type { Message, RollingSummary } from './model.js';

export type HistoryMode = 'rolling' | 'load_all';

const chronological = (a: Message, b: Message) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/**
 * The raw messages to show: whole-session mode shows all of them; rolling mode shows those
 * created at or after the summary's `coversUntil` (the rest is in the summary), or all of them
 * while there is no summary yet. Oldest first.
 */
export function selectHistory(
  sessionMessages: readonly Message[],
  o: { mode: HistoryMode; rollingSummary?: Pick<RollingSummary, 'coversUntil'> },
): Message[] {
  const sorted = [...sessionMessages].sort(chronological);
  if (o.mode === 'load_all' || !o.rollingSummary) return sorted;
  const from = o.rollingSummary.coversUntil.getTime();
  return sorted.filter((m) => m.createdAt.getTime() >= from);
}

/**
 * Messages grouped by turn, in order. A message outside any turn (a group message nobody
 * addressed, a notice) belongs with the turn before it; leading ones form their own group.
 */
export function groupByTurn(messages: readonly Message[]): Message[][] {
  const groups: Message[][] = [];
  const byTurn = new Map<string, Message[]>();
  let last: Message[] | undefined;
  for (const m of [...messages].sort(chronological)) {
    if (m.turnId) {
      let g = byTurn.get(m.turnId);
      if (!g) {
        g = [];
        byTurn.set(m.turnId, g);
        groups.push(g);
      }
      g.push(m);
      last = g;
    } else if (last) {
      last.push(m);
    } else {
      last = [m];
      groups.push(last);
    }
  }
  return groups;
}

export interface FoldPlan {
  /** The raw messages to fold into the rolling summary, oldest first. */
  fold: Message[];
  /** The new `coversUntil`: the first message of the oldest turn kept raw. */
  coversUntil: Date;
  /** How many turns `fold` holds (for `RollingSummary.turnsFolded`). */
  turns: number;
}

/**
 * Seed 003 rolling summary: when the raw part (messages at/after `coversUntil`) holds more than
 * `thresholdTurns` turns, fold all but the last `keepTurns`. Undefined when nothing is due.
 * `fold` is exactly the raw messages created before the new `coversUntil`, so it agrees with
 * `selectHistory` once the summary is stored.
 */
export function turnsToFold(
  messages: readonly Message[],
  o: { thresholdTurns: number; keepTurns: number; coversUntil?: Date },
): FoldPlan | undefined {
  const raw = selectHistory(messages, {
    mode: 'rolling',
    ...(o.coversUntil ? { rollingSummary: { coversUntil: o.coversUntil } } : {}),
  });
  const groups = groupByTurn(raw);
  if (groups.length <= o.thresholdTurns) return undefined;
  const keep = Math.max(0, Math.min(o.keepTurns, groups.length));
  const kept = groups.slice(groups.length - keep);
  const firstKept = kept
    .flat()
    .reduce<Date | undefined>((min, m) => (!min || m.createdAt < min ? m.createdAt : min), undefined);
  // keepTurns 0 folds everything: the new boundary is just after the last raw message.
  const coversUntil = firstKept ?? new Date(Math.max(...raw.map((m) => m.createdAt.getTime())) + 1);
  const fold = raw.filter((m) => m.createdAt < coversUntil);
  if (fold.length === 0) return undefined;
  const turns = groupByTurn(fold).length;
  return { fold, coversUntil, turns };
}

/**
 * The turn boundary of a prompt: the turn's own human messages (`input`), and the history before
 * the turn (`history`). Nothing of a later turn enters either, even when it is already stored (a
 * retried reply, a window read after newer messages arrived): after the turn's first message only
 * messages outside every turn (group context, notices) up to its last message count as history —
 * and every message of a turn that began before this one, its reply included even when that reply
 * is dated later (a retried reply is dated by its last read; issue 35).
 * `messages`: the session's conversation, oldest first. `excludeId`: the reply being written.
 */
export function splitAtTurn<M extends Message>(
  messages: readonly M[],
  turnId: string,
  excludeId?: string,
): { history: M[]; input: M[] } {
  const own = messages.filter((m) => m.turnId === turnId && m._id !== excludeId);
  const input = own.filter((m) => m.senderRole === 'human');
  const first = own[0];
  const lastInput = input.at(-1);
  const earlier = first ? turnsBegunBefore(messages, first) : new Set<string>();
  const history = messages.filter((m) => {
    if (m._id === excludeId || m.turnId === turnId) return false;
    if (!first || chronological(m, first) < 0) return true;
    if (m.turnId !== undefined) return earlier.has(m.turnId);
    return lastInput !== undefined && chronological(m, lastInput) < 0;
  });
  return { history, input };
}

/** Turns whose first message comes before `first`: they began before its turn. */
function turnsBegunBefore(messages: readonly Message[], first: Message): Set<string> {
  const turns = new Set<string>();
  for (const m of messages) if (m.turnId && chronological(m, first) < 0) turns.add(m.turnId);
  return turns;
}

/**
 * A room's ask (SPEC §8): its input is everything said since the message that started its round
 * (the human's words and the answers of the agents asked before it), its history what came
 * before. Asks of a round run one at a time, so nothing of a later ask is stored yet.
 */
export function splitFromMessage<M extends Message>(
  messages: readonly M[],
  fromId: string,
  excludeId?: string,
): { history: M[]; input: M[] } {
  const from = messages.find((m) => m._id === fromId);
  const kept = messages.filter((m) => m._id !== excludeId);
  if (!from) return { history: kept, input: [] };
  return {
    history: kept.filter((m) => chronological(m, from) < 0),
    input: kept.filter((m) => chronological(m, from) >= 0 && m.visible),
  };
}
