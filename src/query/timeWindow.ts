// Time windows of API filters (pure). `since` is inclusive, `until` exclusive, so adjacent
// windows never count a record twice. Invalid windows are the caller's mistake: BAD_REQUEST.
import { GatewayError } from '../errors.js';

export interface TimeWindow {
  since?: Date | null;
  until?: Date | null;
}

export const DAY_MS = 86_400_000;

/** since after until can match nothing and is almost always swapped arguments. */
export function checkWindow(w: TimeWindow): { since?: Date; until?: Date } {
  if (w.since && w.until && w.since.getTime() > w.until.getTime()) {
    throw new GatewayError(
      'BAD_REQUEST',
      `since (${w.since.toISOString()}) must not be after until (${w.until.toISOString()})`,
    );
  }
  return { ...(w.since ? { since: w.since } : {}), ...(w.until ? { until: w.until } : {}) };
}

/** A Mongo range condition on one date field, or nothing when the window is open on both ends. */
export function windowCondition(field: string, w: TimeWindow): Record<string, { $gte?: Date; $lt?: Date }> {
  const { since, until } = checkWindow(w);
  if (!since && !until) return {};
  return { [field]: { ...(since ? { $gte: since } : {}), ...(until ? { $lt: until } : {}) } };
}

export const STATS_DEFAULT_DAYS = 7;
export const STATS_MAX_DAYS = 366;

/** The window of a stats query: the last 7 days by default, at most 366 days long. */
export function statsWindow(w: TimeWindow, now: Date): { since: Date; until: Date } {
  checkWindow(w);
  const until = w.until ?? (w.since && w.since > now ? w.since : now);
  const since = w.since ?? new Date(until.getTime() - STATS_DEFAULT_DAYS * DAY_MS);
  if (until.getTime() - since.getTime() > STATS_MAX_DAYS * DAY_MS) {
    throw new GatewayError('BAD_REQUEST', `the stats window is longer than ${STATS_MAX_DAYS} days; narrow since/until`);
  }
  return { since, until };
}
