// Which memories the nightly consolidation retires as low value (pure): unimportant, never
// recalled, old, and not a kind that is kept regardless (preferences shape every reply;
// summaries stand for many turns). Pruned entries stay stored and come back if restated.
import type { MemoryEntry, MemoryKind } from '../domain/model.js';

export interface PruneRule {
  /** Importance below this is low. */
  minImportance: number;
  /** Only entries stored at least this long ago. */
  minAgeDays: number;
  keepKinds: readonly MemoryKind[];
}

export const DEFAULT_PRUNE_RULE: PruneRule = {
  minImportance: 0.3,
  minAgeDays: 30,
  keepKinds: ['preference', 'summary'],
};

const DAY_MS = 86_400_000;

export function isLowValue(e: MemoryEntry, now: Date, rule: PruneRule = DEFAULT_PRUNE_RULE): boolean {
  return (
    e.status === 'active' &&
    e.importance < rule.minImportance &&
    e.recall.count === 0 &&
    now.getTime() - e.createdAt.getTime() >= rule.minAgeDays * DAY_MS &&
    !rule.keepKinds.includes(e.kind)
  );
}

export function lowValueIds(entries: MemoryEntry[], now: Date, rule: PruneRule = DEFAULT_PRUNE_RULE): string[] {
  return entries.filter((e) => isLowValue(e, now, rule)).map((e) => e._id);
}
