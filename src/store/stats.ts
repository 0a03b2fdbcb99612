// Operating statistics read from this store's own collections (the reads: collectStats.ts).
import type { Collections } from './collections.js';
import { collectStats } from './collectStats.js';
import type { Stats } from '../stats/statsOf.js';
import { collectTimeline } from './statsTimeline.js';
import type { StatsBucket } from '../stats/timeline.js';

export class StatsReader {
  constructor(private readonly c: Collections) {}

  /** Counts, reply latency and token use in [since, until), for everything or one dialogue. */
  collect(window: { since: Date; until: Date; dialogueId?: string }): Promise<Stats> {
    return collectStats(this.c, window);
  }

  /** The same window cut into `buckets` equal parts: tokens and reply latency over time. */
  timeline(window: { since: Date; until: Date; dialogueId?: string; buckets: number }): Promise<StatsBucket[]> {
    return collectTimeline(this.c, window);
  }
}
