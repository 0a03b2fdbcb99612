// The config's write mark in Redis: a random token per write, never a counter, so a Redis that
// restarts empty cannot hand out a mark a process already cached under (null ≠ any token).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ConfigMark } from './config.js';

export class RedisConfigMark implements ConfigMark {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    dbName: string,
  ) {
    this.key = `${prefix}:config:mark:${dbName}`;
  }

  read(): Promise<string | null> {
    return this.redis.get(this.key);
  }

  async move(): Promise<void> {
    await this.redis.set(this.key, randomUUID());
  }
}
