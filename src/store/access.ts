// Who may talk (SPEC §14), as stored: invite codes, and the operator's word on a person (their
// standing and daily quota) or a chat. Every hot-path read and write is by `_id`; a code is
// redeemed under its own guard, so a single-use invite admits exactly one person.
import { randomInt } from 'node:crypto';
import type { Document } from 'mongodb';
import type { Collections } from './collections.js';
import type { StateGuard } from './stateGuard.js';
import { checkInvite, type AccessStanding, type Invite, type InviteCheck } from '../domain/access.js';
import type { Dialogue, Human } from '../domain/model.js';

/** Letters and digits without the look-alikes (0/O, 1/l/I), as people type a code from a screen. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const newCode = (): string => Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** Sets one field, or removes it when the value is undefined (back to the deployment's default). */
const setOrUnset = (field: string, value: unknown, at: Date): Document =>
  value === undefined
    ? { $set: { updatedAt: at }, $unset: { [field]: '' } }
    : { $set: { [field]: value, updatedAt: at } };

/** Most invites the console lists (newest first). */
const LISTED_INVITES = 500;

export class AccessRepo {
  constructor(
    private readonly c: Collections,
    private readonly guard: StateGuard,
  ) {}

  async createInvite(o: { maxUses: number; expiresAt?: Date; createdBy: string; at: Date }): Promise<Invite> {
    const invite: Invite = {
      _id: newCode(),
      maxUses: o.maxUses,
      usedBy: [],
      ...(o.expiresAt ? { expiresAt: o.expiresAt } : {}),
      createdBy: o.createdBy,
      createdAt: o.at,
      updatedAt: o.at,
    };
    await this.c.invites.insertOne(invite);
    return invite;
  }

  getInvite(code: string): Promise<Invite | null> {
    return this.c.invites.findOne({ _id: code });
  }

  /** The console's list (off the hot path). */
  listInvites(): Promise<Invite[]> {
    return this.c.invites.find({}).sort({ createdAt: -1 }).limit(LISTED_INVITES).toArray();
  }

  async revokeInvite(code: string, at: Date): Promise<Invite | null> {
    return this.c.invites.findOneAndUpdate(
      { _id: code },
      { $set: { revokedAt: at, updatedAt: at } },
      { returnDocument: 'after' },
    );
  }

  /**
   * Lets `humanId` in by the code, when it is still good: the use is recorded and the person's
   * standing set to allowed. Under the invite's guard, so two people racing for its last use
   * cannot both get it.
   */
  redeem(code: string, humanId: string, at: Date): Promise<InviteCheck> {
    return this.guard.run(`inv:${code}`, async () => {
      const invite = await this.getInvite(code);
      const check = checkInvite(invite, humanId, at);
      if (!check.ok || !invite || invite.usedBy.includes(humanId)) return check;
      await this.c.invites.updateOne({ _id: code }, { $set: { usedBy: [...invite.usedBy, humanId], updatedAt: at } });
      await this.c.humans.updateOne({ _id: humanId }, { $set: { access: 'allowed', updatedAt: at } });
      return check;
    });
  }

  /** An operator's word on a person; `undefined` goes back to the deployment's mode. */
  setHumanAccess(humanId: string, access: AccessStanding | undefined, at: Date): Promise<Human | null> {
    return this.c.humans.findOneAndUpdate({ _id: humanId }, setOrUnset('access', access, at), {
      returnDocument: 'after',
    });
  }

  /** A person's own daily token quota; `undefined` goes back to `limits.person_daily_tokens`. */
  setHumanQuota(humanId: string, dailyTokens: number | undefined, at: Date): Promise<Human | null> {
    return this.c.humans.findOneAndUpdate({ _id: humanId }, setOrUnset('dailyTokens', dailyTokens, at), {
      returnDocument: 'after',
    });
  }

  /** An operator's (or an admitted person's `/allow`) word on a chat. */
  setChatAccess(dialogueId: string, access: AccessStanding | undefined, at: Date): Promise<Dialogue | null> {
    return this.c.dialogues.findOneAndUpdate({ _id: dialogueId }, setOrUnset('access', access, at), {
      returnDocument: 'after',
    });
  }
}
