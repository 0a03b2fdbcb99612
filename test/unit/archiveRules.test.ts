import { describe, expect, it } from 'vitest';
import { MAX_LIVE_MESSAGES, sessionsToArchive, type SessionLoad } from '../../src/domain/archiveRules.js';

const base = Date.UTC(2024, 4, 1);
const s = (id: string, status: SessionLoad['status'], hour: number, messageCount: number): SessionLoad => ({
  _id: id,
  status,
  startedAt: new Date(base + hour * 3_600_000),
  messageCount,
});
const total = (sessions: SessionLoad[]) => sessions.reduce((n, x) => n + x.messageCount, 0);

describe('sessionsToArchive', () => {
  it('defaults to a limit of 1000', () => {
    expect(MAX_LIVE_MESSAGES).toBe(1000);
  });

  it('archives nothing at exactly 1000 live messages', () => {
    const sessions = [s('a', 'closed', 0, 400), s('b', 'closed', 1, 300), s('c', 'open', 2, 300)];
    expect(total(sessions)).toBe(1000);
    expect(sessionsToArchive(sessions, 1000)).toEqual([]);
  });

  it('archives nothing below the limit', () => {
    expect(sessionsToArchive([s('a', 'closed', 0, 10)], 10)).toEqual([]);
  });

  it('at 1001 archives the oldest closed session of 5, and only it', () => {
    const sessions = [s('old', 'closed', 0, 5), s('mid', 'closed', 1, 500), s('cur', 'open', 2, 496)];
    expect(total(sessions)).toBe(1001);
    expect(sessionsToArchive(sessions, 1001)).toEqual(['old']);
  });

  it('takes as many oldest closed sessions as needed, in startedAt order, whatever the input order', () => {
    const sessions = [
      s('c3', 'closed', 3, 100),
      s('open', 'open', 4, 700),
      s('c1', 'closed', 1, 100),
      s('c2', 'closed', 2, 100),
    ];
    // 1000 + 150 over: c1 (100) is not enough, c1 + c2 (200) is.
    expect(sessionsToArchive(sessions, 1150)).toEqual(['c1', 'c2']);
  });

  it('breaks a startedAt tie by id', () => {
    const sessions = [s('b', 'closed', 0, 50), s('a', 'closed', 0, 50), s('open', 'open', 1, 1000)];
    expect(sessionsToArchive(sessions, 1100)).toEqual(['a', 'b']);
  });

  it('never chooses the open session, even when it is the oldest', () => {
    const sessions = [s('open', 'open', 0, 900), s('c1', 'closed', 1, 200)];
    expect(sessionsToArchive(sessions, 1100)).toEqual(['c1']);
    expect(sessionsToArchive([s('open', 'open', 0, 1500)], 1500)).toEqual([]);
  });

  it('archives every closed session and stops when that is still not enough', () => {
    const sessions = [s('c2', 'closed', 2, 20), s('c1', 'closed', 1, 30), s('open', 'open', 3, 1200)];
    expect(sessionsToArchive(sessions, 1250)).toEqual(['c1', 'c2']);
  });

  it('skips closed sessions without live messages (already archived)', () => {
    const sessions = [s('done', 'closed', 0, 0), s('c1', 'closed', 1, 10), s('open', 'open', 2, 1000)];
    expect(sessionsToArchive(sessions, 1010)).toEqual(['c1']);
  });

  it('counts live messages outside the listed sessions toward the limit', () => {
    expect(sessionsToArchive([s('c1', 'closed', 0, 10), s('c2', 'closed', 1, 10)], 1015)).toEqual(['c1', 'c2']);
  });

  it('honours a custom limit and rejects a bad one', () => {
    const sessions = [s('c1', 'closed', 0, 3), s('c2', 'closed', 1, 3), s('open', 'open', 2, 4)];
    expect(sessionsToArchive(sessions, 10, 5)).toEqual(['c1', 'c2']);
    expect(sessionsToArchive(sessions, 10, 7)).toEqual(['c1']);
    expect(() => sessionsToArchive(sessions, 10, -1)).toThrow(RangeError);
    expect(() => sessionsToArchive(sessions, 10, 1.5)).toThrow(RangeError);
  });

  it('does not reorder the caller’s array', () => {
    const sessions = [s('c2', 'closed', 2, 600), s('c1', 'closed', 1, 600)];
    sessionsToArchive(sessions, 1200);
    expect(sessions.map((x) => x._id)).toEqual(['c2', 'c1']);
  });
});
