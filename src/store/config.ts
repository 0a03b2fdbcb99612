// The one config document. Read on every turn (an _id lookup), so an update applies on the
// next turn in every process without a restart; `version` counts the updates.
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

export class ConfigRepo {
  constructor(private readonly c: Collection<ConfigDocument>) {}

  async get(): Promise<EffectiveConfig> {
    const doc = await this.c.findOne({ _id: CONFIG_ID });
    const { config, ignored } = readStoredConfig(doc);
    return { config, version: doc?.version ?? 0, ignored, ...(doc ? { updatedAt: doc.updatedAt } : {}) };
  }

  /** Validates the patch against the current config (CONFIG_INVALID names each bad field) and stores the result. */
  async update(patch: unknown, at: Date, by?: string): Promise<EffectiveConfig> {
    const current = await this.get();
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
    return { config, version: doc?.version ?? 1, updatedAt: at, ignored: [] };
  }
}
