// One reply in progress per dialogue (SPEC §4.2), across every worker process: a Redis lease
// with a random token, released only by its holder.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class DialogueLock {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs: number,
  ) {}

  /** Returns a release function, or null when another reply of this dialogue is in progress. */
  async acquire(dialogueId: string): Promise<(() => Promise<void>) | null> {
    const key = `${this.prefix}:lock:dialogue:${dialogueId}`;
    const token = randomUUID();
    const ok = await this.redis.set(key, token, 'PX', this.leaseMs, 'NX');
    if (ok !== 'OK') return null;
    return async () => {
      await this.redis.eval(RELEASE, 1, key, token);
    };
  }
}
