// People who use the web channel (SPEC §12). An operator issues each one a bearer token
// `<webUserId>.<secret>`: the user is read by `_id`, the secret compared with its stored SHA-256
// in constant time; the token itself is shown once and never stored (as seats do, seats.ts).
// Issuing again replaces the secret, so a leaked token is revoked by reissuing or revoking.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Collections } from './collections.js';
import { secretHashOf } from './seats.js';
import { newId } from '../domain/ids.js';

export interface WebUser {
  _id: string;
  name: string;
  /** SHA-256 (hex) of the token's secret part. */
  secretHash: string;
  /** Which operator issued it (the token's name in OPS_TOKENS). */
  issuedBy: string;
  revokedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A token as handed out once: the user it opens and the bearer string. */
export interface IssuedWebToken {
  user: WebUser;
  token: string;
}

const newSecret = () => randomBytes(24).toString('base64url');

export class WebUserRepo {
  constructor(private readonly c: Collections) {}

  async issue(o: { name: string; issuedBy: string; at: Date }): Promise<IssuedWebToken> {
    const secret = newSecret();
    const user: WebUser = {
      _id: newId('wus', o.at),
      name: o.name,
      secretHash: secretHashOf(secret),
      issuedBy: o.issuedBy,
      createdAt: o.at,
      updatedAt: o.at,
    };
    await this.c.webUsers.insertOne(user);
    return { user, token: `${user._id}.${secret}` };
  }

  /** A new secret for a known user (the old token stops working); null when unknown. */
  async reissue(id: string, at: Date): Promise<IssuedWebToken | null> {
    const secret = newSecret();
    const user = await this.c.webUsers.findOneAndUpdate(
      { _id: id },
      { $set: { secretHash: secretHashOf(secret), updatedAt: at }, $unset: { revokedAt: '' } },
      { returnDocument: 'after' },
    );
    return user ? { user, token: `${user._id}.${secret}` } : null;
  }

  async revoke(id: string, at: Date): Promise<WebUser | null> {
    return this.c.webUsers.findOneAndUpdate(
      { _id: id },
      { $set: { revokedAt: at, updatedAt: at } },
      { returnDocument: 'after' },
    );
  }

  get(id: string): Promise<WebUser | null> {
    return this.c.webUsers.findOne({ _id: id });
  }

  /** Every web user, newest first (the operator API; a short list). */
  list(limit: number): Promise<WebUser[]> {
    return this.c.webUsers.find({}).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
  }

  /** The user a bearer token opens, or null (unknown, revoked, wrong secret, malformed). */
  async byToken(token: string): Promise<WebUser | null> {
    const dot = token.indexOf('.');
    if (dot <= 0 || !token.startsWith('wus_')) return null;
    const user = await this.get(token.slice(0, dot));
    if (!user || user.revokedAt) return null;
    const given = Buffer.from(secretHashOf(token.slice(dot + 1)), 'hex');
    const stored = Buffer.from(user.secretHash, 'hex');
    return given.length === stored.length && timingSafeEqual(given, stored) ? user : null;
  }
}
