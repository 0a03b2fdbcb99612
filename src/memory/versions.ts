// Cross-process freshness of the per-process memory indexes: one counter per scope in Redis and
// a short log of which entries each bump changed. Writers bump after any write, naming the ids
// they touched; a reader compares the counter with the version its index was loaded at (one GET
// per recall) and, when it moved, re-reads exactly the logged ids by `_id` (SPEC §3 access rule).
// A bump without ids (a deletion of many entries), or a log that no longer reaches back to the
// reader's version, makes the reader reload the scope.
import type { Redis } from 'ioredis';

export interface MemoryScope {
  ownerId: string;
  /** The human the memories are about; absent: every memory of the owner. */
  subjectId?: string;
}

export const scopeKey = (s: MemoryScope): string => `${s.ownerId}\u001f${s.subjectId ?? ''}`;

/** The entries changed between two versions, or `reload` when that cannot be told. */
export type Changes = string[] | 'reload';

export interface MemoryVersions {
  /** Current version ('0' before any write). */
  get(scope: MemoryScope): Promise<string>;
  /** Marks a write of these entries (none given: the whole scope may have changed); returns the new version. */
  bump(scope: MemoryScope, ids?: readonly string[]): Promise<string>;
  /** The ids changed after version `from` up to `to`. */
  changes(scope: MemoryScope, from: string, to: string): Promise<Changes>;
}

/** Log entries kept per scope: a reader further behind reloads its scope. */
export const CHANGE_LOG_KEEP = 256;
const ALL = '*';

/** The owner-wide scope is bumped with every subject scope (indexes over all of an owner's memories). */
const scopesOf = (s: MemoryScope): MemoryScope[] => (s.subjectId === undefined ? [s] : [s, { ownerId: s.ownerId }]);

/** Reads a change log (entries `version|id,id…`) between two versions. */
export function changesFromLog(log: readonly string[], from: number, to: number): Changes {
  const ids = new Set<string>();
  const seen = new Set<number>();
  for (const line of log) {
    const bar = line.indexOf('|');
    const v = Number(line.slice(0, bar));
    if (!(v > from && v <= to)) continue;
    seen.add(v);
    for (const id of line.slice(bar + 1).split(',')) {
      if (id === ALL) return 'reload';
      if (id) ids.add(id);
    }
  }
  // Every bump in between must be in the log; a missing one (trimmed away) hides its ids.
  return seen.size === to - from ? [...ids] : 'reload';
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

  private logKey(s: MemoryScope): string {
    return `${this.key(s)}:log`;
  }

  async get(scope: MemoryScope): Promise<string> {
    return (await this.redis.get(this.key(scope))) ?? '0';
  }

  async bump(scope: MemoryScope, ids?: readonly string[]): Promise<string> {
    const listed = ids && ids.length > 0 ? ids.join(',') : ALL;
    let version = '0';
    for (const s of scopesOf(scope)) {
      const v = await this.redis.incr(this.key(s));
      await this.redis
        .multi()
        .rpush(this.logKey(s), `${v}|${listed}`)
        .ltrim(this.logKey(s), -CHANGE_LOG_KEEP, -1)
        .exec();
      if (s === scope) version = String(v);
    }
    return version;
  }

  async changes(scope: MemoryScope, from: string, to: string): Promise<Changes> {
    return changesFromLog(await this.redis.lrange(this.logKey(scope), 0, -1), Number(from), Number(to));
  }
}

/** Single-process stand-in (benchmarks, one-off scripts): versions live in this process only. */
export class LocalMemoryVersions implements MemoryVersions {
  private readonly v = new Map<string, number>();
  private readonly logs = new Map<string, string[]>();

  get(scope: MemoryScope): Promise<string> {
    return Promise.resolve(String(this.v.get(scopeKey(scope)) ?? 0));
  }

  bump(scope: MemoryScope, ids?: readonly string[]): Promise<string> {
    let version = '0';
    for (const s of scopesOf(scope)) {
      const n = (this.v.get(scopeKey(s)) ?? 0) + 1;
      this.v.set(scopeKey(s), n);
      const log = [...(this.logs.get(scopeKey(s)) ?? []), `${n}|${ids && ids.length > 0 ? ids.join(',') : ALL}`];
      this.logs.set(scopeKey(s), log.slice(-CHANGE_LOG_KEEP));
      if (s === scope) version = String(n);
    }
    return Promise.resolve(version);
  }

  changes(scope: MemoryScope, from: string, to: string): Promise<Changes> {
    return Promise.resolve(changesFromLog(this.logs.get(scopeKey(scope)) ?? [], Number(from), Number(to)));
  }
}
