import { describe, expect, it } from 'vitest';
import {
  answered,
  nextAsk,
  skipped,
  startRound,
  superseded,
  withoutMember,
  type Round,
  type RoundStep,
} from '../../src/domain/roundRules.js';

const at = new Date('2026-01-01T10:00:00Z');
const members = ['ann', 'bo', 'cy'];
const start = (mentions: string[] = [], mode: 'default' | 'host' = 'default') =>
  startRound({ id: 'rnd-1', mode, members, mentions, at })!;
const ok = (s: RoundStep): Round => {
  if (!s.ok) throw new Error(`refused: ${s.code}`);
  return s.round;
};
const answer = (r: Round, agentId: string, mentions: string[] = []) =>
  answered(r, { agentId, messageId: `msg-${agentId}`, mentions, at });

describe('default mode (round-robin)', () => {
  it('asks every member in order; each may skip; the round completes when the queue is done', () => {
    let r = start();
    expect(nextAsk(r)).toEqual({ agentId: 'ann', canSkip: true });
    r = ok(answer(r, 'ann'));
    expect(nextAsk(r)).toEqual({ agentId: 'bo', canSkip: true });
    r = ok(skipped(r, { agentId: 'bo', reason: 'chose', at }));
    r = ok(answer(r, 'cy'));
    expect(r).toMatchObject({ completed: true, endedBy: 'queue_done', asked: ['ann', 'bo', 'cy'] });
    expect(r.skips).toEqual([{ agentId: 'bo', reason: 'chose', at }]);
    expect(nextAsk(r)).toBeUndefined();
  });

  it('an @mentioned agent is asked first, cannot skip, and its answer ends the round', () => {
    const r = start(['cy']);
    expect(nextAsk(r)).toEqual({ agentId: 'cy', canSkip: false });
    expect(skipped(r, { agentId: 'cy', reason: 'chose', at })).toEqual({ ok: false, code: 'SKIP_NOT_ALLOWED' });
    const done = ok(answer(r, 'cy'));
    expect(done).toMatchObject({ completed: true, endedBy: 'mention_answered', asked: ['cy'] });
  });

  it('"@cy @ann hi": each mentioned agent answers in mention order, neither may skip, the round ends after the last', () => {
    let r = start(['cy', 'ann']);
    expect(r.queue).toEqual(['cy', 'ann', 'bo']);
    expect(nextAsk(r)).toEqual({ agentId: 'cy', canSkip: false });
    r = ok(answer(r, 'cy'));
    expect(r.completed).toBe(false);
    expect(nextAsk(r)).toEqual({ agentId: 'ann', canSkip: false });
    expect(skipped(r, { agentId: 'ann', reason: 'chose', at })).toEqual({ ok: false, code: 'SKIP_NOT_ALLOWED' });
    r = ok(answer(r, 'ann'));
    expect(r).toMatchObject({ completed: true, endedBy: 'mention_answered', asked: ['cy', 'ann'] });
  });

  it('a mentioned agent that mentions another hands it the floor before the round ends', () => {
    let r = ok(answer(start(['cy']), 'cy', ['bo']));
    expect(r.completed).toBe(false);
    expect(nextAsk(r)).toEqual({ agentId: 'bo', canSkip: false });
    r = ok(answer(r, 'bo'));
    expect(r).toMatchObject({ completed: true, endedBy: 'mention_answered', asked: ['cy', 'bo'] });
  });

  it('an agent mentioned in an answer moves to the next position and ends the round when it answers', () => {
    let r = ok(answer(start(), 'ann', ['cy']));
    expect(r.queue).toEqual(['ann', 'cy', 'bo']);
    expect(nextAsk(r)).toEqual({ agentId: 'cy', canSkip: false });
    r = ok(answer(r, 'cy'));
    expect(r).toMatchObject({ completed: true, endedBy: 'mention_answered', asked: ['ann', 'cy'] });
  });

  it('no answer in time is a skip, even for a mentioned agent', () => {
    let r = ok(skipped(start(['bo']), { agentId: 'bo', reason: 'timeout', at }));
    expect(nextAsk(r)?.agentId).toBe('ann');
    r = ok(skipped(r, { agentId: 'ann', reason: 'timeout', at }));
    r = ok(skipped(r, { agentId: 'cy', reason: 'timeout', at }));
    expect(r).toMatchObject({ completed: true, endedBy: 'queue_done' });
    expect(r.skips.map((s) => s.reason)).toEqual(['timeout', 'timeout', 'timeout']);
  });

  it('refuses an answer or skip out of turn, or after the round ended; the round is unchanged', () => {
    const r = start();
    expect(answer(r, 'bo')).toEqual({ ok: false, code: 'NOT_YOUR_TURN' });
    expect(skipped(r, { agentId: 'cy', reason: 'chose', at })).toEqual({ ok: false, code: 'NOT_YOUR_TURN' });
    const done = ok(answer(start(['ann']), 'ann'));
    expect(answer(done, 'bo')).toEqual({ ok: false, code: 'ROUND_COMPLETED' });
    expect(r.answers).toEqual([]);
  });

  it('ignores mentions of non-members and agents already asked in this round', () => {
    const r = ok(answer(start(['zed']), 'ann', ['ann', 'nobody']));
    expect(r.queue).toEqual(['ann', 'bo', 'cy']);
    expect(nextAsk(r)).toEqual({ agentId: 'bo', canSkip: true });
  });

  it('a newer message supersedes an unfinished round, which is kept as ended', () => {
    const r = superseded(start(), at);
    expect(r).toMatchObject({ completed: true, endedBy: 'superseded' });
    expect(superseded(r, new Date(at.getTime() + 1)).completedAt).toEqual(at);
  });
});

describe('host mode', () => {
  it('asks only the mentioned agents, none may skip, and ends when all have answered', () => {
    let r = start(['cy', 'ann'], 'host');
    expect(r.queue).toEqual(['cy', 'ann']);
    expect(nextAsk(r)).toEqual({ agentId: 'cy', canSkip: false });
    expect(skipped(r, { agentId: 'cy', reason: 'chose', at })).toEqual({ ok: false, code: 'SKIP_NOT_ALLOWED' });
    r = ok(answer(r, 'cy'));
    expect(r.completed).toBe(false);
    r = ok(answer(r, 'ann'));
    expect(r).toMatchObject({ completed: true, endedBy: 'mentions_answered', asked: ['cy', 'ann'] });
  });

  it('starts no round when the host mentions nobody', () => {
    expect(startRound({ id: 'rnd-2', mode: 'host', members, mentions: [], at })).toBeUndefined();
  });
});

describe('a member leaving', () => {
  it('leaves the queue when still to be asked, and changes nothing once asked or done', () => {
    const r = startRound({ id: 'r1', mode: 'default', members: ['a', 'b', 'c'], mentions: ['c'], at })!;
    expect(r.queue).toEqual(['c', 'a', 'b']);
    const without = withoutMember(r, 'b');
    expect(without.queue).toEqual(['c', 'a']);
    expect(withoutMember(r, 'c')).toBe(r); // asked now: skipped with reason `left` instead
    const mentionedLater = startRound({ id: 'r2', mode: 'host', members: ['a', 'b'], mentions: ['a', 'b'], at })!;
    expect(withoutMember(mentionedLater, 'b').mustAnswer).toEqual(['a']);
  });

  it('is not called back by a later answer that @mentions it', () => {
    // Default mode: b leaves while a is asked; a's answer names b.
    const r = withoutMember(start([]), 'bo');
    const next = ok(answer(r, 'ann', ['bo']));
    expect(next.queue).toEqual(['ann', 'cy']);
    expect(nextAsk(next)).toEqual({ agentId: 'cy', canSkip: true });
    // Host mode: b was never queued, and the host's answer calls on it.
    const hosted = startRound({ id: 'r3', mode: 'host', members: ['h', 'b', 'c'], mentions: ['h'], at })!;
    const after = ok(answered(withoutMember(hosted, 'b'), { agentId: 'h', messageId: 'm', mentions: ['b', 'c'], at }));
    expect(after.queue).toEqual(['h', 'c']);
  });
});
