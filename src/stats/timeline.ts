// Stats over time (pure): a window cut into equal buckets, each with the tokens the model
// reported and the reply latency of the turns started in it (nearest-rank percentiles, as in
// percentiles.ts). The reads are in src/store/statsTimeline.ts.
import { latencySummary } from './percentiles.js';

export interface TokenSample {
  at: Date;
  /** Model calls behind the sample (a reflection run is several). */
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface LatencySample {
  at: Date;
  ms: number;
}

export interface StatsBucket {
  start: Date;
  end: Date;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  replies: number;
  p50Ms: number | null;
  p90Ms: number | null;
}

export function bucketize(
  window: { since: Date; until: Date },
  buckets: number,
  tokens: readonly TokenSample[],
  latencies: readonly LatencySample[],
): StatsBucket[] {
  const from = window.since.getTime();
  const width = Math.max(1, Math.ceil((window.until.getTime() - from) / buckets));
  const out = Array.from({ length: buckets }, (_, i) => ({
    start: new Date(from + i * width),
    end: new Date(Math.min(from + (i + 1) * width, window.until.getTime())),
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    times: [] as number[],
  }));
  const slot = (at: Date) => {
    const i = Math.floor((at.getTime() - from) / width);
    return i >= 0 && i < buckets ? out[i] : undefined;
  };
  for (const t of tokens) {
    const b = slot(t.at);
    if (!b) continue;
    b.calls += t.calls;
    b.promptTokens += t.promptTokens;
    b.completionTokens += t.completionTokens;
    b.totalTokens += t.totalTokens;
  }
  for (const l of latencies) slot(l.at)?.times.push(l.ms);
  return out.map(({ times, ...b }) => {
    const s = latencySummary(times);
    return { ...b, replies: s.count, p50Ms: s.p50, p90Ms: s.p90 };
  });
}
