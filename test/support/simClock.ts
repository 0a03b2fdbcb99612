// A simulated wall clock for a whole in-process app: only `Date` is faked (vitest's fake
// timers with toFake ['Date']), so setTimeout, sockets, grammY's long poll, BullMQ and ioredis
// run on real time. Simulated time = real time + an offset, re-set every millisecond (a real
// interval calling vi.setSystemTime): it never drifts from real time, unlike shouldAdvanceTime,
// whose fixed ticks fall behind under load. Pauses of minutes or days grow the offset: set
// the clock forward, then act. Jump only while the app is idle — an in-flight deadline
// computed from Date.now() would see the jump.
import { vi } from 'vitest';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface SimClock {
  /** Simulated now, in ms. */
  now(): number;
  /** Moves simulated time forward by `ms`. */
  advance(ms: number): void;
  /** Moves simulated time forward to `at` (never back: the app's records must stay ordered). */
  jumpTo(at: number): void;
  /** Simulated day number, 1 for the first day, counted in `utcOffsetHours` local time. */
  day(): number;
  /** Local time of day, "HH:MM". */
  timeOfDay(): string;
  /** Unix seconds, as Telegram dates messages. */
  unixSeconds(): number;
  /** Back to the real Date. */
  stop(): void;
}

/**
 * Starts the clock at `start` (ms). `utcOffsetHours` only names days and hours in failure
 * messages (the people of the scenarios live in UTC+8).
 */
export function startSimClock(start: number, utcOffsetHours = 8): SimClock {
  vi.useFakeTimers({ toFake: ['Date'] });
  let offset = start - vi.getRealSystemTime();
  const sync = (): void => void vi.setSystemTime(vi.getRealSystemTime() + offset);
  sync();
  const ticker = setInterval(sync, 1);
  const zone = utcOffsetHours * 3_600_000;
  const dayIndex = (ms: number): number => Math.floor((ms + zone) / DAY);
  const firstDay = dayIndex(start);
  const clock: SimClock = {
    now: () => Date.now(),
    advance(ms) {
      if (ms < 0) throw new Error('simClock: time only moves forward');
      offset += ms;
      sync();
    },
    jumpTo(at) {
      const now = Date.now();
      if (at < now)
        throw new Error(`simClock: ${new Date(at).toISOString()} is before now (${new Date(now).toISOString()})`);
      offset += at - now;
      sync();
    },
    day: () => dayIndex(Date.now()) - firstDay + 1,
    timeOfDay() {
      const local = new Date(Date.now() + zone);
      return `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    },
    unixSeconds: () => Math.floor(Date.now() / 1000),
    stop() {
      clearInterval(ticker);
      vi.useRealTimers();
    },
  };
  return clock;
}

/** `dayN` (1-based) at local "HH:MM" as epoch ms, on the calendar of a clock started at `start`. */
export function localTime(start: number, dayN: number, hhmm: string, utcOffsetHours = 8): number {
  const offset = utcOffsetHours * 3_600_000;
  const midnight = Math.floor((start + offset) / DAY) * DAY - offset;
  const [h, m] = hhmm.split(':').map(Number);
  return midnight + (dayN - 1) * DAY + (h ?? 0) * HOUR + (m ?? 0) * MINUTE;
}
