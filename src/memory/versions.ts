// Cross-process freshness of the per-process memory indexes: one counter per scope in Redis.
// Writers bump it after any write; a reader compares it with the version its index was loaded
// at (one GET per recall) and refreshes incrementally when it moved.
import type { Redis } from 'ioredis';

export interface MemoryScope {
  ownerId: string;
  /** The human the memories are about; absent: every memory of the owner. */
  subjectId?: string;
}

export const scopeKey = (s: MemoryScope): string => `${s.ownerId}\u001f${s.subjectId ?? ''}`;

export interface MemoryVersions {
  /** Current version ('0' before any write). */
  get(scope: MemoryScope): Promise<string>;
  /** Marks a write; returns the new version. */
  bump(scope: MemoryScope): Promise<string>;
}

export class RedisMemoryVersions implements MemoryVersions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'rainbow:',
  ) {}

  // No expiry: an expired counter would restart at 1 and could equal a stale cached version.
  private key(s: MemoryScope): string {
    return `${this.prefix}memv:${encodeURIComponent(s.ownerId)}:${encodeURIComponent(s.subjectId ?? '*')}`;
  }

  async get(scope: MemoryScope): Promise<string> {
    return (await this.redis.get(this.key(scope))) ?? '0';
  }

  /** Also bumps the owner-wide version, which indexes over all of the owner's memories read. */
  async bump(scope: MemoryScope): Promise<string> {
    if (scope.subjectId === undefined) return String(await this.redis.incr(this.key(scope)));
    const r = await this.redis.multi().incr(this.key(scope)).incr(this.key({ ownerId: scope.ownerId })).exec();
    const [err, value] = r?.[0] ?? [new Error('redis MULTI returned nothing'), null];
    if (err) throw err;
    return String(value);
  }
}

/** Single-process stand-in (benchmarks, one-off scripts): versions live in this process only. */
export class LocalMemoryVersions implements MemoryVersions {
  private readonly v = new Map<string, number>();
  get(scope: MemoryScope): Promise<string> {
    return Promise.resolve(String(this.v.get(scopeKey(scope)) ?? 0));
  }
  bump(scope: MemoryScope): Promise<string> {
    if (scope.subjectId !== undefined) this.incr({ ownerId: scope.ownerId });
    return Promise.resolve(String(this.incr(scope)));
  }
  private incr(scope: MemoryScope): number {
    const n = (this.v.get(scopeKey(scope)) ?? 0) + 1;
    this.v.set(scopeKey(scope), n);
    return n;
  }
}
