// SPEC §14's access rules, pure: who is let in under each mode, and whether an invite still admits.
import { describe, expect, it } from 'vitest';
import { admission, checkInvite, type Invite } from '../../src/domain/access.js';

const base = {
  mode: 'allowlist',
  person: undefined,
  chat: undefined,
  chatKind: 'private',
  issuedByOperator: false,
} as const;

describe('admission', () => {
  it('lets everyone in when open, except the blocked', () => {
    expect(admission({ ...base, mode: 'open' })).toEqual({ admitted: true });
    expect(admission({ ...base, mode: 'open', person: 'blocked' })).toEqual({ admitted: false, reason: 'blocked' });
    expect(admission({ ...base, mode: 'open', chatKind: 'group', chat: 'blocked' })).toEqual({
      admitted: false,
      reason: 'blocked',
    });
  });

  it('under an allowlist admits a person let in, the web channel’s people, and members of an admitted group', () => {
    expect(admission(base)).toEqual({ admitted: false, reason: 'not_admitted' });
    expect(admission({ ...base, person: 'allowed' })).toEqual({ admitted: true });
    expect(admission({ ...base, issuedByOperator: true })).toEqual({ admitted: true });
    expect(admission({ ...base, chatKind: 'group', chat: 'allowed' })).toEqual({ admitted: true });
  });

  it('an admitted group never opens a private chat; a blocked person stays out of an admitted group', () => {
    expect(admission({ ...base, chatKind: 'private', chat: 'allowed' })).toEqual({
      admitted: false,
      reason: 'not_admitted',
    });
    expect(admission({ ...base, chatKind: 'group', chat: 'allowed', person: 'blocked' })).toEqual({
      admitted: false,
      reason: 'blocked',
    });
  });
});

describe('checkInvite', () => {
  const now = new Date('2026-12-01T10:00:00Z');
  const invite = (o: Partial<Invite> = {}): Invite => ({
    _id: 'ABCDEFGHJK',
    maxUses: 1,
    usedBy: [],
    createdBy: 'ops',
    createdAt: now,
    updatedAt: now,
    ...o,
  });

  it('admits until used up, expired or withdrawn; whoever used it may use it again', () => {
    expect(checkInvite(invite(), 'h1', now)).toEqual({ ok: true });
    expect(checkInvite(invite({ usedBy: ['h1'] }), 'h2', now)).toEqual({ ok: false, code: 'INVITE_USED_UP' });
    expect(checkInvite(invite({ usedBy: ['h1'] }), 'h1', now)).toEqual({ ok: true });
    expect(checkInvite(invite({ expiresAt: now }), 'h1', now)).toEqual({ ok: false, code: 'INVITE_EXPIRED' });
    expect(checkInvite(invite({ expiresAt: new Date(now.getTime() + 1) }), 'h1', now)).toEqual({ ok: true });
    expect(checkInvite(invite({ revokedAt: now }), 'h1', now)).toEqual({ ok: false, code: 'INVITE_REVOKED' });
    expect(checkInvite(null, 'h1', now)).toEqual({ ok: false, code: 'INVITE_UNKNOWN' });
  });
});
