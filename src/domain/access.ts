// Who may talk (SPEC §14): the deployment is open to everyone, or only to people and groups let
// in. Pure: the caller has read the person's and the chat's standing and the config's mode.
import { z } from 'zod';

/** An operator's word on a person or a chat; absent means the deployment's mode decides. */
export const ACCESS_STANDINGS = ['allowed', 'blocked'] as const;
export type AccessStanding = (typeof ACCESS_STANDINGS)[number];
export const accessStandingSchema = z.enum(ACCESS_STANDINGS);

export type AccessMode = 'open' | 'allowlist';

/** Why a message reaches no model; each has its own notice and metric label. */
export type RefusalReason = 'not_admitted' | 'blocked' | 'budget' | 'moderation';

export interface AccessInput {
  mode: AccessMode;
  /** The person's standing (`Human.access`). */
  person: AccessStanding | undefined;
  /** The chat's standing (`Dialogue.access`); meaningful for groups. */
  chat: AccessStanding | undefined;
  chatKind: 'private' | 'group';
  /** The web channel's people came in by a token an operator issued: they are let in as such. */
  issuedByOperator: boolean;
}

export type Admission = { admitted: true } | { admitted: false; reason: 'not_admitted' | 'blocked' };

/**
 * Whether a person may be answered here. A blocked person or chat never is, under any mode;
 * under an allowlist a person is let in by their own standing (an invite, an operator), or by
 * talking in a group that was admitted — which never opens their private chats.
 */
export function admission(i: AccessInput): Admission {
  if (i.person === 'blocked' || i.chat === 'blocked') return { admitted: false, reason: 'blocked' };
  if (i.mode === 'open' || i.issuedByOperator || i.person === 'allowed') return { admitted: true };
  if (i.chatKind === 'group' && i.chat === 'allowed') return { admitted: true };
  return { admitted: false, reason: 'not_admitted' };
}

/** Invite codes: short enough to type after /start, from an alphabet without look-alikes. */
export const INVITE_CODE_PATTERN = /^[A-HJ-NP-Za-km-z2-9]{10}$/;

export interface Invite {
  /** The code itself. */
  _id: string;
  maxUses: number;
  /** Who used it, in order (human ids); its length is the uses so far. */
  usedBy: string[];
  expiresAt?: Date;
  revokedAt?: Date;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export type InviteCheck =
  { ok: true } | { ok: false; code: 'INVITE_UNKNOWN' | 'INVITE_EXPIRED' | 'INVITE_USED_UP' | 'INVITE_REVOKED' };

/** Whether `humanId` may enter by this invite now; someone who already used it may use it again. */
export function checkInvite(invite: Invite | null, humanId: string, now: Date): InviteCheck {
  if (!invite) return { ok: false, code: 'INVITE_UNKNOWN' };
  if (invite.usedBy.includes(humanId)) return { ok: true };
  if (invite.revokedAt) return { ok: false, code: 'INVITE_REVOKED' };
  if (invite.expiresAt && invite.expiresAt.getTime() <= now.getTime()) return { ok: false, code: 'INVITE_EXPIRED' };
  if (invite.usedBy.length >= invite.maxUses) return { ok: false, code: 'INVITE_USED_UP' };
  return { ok: true };
}
