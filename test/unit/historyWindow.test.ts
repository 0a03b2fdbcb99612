import { describe, expect, it } from 'vitest';
import { groupByTurn, selectHistory, splitAtTurn, turnsToFold } from '../../src/domain/historyWindow.js';
import type { Message, Role } from '../../src/domain/model.js';

const t0 = Date.parse('2024-05-01T10:00:00Z');
const at = (minute: number) => new Date(t0 + minute * 60_000);

function msg(id: string, minute: number, turnId: string | undefined, senderRole: Role = 'human'): Message {
  return {
    _id: id,
    dialogueId: 'd',
    sessionId: 's',
    ...(turnId ? { turnId } : {}),
    senderRole,
    senderId: senderRole === 'human' ? 'h' : 'a',
    contentType: 'text',
    content: id,
    mentions: [],
    visible: true,
    createdAt: at(minute),
    updatedAt: at(minute),
  };
}

/** n turns of (human, ai), turn i at minutes 2i and 2i+1. */
const turns = (n: number, from = 0): Message[] =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return [msg(`h${i}`, 2 * i, `t${i}`), msg(`a${i}`, 2 * i + 1, `t${i}`, 'ai')];
  }).flat();

describe('selectHistory', () => {
  const all = turns(5);

  it('shows every message in whole-session mode, even with a summary', () => {
    expect(selectHistory(all, { mode: 'load_all', rollingSummary: { coversUntil: at(6) } }).map((m) => m._id)).toEqual(
      all.map((m) => m._id),
    );
  });

  it('shows only messages at or after the summary boundary in rolling mode', () => {
    expect(selectHistory(all, { mode: 'rolling', rollingSummary: { coversUntil: at(6) } }).map((m) => m._id)).toEqual([
      'h3',
      'a3',
      'h4',
      'a4',
    ]);
  });

  it('shows everything in rolling mode while there is no summary', () => {
    expect(selectHistory(all, { mode: 'rolling' })).toHaveLength(10);
  });

  it('returns the messages oldest first whatever order they came in', () => {
    expect(selectHistory([...all].reverse(), { mode: 'load_all' }).map((m) => m._id)).toEqual(all.map((m) => m._id));
  });
});

describe('groupByTurn', () => {
  it('attaches messages outside any turn to the turn before them', () => {
    const groups = groupByTurn([
      msg('x0', 0, undefined),
      msg('h1', 1, 't1'),
      msg('aside', 2, undefined),
      msg('a1', 3, 't1', 'ai'),
      msg('h2', 4, 't2'),
    ]);
    expect(groups.map((g) => g.map((m) => m._id))).toEqual([['x0'], ['h1', 'aside', 'a1'], ['h2']]);
  });
});

describe('turnsToFold (seed 003: threshold 15, keep 10)', () => {
  const o = { thresholdTurns: 15, keepTurns: 10 };

  it('folds nothing at exactly 15 turns', () => {
    expect(turnsToFold(turns(15), o)).toBeUndefined();
  });

  it('at 16 turns folds the oldest 6 and keeps the last 10 raw', () => {
    const plan = turnsToFold(turns(16), o);
    expect(plan?.turns).toBe(6);
    expect(plan?.fold.map((m) => m._id)).toEqual(turns(6).map((m) => m._id));
    expect(plan?.coversUntil).toEqual(at(12)); // h6, the first kept message
    // Once stored, the raw window is exactly the 10 kept turns.
    const raw = selectHistory(turns(16), { mode: 'rolling', rollingSummary: { coversUntil: plan!.coversUntil } });
    expect(new Set(raw.map((m) => m.turnId)).size).toBe(10);
  });

  it('counts only turns after the previous boundary', () => {
    const all = turns(30);
    // Already folded up to turn 10: 20 raw turns remain → fold 10 more.
    const plan = turnsToFold(all, { ...o, coversUntil: at(20) });
    expect(plan?.turns).toBe(10);
    expect(plan?.fold[0]?._id).toBe('h10');
    expect(plan?.coversUntil).toEqual(at(40));
    // 15 raw turns after the boundary: nothing yet.
    expect(turnsToFold(all, { ...o, coversUntil: at(30) })).toBeUndefined();
  });

  it('groups a multi-message turn as one turn', () => {
    const many = [...turns(15), msg('h15a', 30, 't15'), msg('h15b', 30.5, 't15'), msg('a15', 31, 't15', 'ai')];
    const plan = turnsToFold(many, o);
    expect(plan?.turns).toBe(6);
    expect(plan?.fold.at(-1)?._id).toBe('a5');
  });

  it('keeps the boundary consistent when a folded turn has a message after the first kept one', () => {
    // The reply of turn 5 arrives after turn 6 started: it stays raw rather than being lost.
    const all = [
      ...turns(5),
      msg('h5', 10, 't5'),
      msg('h6', 11, 't6'),
      msg('a5', 11.5, 't5', 'ai'),
      ...turns(10, 7).map((m) => ({ ...m, createdAt: new Date(m.createdAt.getTime() + 60_000) })),
    ];
    const plan = turnsToFold(all, { thresholdTurns: 15, keepTurns: 11 });
    expect(plan).toBeDefined();
    expect(plan!.fold.every((m) => m.createdAt < plan!.coversUntil)).toBe(true);
    const raw = selectHistory(all, { mode: 'rolling', rollingSummary: { coversUntil: plan!.coversUntil } });
    expect(raw.length + plan!.fold.length).toBe(all.length);
    expect(plan!.fold.map((m) => m._id)).toContain('h5');
    expect(raw.map((m) => m._id).slice(0, 2)).toEqual(['h6', 'a5']);
  });
});

describe('splitAtTurn (the turn boundary of a prompt)', () => {
  const ids = (ms: Message[]) => ms.map((m) => m._id);

  it('takes the turn’s human messages as input and everything before it as history', () => {
    const all = [...turns(2), msg('h2', 4, 't2'), msg('h2b', 5, 't2'), msg('r2', 4.5, 't2', 'ai')];
    const { history, input } = splitAtTurn(all, 't2', 'r2');
    expect(ids(input)).toEqual(['h2', 'h2b']);
    expect(ids(history)).toEqual(['h0', 'a0', 'h1', 'a1']);
  });

  it('leaves out a later turn’s messages, even those stored before the read (a retried reply)', () => {
    const all = [
      ...turns(1),
      msg('h1', 2, 't1'),
      msg('ctx', 2.5, undefined),
      msg('h1b', 3, 't1'),
      msg('h2', 4, 't2'),
      msg('late', 5, undefined),
    ];
    const { history, input } = splitAtTurn(all, 't1');
    expect(ids(input)).toEqual(['h1', 'h1b']);
    // Group chatter between the turn's own messages is context; what follows the turn is not.
    expect(ids(history)).toEqual(['h0', 'a0', 'ctx']);
  });

  it('shows the whole history to a turn with no human input (an AI-initiated check-in)', () => {
    const { history, input } = splitAtTurn([...turns(2), msg('c', 4, 'tc', 'ai')], 'tc', 'c');
    expect(input).toEqual([]);
    expect(ids(history)).toEqual(['h0', 'a0', 'h1', 'a1']);
  });
});
