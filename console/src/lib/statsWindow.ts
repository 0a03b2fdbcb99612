// The statistics page's windows (last hour … last 30 days) and each one's span and bucket count.
export const WINDOWS = {
  '1h': { ms: 3_600_000, buckets: 12, label: 'stats.lastHour' },
  '24h': { ms: 86_400_000, buckets: 24, label: 'stats.last24h' },
  '7d': { ms: 7 * 86_400_000, buckets: 28, label: 'stats.last7d' },
  '30d': { ms: 30 * 86_400_000, buckets: 30, label: 'stats.last30d' },
} as const;
export type WindowKey = keyof typeof WINDOWS;

/** The window's end rounded up to the minute, so polling asks the same question within a minute. */
export function windowOf(key: WindowKey): { since: string; until: string; buckets: number } {
  const until = Math.ceil(Date.now() / 60_000) * 60_000;
  return {
    since: new Date(until - WINDOWS[key].ms).toISOString(),
    until: new Date(until).toISOString(),
    buckets: WINDOWS[key].buckets,
  };
}
