// One reflection (or rollback) per agent at a time, across every process: a Redis key per agent
// set with NX and an expiry, holding the run's id. The worker renews it while the run goes on;
// one that dies stops renewing and the lock lapses after a lease. Only the holder frees it.
import type { Redis } from 'ioredis';
import type { ReflectionLock } from '../src/reflection/deps.js';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
// Renews our lock, or takes it again when it lapsed (a run queued longer than a lease); 0 when another holds it.
const RENEW = `local v = redis.call('get', KEYS[1])
if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not v then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

export class RedisReflectionLock implements ReflectionLock {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly leaseMs: number,
  ) {}

  private key(agentId: string): string {
    return `${this.prefix}:lock:reflection:${agentId}`;
  }

  async acquire(agentId: string, holder: string): Promise<boolean> {
    return (await this.redis.set(this.key(agentId), holder, 'PX', this.leaseMs, 'NX')) === 'OK';
  }

  async holder(agentId: string): Promise<string | undefined> {
    return (await this.redis.get(this.key(agentId))) ?? undefined;
  }

  async renew(agentId: string, holder: string): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, this.key(agentId), holder, String(this.leaseMs))) === 1;
  }

  async release(agentId: string, holder: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(agentId), holder);
  }
}
