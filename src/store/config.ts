// The one config document. Every turn uses it, so an update applies on the next turn in every
// process without a restart; `version` counts the updates. With a shared mark (Redis in the app)
// a process keeps the config it read until an update moves the mark (src/store/markedCache.ts).
import type { Collection } from 'mongodb';
import { MarkedCache, type WriteMark } from './markedCache.js';
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

export class ConfigRepo {
  private readonly cache: MarkedCache<EffectiveConfig>;

  constructor(
    private readonly c: Collection<ConfigDocument>,
    mark?: WriteMark,
    maxAgeMs?: number,
  ) {
    this.cache = new MarkedCache(mark, maxAgeMs);
  }

  /** The current config (frozen: shared by every caller until the next write). */
  get(): Promise<EffectiveConfig> {
    return this.cache.get(CONFIG_ID, () => this.read());
  }

  private async read(): Promise<EffectiveConfig> {
    const doc = await this.c.findOne({ _id: CONFIG_ID });
    const { config, ignored } = readStoredConfig(doc);
    return { config, version: doc?.version ?? 0, ignored, ...(doc ? { updatedAt: doc.updatedAt } : {}) };
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
    await this.cache.written();
    return { config, version: doc?.version ?? 1, updatedAt: at, ignored: [] };
  }
}
