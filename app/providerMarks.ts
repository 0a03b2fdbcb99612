// The model providers' health marks in Redis, so the API process shows what every worker saw
// (SPEC §14, "health shows every provider"): per provider its last answer, last failure and
// cool-down, and the models that refused tools; and the embeddings' switch to the offline
// embedder. Writes are fire-and-forget like the other health marks (app/healthMarks.ts); the
// failure text is the server's message, never a key (labels carry host and model only).
import type { Redis } from 'ioredis';
import type { Logger } from '../src/log.js';
import type { ProviderObserver, ProviderRef } from '../src/llm/provider.js';
import type { EmbedderFallback } from '../src/memory/fallbackEmbedder.js';
import type { EmbeddingsFallbackMark, ProviderRecord } from '../src/health/providerHealth.js';

/** A provider's marks outlive a quiet week, not a redeployment's forgotten ids forever. */
const PROVIDER_TTL_S = 7 * 24 * 3600;
/** The offline switch is marked again every 10 minutes while in use (FallbackEmbedder): a fixed setup stops showing it. */
const FALLBACK_TTL_S = 3600;

export class ProviderMarks implements ProviderObserver {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Absent: a reader only (the API's health probes), which writes and logs nothing. */
    private readonly log?: Logger,
  ) {}

  private key(...parts: string[]): string {
    return [this.prefix, 'health', ...parts].join(':');
  }

  private fire(p: Promise<unknown>): void {
    p.catch((err: unknown) => this.log?.debug({ err }, 'provider health mark not written'));
  }

  private hset(id: string, fields: Record<string, string>): void {
    const key = this.key('llm', id);
    this.fire(this.redis.multi().hset(key, fields).expire(key, PROVIDER_TTL_S).exec());
  }

  answered(p: ProviderRef, at: Date): void {
    this.hset(p.id, { label: p.label, okAt: String(at.getTime()), coolUntil: '0' });
  }

  failed(p: ProviderRef, o: { at: Date; error: string; coolingUntil: Date | null }): void {
    const fields: Record<string, string> = {
      label: p.label,
      errAt: String(o.at.getTime()),
      err: o.error.slice(0, 500),
    };
    if (o.coolingUntil) fields.coolUntil = String(o.coolingUntil.getTime());
    this.hset(p.id, fields);
    this.log?.warn(
      { provider: p.label, error: o.error, coolingUntil: o.coolingUntil },
      o.coolingUntil ? 'model provider failed; the next one answers while it cools down' : 'model provider failed',
    );
  }

  toolsRefused(p: ProviderRef, model: string, at: Date): void {
    const key = this.key('llm', p.id, 'toolless');
    this.fire(this.redis.multi().sadd(key, model).expire(key, PROVIDER_TTL_S).exec());
    this.log?.warn(
      { provider: p.label, model, at },
      'the model refuses tools: it is asked without them from now on (health shows a warning)',
    );
  }

  /** The marks of these providers (one pipelined round trip); labels default to the given ones. */
  async read(providers: ReadonlyArray<{ id: string; label: string }>): Promise<ProviderRecord[]> {
    const p = this.redis.pipeline();
    for (const { id } of providers) p.hgetall(this.key('llm', id)).smembers(this.key('llm', id, 'toolless'));
    const rows = ((await p.exec()) ?? []).map(([, v]) => v);
    const at = (v: string | undefined) => (v && Number(v) > 0 ? new Date(Number(v)) : null);
    return providers.map(({ id, label }, i) => {
      const h = (rows[2 * i] ?? {}) as Record<string, string>;
      const toolless = (rows[2 * i + 1] ?? []) as string[];
      return {
        id,
        label,
        lastOkAt: at(h.okAt),
        lastErrorAt: at(h.errAt),
        lastError: h.err ?? null,
        coolingUntil: at(h.coolUntil),
        toolsRefused: [...toolless].sort(),
      };
    });
  }

  /** The embeddings fell back to the offline embedder (written again while it is in use). */
  embeddingsFellBack(f: EmbedderFallback): void {
    const key = this.key('embeddings', 'fallback');
    const fields = { from: f.from, to: f.to, reason: f.reason.slice(0, 500), at: String(f.at.getTime()) };
    this.fire(this.redis.multi().hset(key, fields).expire(key, FALLBACK_TTL_S).exec());
  }

  async embeddingsFallback(): Promise<EmbeddingsFallbackMark | null> {
    const h = await this.redis.hgetall(this.key('embeddings', 'fallback'));
    if (!h.from || !h.to) return null;
    return { from: h.from, to: h.to, reason: h.reason ?? '', at: new Date(Number(h.at)) };
  }
}
