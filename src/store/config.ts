// The one config document. Every turn uses it, so an update applies on the next turn in every
// process without a restart; `version` counts the updates. With a shared mark (Redis in the app)
// a process keeps the config it read until an update moves the mark: one Redis GET per use
// instead of a store read. A write that bypasses the mark (an edit by hand in the database) is
// seen within `maxAgeMs`.
import type { Collection } from 'mongodb';
import { applyConfigPatch, defaultConfig, readStoredConfig, type GatewayConfig } from '../domain/config.js';

export const CONFIG_ID = 'gateway';

export interface ConfigDocument {
  _id: string;
  version: number;
  updatedAt: Date;
  updatedBy?: string;
  thresholds?: Record<string, unknown>;
  limits?: Record<string, unknown>;
  preferences?: Record<string, unknown>;
}

export interface EffectiveConfig {
  config: GatewayConfig;
  version: number;
  updatedAt?: Date;
  /** Stored fields that were invalid and replaced by their defaults. */
  ignored: string[];
}

/** Moves on every config write; shared by every process (src/store/redisConfigMark.ts). */
export interface ConfigMark {
  /** The current mark; null before the first write this mark has seen. */
  read(): Promise<string | null>;
  /** A new mark that no process has cached under. */
  move(): Promise<void>;
}

export class ConfigRepo {
  private cached: { mark: string | null; value: EffectiveConfig; at: number } | undefined;

  constructor(
    private readonly c: Collection<ConfigDocument>,
    private readonly mark?: ConfigMark,
    private readonly maxAgeMs = 5_000,
  ) {}

  /** The current config (frozen: shared by every caller until the next write). */
  async get(): Promise<EffectiveConfig> {
    if (!this.mark) return this.read();
    const mark = await this.mark.read();
    const c = this.cached;
    if (c?.mark === mark && Date.now() - c.at < this.maxAgeMs) return c.value;
    // Read after the mark: a write landing meanwhile moves the mark again, so it is not missed.
    const at = Date.now();
    const value = await this.read();
    this.cached = { mark, value, at };
    return value;
  }

  private async read(): Promise<EffectiveConfig> {
    const doc = await this.c.findOne({ _id: CONFIG_ID });
    const { config, ignored } = readStoredConfig(doc);
    return deepFreeze({ config, version: doc?.version ?? 0, ignored, ...(doc ? { updatedAt: doc.updatedAt } : {}) });
  }

  /** Validates the patch against the current config (CONFIG_INVALID names each bad field) and stores the result. */
  async update(patch: unknown, at: Date, by?: string): Promise<EffectiveConfig> {
    const current = await this.read();
    const next = applyConfigPatch(current.config, patch);
    return this.write(next, at, by);
  }

  /** Restore defaults (seed 001's 恢复默认). */
  reset(at: Date, by?: string): Promise<EffectiveConfig> {
    return this.write(defaultConfig(), at, by);
  }

  private async write(config: GatewayConfig, at: Date, by?: string): Promise<EffectiveConfig> {
    const doc = await this.c.findOneAndUpdate(
      { _id: CONFIG_ID },
      { $set: { ...config, updatedAt: at, ...(by ? { updatedBy: by } : {}) }, $inc: { version: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    this.cached = undefined;
    await this.mark?.move();
    return { config, version: doc?.version ?? 1, updatedAt: at, ignored: [] };
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
