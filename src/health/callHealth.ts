// A remote service's state from its recent calls (pure): failing when its latest call failed,
// degraded when a fifth or more of the window's calls failed, idle without calls.
import type { CallCounts, CallHealth, CallState } from './health.js';

export const DEGRADED_ERROR_RATE = 0.2;

export interface CallSample {
  at: Date;
  ok: boolean;
  error?: string;
}

/** Counts of samples, newest first or in any order. */
export function countCalls(samples: readonly CallSample[]): CallCounts {
  let lastOk: Date | null = null;
  let lastErr: CallSample | null = null;
  let errors = 0;
  for (const s of samples) {
    if (s.ok) {
      if (!lastOk || s.at > lastOk) lastOk = s.at;
    } else {
      errors++;
      if (!lastErr || s.at > lastErr.at) lastErr = s;
    }
  }
  return {
    calls: samples.length,
    errors,
    lastOkAt: lastOk,
    lastErrorAt: lastErr?.at ?? null,
    lastError: lastErr?.error ?? null,
  };
}

export function callHealth(
  name: string,
  target: string,
  c: CallCounts,
  windowMinutes: number,
  o: { off?: boolean } = {},
): CallHealth {
  const errorRate = c.calls > 0 ? c.errors / c.calls : null;
  let state: CallState;
  if (o.off) state = 'off';
  else if (c.lastErrorAt && (!c.lastOkAt || c.lastErrorAt >= c.lastOkAt)) state = 'failing';
  else if (errorRate !== null && errorRate >= DEGRADED_ERROR_RATE) state = 'degraded';
  else if (c.calls === 0) state = 'idle';
  else state = 'ok';
  return { name, target, state, errorRate, windowMinutes, ...c };
}
