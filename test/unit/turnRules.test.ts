import { describe, expect, it } from 'vitest';
import { turnRecord } from '../support/records.js';
import {
  expiryCheckAt,
  heardIn,
  isExpired,
  joinsTurn,
  missedByReply,
  openTurnFor,
  placedAgain,
  mustAnswerFirst,
  newTurn,
  placeInitiatorMessage,
  pointerBehind,
  respondedFields,
} from '../../src/domain/turnRules.js';
import type { SessionWindow, Turn } from '../../src/domain/model.js';

const THREE_HOURS = 3 * 60 * 60 * 1000;
const startedAt = new Date('2024-05-01T10:00:00.000Z');
const human = { role: 'human' as const, id: 'h-1' };
const agent = { role: 'ai' as const, id: 'a-1' };

const turn = (overrides: Partial<Turn> = {}): Turn => turnRecord({ startedAt, windowMs: THREE_HOURS }, overrides);

describe('placeInitiatorMessage', () => {
  it('opens a turn when there is no open turn', () => {
    expect(placeInitiatorMessage(null, human)).toEqual({ action: 'open' });
  });

  it('joins the pending turn of the same initiator (consecutive messages form one turn)', () => {
    expect(placeInitiatorMessage(turn(), human)).toEqual({ action: 'join', turnId: 't-1' });
  });

  it.each(['responded', 'unresponded'] as const)('opens a new turn when the turn is %s', (status) => {
    expect(placeInitiatorMessage(turn({ status }), human)).toEqual({ action: 'open' });
  });

  it('opens a new turn for a different sender with the same role', () => {
    expect(placeInitiatorMessage(turn(), { role: 'human', id: 'h-2' })).toEqual({ action: 'open' });
  });

  it('opens a new turn for the same id under a different role', () => {
    expect(placeInitiatorMessage(turn(), { role: 'ai', id: 'h-1' })).toEqual({ action: 'open' });
  });

  it('folds a message that arrives while the reply is being generated into the next turn, answered after it', () => {
    const replying = turn({ replyStartedAt: new Date(startedAt.getTime() + 1000) });
    expect(placeInitiatorMessage(replying, human)).toEqual({ action: 'open', after: 't-1' });
  });
});

describe("a message and what its turn's reply read (Turn.heard)", () => {
  const started = new Date(startedAt.getTime() + 1000);

  it('is missed by a reply that started without it, and never by one not started or marked before heard', () => {
    expect(missedByReply(turn({ replyStartedAt: started, heard: ['m-1'] }), 'm-2')).toBe(true);
    expect(missedByReply(turn({ replyStartedAt: started, heard: ['m-1'] }), 'm-1')).toBe(false);
    expect(missedByReply(turn(), 'm-2')).toBe(false);
    expect(missedByReply(turn({ replyStartedAt: started }), 'm-2')).toBe(false);
  });
});

describe('pointerBehind (a dialogue pointer a crash did not move)', () => {
  const later = turn({ _id: 't-2', startedAt: new Date(startedAt.getTime() + 5000) });

  it('lags when it names an older turn or none, never when it names this turn or a newer one', () => {
    expect(pointerBehind(turn(), later)).toBe(true);
    expect(pointerBehind(null, later)).toBe(true);
    expect(pointerBehind(later, later)).toBe(false);
    expect(pointerBehind(later, turn())).toBe(false);
  });
});

describe('mustAnswerFirst (order across crashes)', () => {
  const started = new Date(startedAt.getTime() + 1000);
  it('holds for an earlier AI turn still pending whose reply had started (its worker died)', () => {
    expect(mustAnswerFirst(turn({ replyStartedAt: started }))).toBe(true);
  });
  it.each([
    ['answered', { status: 'responded' as const, replyStartedAt: started }],
    ['expired', { status: 'unresponded' as const, replyStartedAt: started }],
    ['not started', {}],
    ['answered by a human', { responderRole: 'human' as const, replyStartedAt: started }],
  ])('does not hold for one %s', (_what, o) => {
    expect(mustAnswerFirst(turn(o))).toBe(false);
  });
  it('is carried by the new turn', () => {
    const t = newTurn({
      id: 't-2',
      dialogueId: 'd-1',
      sessionId: 's-1',
      initiator: human,
      responder: agent,
      startedAt,
      responseWindowMs: THREE_HOURS,
      after: 't-1',
    });
    expect(t.after).toBe('t-1');
  });
});

describe('placeInitiatorMessage for a turn the AI initiated', () => {
  // The AI spoke first (e.g. a check-in) and waits for h-1 to answer.
  const aiTurn = (overrides: Partial<Turn> = {}) =>
    turn({
      _id: 't-ai',
      initiatorRole: 'ai',
      initiatorId: 'a-1',
      responderRole: 'human',
      responderId: 'h-1',
      ...overrides,
    });

  it('answers the pending AI turn when its expected human responder writes, and opens a turn of its own', () => {
    expect(placeInitiatorMessage(aiTurn(), human)).toEqual({ action: 'open', respondsTo: 't-ai' });
  });

  it('does not answer the AI turn for a different human', () => {
    const placement = placeInitiatorMessage(aiTurn(), { role: 'human', id: 'h-2' });
    expect(placement).toEqual({ action: 'open' });
    expect(placement).not.toHaveProperty('respondsTo');
  });

  it('does not answer it for the right id under another role', () => {
    expect(placeInitiatorMessage(aiTurn(), { role: 'ai', id: 'h-1' })).toEqual({ action: 'open' });
  });

  it.each(['responded', 'unresponded'] as const)(
    'just opens a turn (no respondsTo) when the AI turn is already %s',
    (status) => {
      const placement = placeInitiatorMessage(aiTurn({ status }), human);
      expect(placement).toEqual({ action: 'open' });
      expect(placement).not.toHaveProperty('respondsTo');
    },
  );

  it('never joins a human message into the AI turn', () => {
    expect(placeInitiatorMessage(aiTurn(), human).action).toBe('open');
  });
});

describe('newTurn', () => {
  const input = {
    id: 't-9',
    dialogueId: 'd-1',
    sessionId: 's-1',
    initiator: human,
    responder: agent,
    startedAt,
    responseWindowMs: THREE_HOURS,
  };

  it('is a pending dialogue turn between the initiator and the responder', () => {
    const t = newTurn(input);
    expect(t).toMatchObject({
      _id: 't-9',
      dialogueId: 'd-1',
      sessionId: 's-1',
      kind: 'dialogue',
      initiatorRole: 'human',
      initiatorId: 'h-1',
      responderRole: 'ai',
      responderId: 'a-1',
      status: 'pending',
      responseWindowMs: THREE_HOURS,
    });
    expect(t.startedAt.getTime()).toBe(startedAt.getTime());
    expect(t.replyStartedAt).toBeUndefined();
    expect(t.closedAt).toBeUndefined();
  });

  it('has its deadline at startedAt + the response window (3 h by default)', () => {
    expect(newTurn(input).deadlineAt.toISOString()).toBe('2024-05-01T13:00:00.000Z');
  });

  it('uses the window it is given', () => {
    expect(newTurn({ ...input, responseWindowMs: 1234 }).deadlineAt.getTime()).toBe(startedAt.getTime() + 1234);
  });
});

describe('respondedFields', () => {
  it('closes the turn as responded with the time taken to answer', () => {
    const at = new Date(startedAt.getTime() + 4_500);
    expect(respondedFields({ startedAt }, at)).toEqual({ status: 'responded', closedAt: at, responseTime: 4_500 });
  });

  it('gives a zero response time for an answer at the same instant', () => {
    expect(respondedFields({ startedAt }, startedAt).responseTime).toBe(0);
  });

  it('never gives a negative response time (clock skew)', () => {
    expect(respondedFields({ startedAt }, new Date(startedAt.getTime() - 50)).responseTime).toBe(0);
  });
});

describe('isExpired', () => {
  const deadline = new Date(startedAt.getTime() + THREE_HOURS);

  it('is false before the deadline', () => {
    expect(isExpired(turn(), new Date(deadline.getTime() - 1))).toBe(false);
  });

  it('is false exactly at the deadline', () => {
    expect(isExpired(turn(), deadline)).toBe(false);
  });

  it('is true 1 ms after the deadline', () => {
    expect(isExpired(turn(), new Date(deadline.getTime() + 1))).toBe(true);
  });

  it.each(['responded', 'unresponded'] as const)('is false for a %s turn, however late', (status) => {
    expect(isExpired(turn({ status }), new Date(deadline.getTime() + THREE_HOURS))).toBe(false);
  });
});

describe('expiryCheckAt', () => {
  const t = turn();

  it('is the deadline + 1 ms', () => {
    expect(expiryCheckAt(t).toISOString()).toBe('2024-05-01T13:00:00.001Z');
    expect(expiryCheckAt(t).getTime()).toBe(t.deadlineAt.getTime() + 1);
  });

  it('is the first instant the turn counts as expired', () => {
    expect(isExpired(t, expiryCheckAt(t))).toBe(true);
    expect(isExpired(t, t.deadlineAt)).toBe(false);
  });

  it('follows the turn’s own window', () => {
    const short = newTurn({
      id: 't-2',
      dialogueId: 'd-1',
      sessionId: 's-1',
      initiator: human,
      responder: agent,
      startedAt,
      responseWindowMs: 500,
    });
    expect(expiryCheckAt(short).getTime()).toBe(startedAt.getTime() + 501);
  });

  it('does not change the turn’s deadline', () => {
    const before = t.deadlineAt.getTime();
    expiryCheckAt(t);
    expect(t.deadlineAt.getTime()).toBe(before);
  });
});

describe('the turn boundary shared by ingest, rooms and the reply', () => {
  it('joinsTurn: the initiator joins a pending turn until its reply starts', () => {
    expect(joinsTurn(turn(), human)).toBe(true);
    expect(joinsTurn(turn({ replyStartedAt: startedAt }), human)).toBe(false);
    expect(joinsTurn(turn({ status: 'responded' }), human)).toBe(false);
    expect(joinsTurn(turn(), { role: 'human', id: 'h-2' })).toBe(false);
    expect(joinsTurn(turn(), { role: 'ai', id: 'h-1' })).toBe(false);
  });

  it('openTurnFor: only the latest turn of this session, and never in a session the message opened', () => {
    const latest = turn();
    expect(openTurnFor(latest, { _id: 's-1' }, false)).toBe(latest);
    expect(openTurnFor(latest, { _id: 's-2' }, false)).toBeNull();
    expect(openTurnFor(latest, { _id: 's-1' }, true)).toBeNull();
    expect(openTurnFor(null, { _id: 's-1' }, false)).toBeNull();
  });

  it('placedAgain: a message whose turn was never stored, or whose reply missed it', () => {
    expect(placedAgain(null, 'm-1')).toBe(true);
    expect(placedAgain(undefined, 'm-1')).toBe(false);
    expect(placedAgain(turn({ replyStartedAt: startedAt, heard: ['m-0'] }), 'm-1')).toBe(true);
    expect(placedAgain(turn({ replyStartedAt: startedAt, heard: ['m-1'] }), 'm-1')).toBe(false);
    expect(placedAgain(turn(), 'm-1')).toBe(false);
  });

  it("heardIn: the window's entries of the turn; a room's ask hears a round instead", () => {
    const entry = (id: string, turnId?: string) =>
      ({ _id: id, ...(turnId ? { turnId } : {}) }) as unknown as SessionWindow['entries'][string];
    const window = { entries: { a: entry('a', 't-1'), b: entry('b', 't-2'), c: entry('c'), d: entry('d', 't-1') } };
    expect(heardIn(window, turn())).toEqual(['a', 'd']);
    expect(heardIn(window, turn({ round: { roundId: 'r', fromMessageId: 'a', canSkip: false } }))).toBeUndefined();
  });
});
