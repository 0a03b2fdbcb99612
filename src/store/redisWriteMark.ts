// A write mark in Redis (src/store/markedCache.ts): a random token per write, never a counter, so
// a Redis that restarts empty cannot hand out a mark a process already cached under (null ≠ any
// token). One key per kind of document: the config, the agents.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { WriteMark } from './markedCache.js';

export type MarkedKind = 'config' | 'agents';

export class RedisWriteMark implements WriteMark {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    o: { prefix: string; dbName: string; kind: MarkedKind },
  ) {
    this.key = `${o.prefix}:${o.kind}:mark:${o.dbName}`;
  }

  read(): Promise<string | null> {
    return this.redis.get(this.key);
  }

  async move(): Promise<void> {
    await this.redis.set(this.key, randomUUID());
  }
}
