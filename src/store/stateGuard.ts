// The state guard: a short mutual-exclusion lease per dialogue (and per memory scope, per human)
// under which every state transition of the hot path is decided and written by `_id` (SPEC §3
// access rule). It replaces conditional filters such as `{_id, status: 'pending'}`, which
// FerretDB serves by scanning the collection and does not apply atomically either: it reads a
// document, changes it in Go and writes the whole document back, so two unguarded writers of one
// document can lose each other's changes. Holders keep it for a few store round trips only —
// never across an LLM or platform call; a dialogue's deletion, which must exclude every other
// writer, holds it for as long as it runs. Reentrant within one async call chain.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { GatewayError } from '../errors.js';

export interface StateGuard {
  /** Runs `fn` while holding the lease named `key`; waits while another holder has it. */
  run<T>(key: string, fn: (hold: GuardHold) => Promise<T>): Promise<T>;
}

/**
 * One hold of a lease. Every acquisition of a key, by any process, takes the key's next
 * generation, so a holder of generation g + 1 knows that nobody held the key since the
 * holder of g let go — what g's holder wrote and left behind (replyHandoff.ts) is still true.
 */
export interface GuardHold {
  generation: number;
  /** Entered inside a hold of the same key in this call chain: no new acquisition. */
  reentered: boolean;
}

/** Lease names: one per dialogue, memory scope or human. */
export const guardKeys = {
  dialogue: (id: string) => `dlg:${id}`,
  memoryScope: (scopeKey: string) => `mem:${scopeKey}`,
  human: (id: string) => `hum:${id}`,
  agent: (id: string) => `agt:${id}`,
  storyInstances: (id: string) => `sti:${id}`,
};

/** The keys this call chain holds, with the generation of each hold. */
const held = new AsyncLocalStorage<ReadonlyMap<string, number>>();

/** Runs `fn` with `key` marked as held in this call chain (so nested runs do not wait on themselves). */
function holding<T>(key: string, generation: number, fn: (hold: GuardHold) => Promise<T>): Promise<T> {
  const outer = held.getStore() ?? new Map<string, number>();
  return held.run(new Map([...outer, [key, generation]]), () => fn({ generation, reentered: false }));
}

/** A nested run of a key this chain holds: it goes straight on, in the outer hold. */
function reentered(key: string): GuardHold | undefined {
  const generation = held.getStore()?.get(key);
  return generation === undefined ? undefined : { generation, reentered: true };
}

/**
 * Starts work from inside a guarded step that must not count as holding its guards: it may
 * outlive the step, and a guarded write of its own must then wait like anyone else's.
 */
export function outsideGuards<T>(fn: () => T): T {
  return held.exit(fn);
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Takes the lease if free, and with it the key's next generation (0: busy). */
const ACQUIRE = `if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  local g = redis.call('incr', KEYS[2])
  redis.call('pexpire', KEYS[2], ARGV[3])
  return g
end
return 0`;
/** A key's generation counter outlives any hold by far; one idle this long starts again at 1. */
const GENERATION_TTL_MS = 86_400_000;

/** The guard's scripts as commands of the connection: sent by SHA, the source only when Redis lacks it. */
interface GuardCommands {
  rainbowGuardAcquire(lease: string, gen: string, token: string, leaseMs: number, ttlMs: number): Promise<number>;
  rainbowGuardRelease(lease: string, token: string): Promise<number>;
}

function withGuardCommands(redis: Redis): Redis & GuardCommands {
  const r = redis as Redis & Partial<GuardCommands>;
  if (!r.rainbowGuardAcquire) redis.defineCommand('rainbowGuardAcquire', { numberOfKeys: 2, lua: ACQUIRE });
  if (!r.rainbowGuardRelease) redis.defineCommand('rainbowGuardRelease', { numberOfKeys: 1, lua: RELEASE });
  return redis as Redis & GuardCommands;
}

export interface RedisStateGuardOptions {
  prefix: string;
  /** A holder that dies frees the lease after this long. */
  leaseMs?: number;
  /** Longest wait for a busy lease before giving up with DIALOGUE_BUSY. */
  maxWaitMs?: number;
}

/**
 * The guard shared by every process: a Redis key set with NX and a random token. Callers in
 * one process queue for a key here first, so only the head of the queue asks Redis: under
 * contention inside a process nobody polls, and a lease passes to the next caller on the
 * release's own round trip.
 */
export class RedisStateGuard implements StateGuard {
  private readonly leaseMs: number;
  private readonly maxWaitMs: number;
  private readonly redis: Redis & GuardCommands;
  private readonly local = new LocalQueue();

  constructor(
    redis: Redis,
    private readonly o: RedisStateGuardOptions,
  ) {
    this.redis = withGuardCommands(redis);
    this.leaseMs = o.leaseMs ?? 15_000;
    this.maxWaitMs = o.maxWaitMs ?? 30_000;
  }

  async run<T>(key: string, fn: (hold: GuardHold) => Promise<T>): Promise<T> {
    const inner = reentered(key);
    if (inner) return fn(inner);
    const giveUpAt = Date.now() + this.maxWaitMs;
    return this.local.run(key, async () => {
      const redisKey = `${this.o.prefix}:guard:${key}`;
      const token = randomUUID();
      const generation = await this.acquire(redisKey, token, giveUpAt);
      try {
        return await holding(key, generation, fn);
      } finally {
        // Sent, not awaited: the caller's next command (ingest's enqueue, or the next local
        // waiter's acquire) follows it on the same connection, so Redis frees the lease first,
        // one round trip sooner. A failed release lapses by itself; anyone else who asks
        // meanwhile waits as for a busy lease.
        void this.redis.rainbowGuardRelease(redisKey, token).catch(() => undefined);
      }
    });
  }

  /** Waits for the lease (held by another process, or a holder that died); returns the generation of this hold. */
  private async acquire(redisKey: string, token: string, giveUpAt: number): Promise<number> {
    const generationKey = `${redisKey}:gen`;
    for (let pause = 2; ; pause = Math.min(pause * 2, 40)) {
      const args = [token, this.leaseMs, GENERATION_TTL_MS] as const;
      const generation = Number(await this.redis.rainbowGuardAcquire(redisKey, generationKey, ...args));
      if (generation > 0) return generation;
      if (Date.now() > giveUpAt)
        throw new GatewayError('DIALOGUE_BUSY', `state lease ${redisKey} stayed busy for ${this.maxWaitMs} ms`);
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/** Callers of one key in this process, one at a time in arrival order: a promise chain per key. */
class LocalQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** One process only (unit tests, one-off scripts): the local queue alone. */
export class LocalStateGuard implements StateGuard {
  private readonly local = new LocalQueue();
  private readonly generations = new Map<string, number>();

  async run<T>(key: string, fn: (hold: GuardHold) => Promise<T>): Promise<T> {
    const inner = reentered(key);
    if (inner) return fn(inner);
    return this.local.run(key, () => {
      const generation = (this.generations.get(key) ?? 0) + 1;
      this.generations.set(key, generation);
      return holding(key, generation, fn);
    });
  }
}
