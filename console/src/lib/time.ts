// Times as operators read them: in the deployment's display time zone (the API's
// viewer.timezone, e.g. Asia/Shanghai); storage and the API stay UTC.
import { currentLocale, intlLocale, translate } from './locale.js';

let zone = 'UTC';

export type DateStyle = 'datetime' | 'date' | 'time' | 'relative';

const OPTIONS: Record<Exclude<DateStyle, 'relative'> | 'short', Intl.DateTimeFormatOptions> = {
  datetime: {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  },
  short: { month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false },
  date: { year: 'numeric', month: 'short', day: '2-digit' },
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false },
};

// Building an Intl formatter is slow next to using one; lists format hundreds of times a render.
const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: keyof typeof OPTIONS): Intl.DateTimeFormat {
  const key = `${currentLocale()}|${zone}|${kind}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(intlLocale(), { ...OPTIONS[kind], timeZone: zone });
    cache.set(key, f);
  }
  return f;
}

export function setDisplayTimezone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    zone = tz;
  } catch {
    // An unknown zone name: stay on UTC rather than failing every page.
    zone = 'UTC';
  }
}

export const displayTimezone = (): string => zone;

const parse = (at: Date | string): Date => (typeof at === 'string' ? new Date(at) : at);

/** An instant in the display time zone and the console's language. */
export function formatDate(at: Date | string | null | undefined, style: DateStyle = 'datetime'): string {
  if (!at) return '—';
  const d = parse(at);
  if (Number.isNaN(d.getTime())) return typeof at === 'string' ? at : '—';
  return style === 'relative' ? ago(d.toISOString()) : formatter(style).format(d);
}

export const formatTime = (iso: string | null | undefined): string => formatDate(iso, 'datetime');

export function formatShort(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : formatter('short').format(d);
}

/** "3 min ago", for lists where recency matters more than the instant. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 45) return translate('time.justNow');
  if (s < 3600) return translate('time.minAgo', { n: Math.round(s / 60) });
  if (s < 86_400) return translate('time.hAgo', { n: Math.round(s / 3600) });
  return translate('time.dAgo', { n: Math.round(s / 86_400) });
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export const formatNumber = (n: number | null | undefined): string =>
  n === null || n === undefined ? '—' : Math.round(n).toLocaleString(intlLocale());
