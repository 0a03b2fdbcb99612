// The one config document. Every turn uses it, so an update applies on the next turn in every
// process without a restart; `version` counts the updates. With a shared mark (Redis in the app)
// a process keeps the config it read until an update moves the mark (src/store/markedCache.ts).
import type { Collection } from 'mongodb';
import { MarkedCache, type WriteMark } from './markedCache.js';
import { applyConfigPatch, defaultConfig, readStoredConfig, type GatewayConfig } from '../domain/config.js';
import { configChanges } from '../domain/configDiff.js';
import type { ConfigHistoryRepo } from './configHistory.js';

export const CONFIG_ID = 'gateway';

export interface ConfigDocument {
  _id: string;
  version: number;
  updatedAt: Date;
  updatedBy?: string;
  thresholds?: Record<string, unknown>;
  limits?: Record<string, unknown>;
  preferences?: Record<string, unknown>;
  moderation?: Record<string, unknown>;
  /** Model prices (src/domain/configPricing.ts); empty when none are set. */
  pricing?: unknown;
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
    private readonly history?: ConfigHistoryRepo,
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
    return this.write(next, at, by, 'update');
  }

  /** Restore defaults (seed 001's 恢复默认). */
  reset(at: Date, by?: string): Promise<EffectiveConfig> {
    return this.write(defaultConfig(), at, by, 'reset');
  }

  private async write(
    config: GatewayConfig,
    at: Date,
    by: string | undefined,
    action: 'update' | 'reset',
  ): Promise<EffectiveConfig> {
    // The document as it was before this write, so the history's "old" is what was stored.
    const before = await this.c.findOneAndUpdate(
      { _id: CONFIG_ID },
      {
        $set: { ...config, pricing: config.pricing ?? [], updatedAt: at, ...(by ? { updatedBy: by } : {}) },
        $inc: { version: 1 },
      },
      { upsert: true, returnDocument: 'before' },
    );
    const version = (before?.version ?? 0) + 1;
    await this.cache.written();
    const changes = configChanges(readStoredConfig(before).config, config);
    // The history is a record for people; its failure must not undo or fail the change itself.
    if (this.history && changes.length)
      await this.history.record({ at, by: by ?? null, action, version, changes }).catch(() => undefined);
    return { config, version, updatedAt: at, ignored: [] };
  }
}
