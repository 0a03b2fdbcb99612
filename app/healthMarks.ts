// Health signals kept in Redis, so the API process sees what every process observed: when each
// platform last delivered an update (written at most every few seconds per process), and the
// embeddings API's calls (per-minute ok/error counts that expire, plus the last success and the
// last error). Writes are fire-and-forget: a signal never slows or fails the work it observes.
import type { Redis } from 'ioredis';
import type { Embedder } from '../src/memory/embedder.js';
import type { Metrics } from '../src/metrics/metrics.js';
import type { CallCounts } from '../src/health/health.js';
import type { Logger } from '../src/log.js';

const INBOUND_EVERY_MS = 5_000;
const MINUTE_TTL_S = 3_600;
const minuteOf = (ms: number) => Math.floor(ms / 60_000);

export class HealthMarks {
  private readonly inboundWritten = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {}

  private key(...parts: string[]): string {
    return [this.prefix, 'health', ...parts].join(':');
  }

  private fire(p: Promise<unknown>): void {
    p.catch((err: unknown) => this.log.debug({ err }, 'health mark not written'));
  }

  /** An update arrived on `platform`. */
  inbound(platform: string, now = Date.now()): void {
    if (now - (this.inboundWritten.get(platform) ?? 0) < INBOUND_EVERY_MS) return;
    this.inboundWritten.set(platform, now);
    this.fire(this.redis.hset(this.key('inbound'), platform, String(now)));
  }

  async lastInbound(): Promise<Map<string, Date>> {
    const all = await this.redis.hgetall(this.key('inbound'));
    return new Map(Object.entries(all).map(([p, ms]) => [p, new Date(Number(ms))]));
  }

  /** One call of a remote service ended. */
  call(name: string, outcome: { ok: true } | { ok: false; error: string }, now = Date.now()): void {
    const minute = this.key(name, 'm', String(minuteOf(now)));
    const last = outcome.ok ? ['okAt', String(now)] : ['errAt', String(now), 'err', outcome.error.slice(0, 500)];
    this.fire(
      this.redis
        .multi()
        .hincrby(minute, outcome.ok ? 'ok' : 'err', 1)
        .expire(minute, MINUTE_TTL_S)
        .hset(this.key(name, 'last'), ...last)
        .exec(),
    );
  }

  /** The last `minutes` minutes of a service's calls (one pipelined round trip). */
  async calls(name: string, minutes: number, now = Date.now()): Promise<CallCounts> {
    const m = minuteOf(now);
    const p = this.redis.pipeline();
    for (let i = 0; i < minutes; i++) p.hgetall(this.key(name, 'm', String(m - i)));
    p.hgetall(this.key(name, 'last'));
    const rows = ((await p.exec()) ?? []).map(([, v]) => (v ?? {}) as Record<string, string>);
    const last = rows.pop() ?? {};
    const sum = (f: string) => rows.reduce((n, r) => n + (Number(r[f]) || 0), 0);
    const ok = sum('ok');
    const errors = sum('err');
    const at = (v: string | undefined) => (v ? new Date(Number(v)) : null);
    return {
      calls: ok + errors,
      errors,
      lastOkAt: at(last.okAt),
      lastErrorAt: at(last.errAt),
      lastError: last.err ?? null,
    };
  }
}

/** The metrics port with platforms' inbound updates also marked in Redis. */
export function markingInbound(metrics: Metrics, marks: HealthMarks): Metrics {
  // Each call forwarded by name: the metrics may be a class instance (no own enumerable methods).
  return {
    inbound: (platform, kind, result) => {
      marks.inbound(platform);
      metrics.inbound(platform, kind, result);
    },
    queueWait: (queue, ms) => metrics.queueWait(queue, ms),
    replyStage: (stage, ms) => metrics.replyStage(stage, ms),
    llmCall: (kind, outcome, o) => metrics.llmCall(kind, outcome, o),
    deliveryFailure: (platform, failure) => metrics.deliveryFailure(platform, failure),
    recall: (found) => metrics.recall(found),
    memoryJob: (name, result) => metrics.memoryJob(name, result),
    roomSkip: (reason) => metrics.roomSkip(reason),
    refusal: (reason) => metrics.refusal(reason),
    moderation: (direction, result) => metrics.moderation(direction, result),
    storeCommand: (command, ms) => metrics.storeCommand(command, ms),
  };
}

/** An embedder whose calls are marked (aborted calls are no answer from the service: not counted). */
export function markedEmbedder(inner: Embedder, marks: HealthMarks): Embedder {
  return {
    id: inner.id,
    dims: inner.dims,
    ...(inner.lexical ? { lexical: inner.lexical } : {}),
    async embed(texts, signal) {
      try {
        const out = await inner.embed(texts, signal);
        marks.call('embeddings', { ok: true });
        return out;
      } catch (err) {
        if (!signal?.aborted)
          marks.call('embeddings', { ok: false, error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    },
  };
}
