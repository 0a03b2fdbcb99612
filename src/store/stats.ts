// Operating statistics read from this store's own collections (the reads: collectStats.ts).
import type { Collections } from './collections.js';
import { collectStats, type Stats } from './collectStats.js';

export class StatsReader {
  constructor(private readonly c: Collections) {}

  /** Counts, reply latency and token use in [since, until), for everything or one dialogue. */
  collect(window: { since: Date; until: Date; dialogueId?: string }): Promise<Stats> {
    return collectStats(this.c, window);
  }
}
