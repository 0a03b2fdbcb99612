// Times as operators read them: in the deployment's display time zone (the API's
// viewer.timezone, e.g. Asia/Shanghai); storage and the API stay UTC.
let zone = 'UTC';
let full: Intl.DateTimeFormat | undefined;
let short: Intl.DateTimeFormat | undefined;

export function setDisplayTimezone(tz: string): void {
  try {
    full = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      year: 'numeric',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    });
    short = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    zone = tz;
  } catch {
    // An unknown zone name: stay on UTC rather than failing every page.
    setDisplayTimezone('UTC');
  }
}
setDisplayTimezone('UTC');

export const displayTimezone = (): string => zone;

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : full!.format(d);
}

export function formatShort(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : short!.format(d);
}

/** "3 min ago", for lists where recency matters more than the instant. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export const formatNumber = (n: number | null | undefined): string =>
  n === null || n === undefined ? '—' : Math.round(n).toLocaleString('en-US');
