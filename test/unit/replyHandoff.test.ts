// The reply handoff's own rules, without a store: the next generation only, fresh only, bounded.
import { describe, expect, it } from 'vitest';
import { ReplyHandoff, type PlacedRecord } from '../../src/store/replyHandoff.js';

const record = (dialogueId: string, turnId: string) =>
  ({ turn: { _id: turnId }, dialogue: { _id: dialogueId }, session: {}, window: {} }) as unknown as PlacedRecord;

describe('ReplyHandoff', () => {
  it('is taken by the next generation only', () => {
    const handoff = new ReplyHandoff();
    handoff.leave(7, record('d1', 't1'));
    expect(handoff.take('d1', 't1', 9)).toBeUndefined(); // someone held the guard at 8
    handoff.leave(7, record('d1', 't1'));
    expect(handoff.take('d1', 't1', 8)).toEqual(record('d1', 't1'));
    expect(handoff.take('d1', 't1', 8)).toBeUndefined();
  });

  it('is not taken by a job that comes too late (a delayed or retried reply)', () => {
    let now = 1_000;
    const handoff = new ReplyHandoff({ maxAgeMs: 100, now: () => now });
    handoff.leave(1, record('d1', 't1'));
    now += 101;
    expect(handoff.take('d1', 't1', 2)).toBeUndefined();
  });

  it('forgets the dialogues left longest ago beyond its capacity', () => {
    const handoff = new ReplyHandoff({ capacity: 2 });
    handoff.leave(1, record('a', 'ta'));
    handoff.leave(1, record('b', 'tb'));
    handoff.leave(1, record('c', 'tc'));
    expect(handoff.take('a', 'ta', 2)).toBeUndefined();
    expect(handoff.take('b', 'tb', 2)).toBeDefined();
    expect(handoff.take('c', 'tc', 2)).toBeDefined();
  });
});
