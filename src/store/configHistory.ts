// Who changed the config, when, and what (field, old → new): one document per write, ids sorting
// by time, bounded to the newest KEEP entries. Written and pruned by `_id` only.
import type { Collection } from 'mongodb';
import { newId } from '../domain/ids.js';
import type { ConfigChange } from '../domain/configDiff.js';

export const CONFIG_HISTORY_KEEP = 50;

export interface ConfigHistoryEntry {
  _id: string;
  at: Date;
  /** The operator's name from their token (never the token). */
  by: string | null;
  action: 'update' | 'reset';
  /** The config version this write produced. */
  version: number;
  changes: ConfigChange[];
}

export class ConfigHistoryRepo {
  constructor(
    private readonly c: Collection<ConfigHistoryEntry>,
    private readonly keep = CONFIG_HISTORY_KEEP,
  ) {}

  async record(e: Omit<ConfigHistoryEntry, '_id'>): Promise<void> {
    await this.c.insertOne({ _id: newId('cfh', e.at), ...e });
    // Older entries past the bound go; a write racing this one at worst leaves one extra.
    const old = await this.c
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .skip(this.keep)
      .toArray();
    if (old.length) await this.c.deleteMany({ _id: { $in: old.map((d) => d._id) } });
  }

  /** Newest first. */
  list(limit = this.keep): Promise<ConfigHistoryEntry[]> {
    return this.c.find({}).sort({ _id: -1 }).limit(Math.min(limit, this.keep)).toArray();
  }
}
