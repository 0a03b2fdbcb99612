// Short-lived codes that link a platform identity to a web user (SPEC §12): the web user asks
// for one, then sends `/link CODE` to the bot in a private chat. Kept in Redis with a TTL and
// taken exactly once (GETDEL), so a code read off someone's screen later is worth nothing.
import { randomInt } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Unambiguous letters and digits (no 0/O, 1/I/L), easy to type on a phone. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 8;
export const LINK_CODE_TTL_MS = 10 * 60_000;

export interface LinkCodes {
  /** A new code for this person, valid for LINK_CODE_TTL_MS. */
  issue(humanId: string, at: Date): Promise<{ code: string; expiresAt: Date }>;
  /** Whose code it was; null when unknown, used or expired. Taken once. */
  redeem(code: string): Promise<string | null>;
}

export const normalizeLinkCode = (raw: string) => raw.trim().toUpperCase().replace(/[\s-]/g, '');

export class RedisLinkCodes implements LinkCodes {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(code: string) {
    return `${this.prefix}:link:${code}`;
  }

  async issue(humanId: string, at: Date): Promise<{ code: string; expiresAt: Date }> {
    for (;;) {
      const code = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
      // NX: never hand out a code someone else holds right now.
      if (await this.redis.set(this.key(code), humanId, 'PX', LINK_CODE_TTL_MS, 'NX'))
        return { code, expiresAt: new Date(at.getTime() + LINK_CODE_TTL_MS) };
    }
  }

  async redeem(code: string): Promise<string | null> {
    const c = normalizeLinkCode(code);
    if (!/^[A-Z0-9]{4,16}$/.test(c)) return null;
    return this.redis.getdel(this.key(c));
  }
}
