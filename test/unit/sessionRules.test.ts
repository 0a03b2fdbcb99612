import { describe, expect, it } from 'vitest';
import { decideSession, sessionIdleCheckAt } from '../../src/domain/sessionRules.js';
import type { Session } from '../../src/domain/model.js';

const HOUR = 60 * 60 * 1000;
const lastActivityAt = new Date('2024-05-01T10:00:00.000Z');

function session(status: Session['status']): Pick<Session, '_id' | 'status' | 'lastActivityAt'> {
  return { _id: 'sess-1', status, lastActivityAt };
}

const after = (ms: number) => new Date(lastActivityAt.getTime() + ms);

describe('decideSession', () => {
  it('opens a session when there is none', () => {
    expect(decideSession(null, after(0), HOUR)).toEqual({ action: 'open' });
  });

  it('opens a new session when the current one is closed, even if it was just active', () => {
    expect(decideSession(session('closed'), after(1), HOUR)).toEqual({ action: 'open' });
  });

  it('continues an open session right after its last activity', () => {
    expect(decideSession(session('open'), after(1), HOUR)).toEqual({ action: 'continue', sessionId: 'sess-1' });
  });

  it('continues when the gap is exactly the session gap (1 h)', () => {
    expect(decideSession(session('open'), after(HOUR), HOUR)).toEqual({ action: 'continue', sessionId: 'sess-1' });
  });

  it('rolls over at 1 h + 1 ms, closing the old session at its last activity', () => {
    const decision = decideSession(session('open'), after(HOUR + 1), HOUR);
    expect(decision).toEqual({ action: 'rollover', closeSessionId: 'sess-1', closedAt: lastActivityAt });
  });

  it('closes at the last activity, not at the time the rollover was noticed', () => {
    const decision = decideSession(session('open'), after(5 * 24 * HOUR), HOUR);
    expect(decision.action).toBe('rollover');
    if (decision.action === 'rollover') expect(decision.closedAt.getTime()).toBe(lastActivityAt.getTime());
  });

  it('uses the gap it is given, not a fixed hour', () => {
    expect(decideSession(session('open'), after(HOUR), HOUR - 1).action).toBe('rollover');
    expect(decideSession(session('open'), after(2 * HOUR), 2 * HOUR).action).toBe('continue');
  });
});

describe('sessionIdleCheckAt', () => {
  it('is the last activity + the gap + 1 ms', () => {
    expect(sessionIdleCheckAt(lastActivityAt, HOUR).toISOString()).toBe('2024-05-01T11:00:00.001Z');
    expect(sessionIdleCheckAt(lastActivityAt, 5_000).getTime()).toBe(lastActivityAt.getTime() + 5_001);
  });

  it('is the first instant decideSession rolls the session over; 1 ms earlier it continues', () => {
    const checkAt = sessionIdleCheckAt(lastActivityAt, HOUR);
    expect(decideSession(session('open'), checkAt, HOUR)).toEqual({
      action: 'rollover',
      closeSessionId: 'sess-1',
      closedAt: lastActivityAt,
    });
    expect(decideSession(session('open'), new Date(checkAt.getTime() - 1), HOUR)).toEqual({
      action: 'continue',
      sessionId: 'sess-1',
    });
  });

  it('agrees with decideSession for a non-default gap', () => {
    const gap = 90_000;
    const checkAt = sessionIdleCheckAt(lastActivityAt, gap);
    expect(decideSession(session('open'), checkAt, gap).action).toBe('rollover');
    expect(decideSession(session('open'), new Date(checkAt.getTime() - 1), gap).action).toBe('continue');
  });
});
