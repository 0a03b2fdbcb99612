import { describe, expect, it } from 'vitest';
import { ActiveReplies } from '../../src/respond/activeReplies.js';

describe('ActiveReplies', () => {
  it('interrupts the running reply of a dialogue with reason "interrupted"', () => {
    const active = new ActiveReplies();
    const c = new AbortController();
    active.begin('d-1', 't-d-1', c);
    expect(active.interrupt('d-1')).toBe(true);
    expect(c.signal.aborted).toBe(true);
    expect(c.signal.reason).toBe('interrupted');
  });

  it('answers false to a second interrupt of the same reply', () => {
    const active = new ActiveReplies();
    const c = new AbortController();
    active.begin('d-1', 't-d-1', c);
    active.interrupt('d-1');
    expect(active.interrupt('d-1')).toBe(false);
    expect(c.signal.reason).toBe('interrupted');
  });

  it('answers false for a reply already aborted for another reason, and keeps that reason', () => {
    const active = new ActiveReplies();
    const c = new AbortController();
    active.begin('d-1', 't-d-1', c);
    c.abort('timeout');
    expect(active.interrupt('d-1')).toBe(false);
    expect(c.signal.reason).toBe('timeout');
  });

  it('stops a room ask at its deadline with reason "deadline", and only that turn\'s', () => {
    const active = new ActiveReplies();
    const c = new AbortController();
    active.begin('d-1', 't-2', c);
    expect(active.interrupt('d-1', { reason: 'deadline', turnId: 't-1' })).toBe(false);
    expect(c.signal.aborted).toBe(false);
    expect(active.interrupt('d-1', { reason: 'deadline', turnId: 't-2' })).toBe(true);
    expect(c.signal.reason).toBe('deadline');
  });

  it('answers false for a dialogue with no reply running here', () => {
    const active = new ActiveReplies();
    expect(active.interrupt('d-unknown')).toBe(false);
  });

  it('interrupts only the dialogue asked for', () => {
    const active = new ActiveReplies();
    const a = new AbortController();
    const b = new AbortController();
    active.begin('d-a', 't-d-a', a);
    active.begin('d-b', 't-d-b', b);
    expect(active.interrupt('d-a')).toBe(true);
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
  });

  it('forgets a reply once it has ended', () => {
    const active = new ActiveReplies();
    const c = new AbortController();
    const end = active.begin('d-1', 't-d-1', c);
    end();
    expect(active.interrupt('d-1')).toBe(false);
    expect(c.signal.aborted).toBe(false);
  });

  it('does not let an older reply’s end() remove a newer reply of the same dialogue', () => {
    const active = new ActiveReplies();
    const older = new AbortController();
    const newer = new AbortController();
    const endOlder = active.begin('d-1', 't-d-1', older);
    const endNewer = active.begin('d-1', 't-d-1', newer);
    endOlder();
    expect(active.interrupt('d-1')).toBe(true);
    expect(newer.signal.reason).toBe('interrupted');
    expect(older.signal.aborted).toBe(false);
    endNewer();
    expect(active.interrupt('d-1')).toBe(false);
  });

  it('is harmless to call end() twice', () => {
    const active = new ActiveReplies();
    const end = active.begin('d-1', 't-d-1', new AbortController());
    end();
    expect(() => end()).not.toThrow();
    const next = new AbortController();
    active.begin('d-1', 't-d-1', next);
    end();
    expect(active.interrupt('d-1')).toBe(true);
  });
});
