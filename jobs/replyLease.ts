// One reply in progress per dialogue (SPEC §4.2), across every worker process: a Redis lease
// with a random token, renewed while the reply runs, released only by its holder. A worker
// that dies stops renewing, so its lease lapses within one lease period.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ReplyLease } from '../src/domain/replyLease.js';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export class RedisReplyLease implements ReplyLease {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs: number,
  ) {}

  /** Whether someone holds the dialogue's lease right now. */
  async isHeld(dialogueId: string): Promise<boolean> {
    return (await this.redis.exists(`${this.prefix}:lock:dialogue:${dialogueId}`)) === 1;
  }

  /** Returns a release function, or null when another reply of this dialogue is in progress. */
  async acquire(dialogueId: string): Promise<(() => Promise<void>) | null> {
    const key = `${this.prefix}:lock:dialogue:${dialogueId}`;
    const token = randomUUID();
    const ok = await this.redis.set(key, token, 'PX', this.leaseMs, 'NX');
    if (ok !== 'OK') return null;
    const renew = setInterval(
      () => {
        this.redis.eval(RENEW, 1, key, token, String(this.leaseMs)).catch(() => {});
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    return async () => {
      clearInterval(renew);
      await this.redis.eval(RELEASE, 1, key, token);
    };
  }
}
