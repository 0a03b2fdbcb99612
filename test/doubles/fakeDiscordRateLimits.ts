// Discord-style rate limits for the fake REST server: fixed-window buckets per route and major
// parameter (channel, webhook), advertised in X-RateLimit-* headers on every answer, and a
// per-token global limit. An exhausted bucket answers 429 with retry_after in seconds (float)
// and the bucket headers at Remaining 0, as Discord does, so a well-behaved client waits.
import { createHash } from 'node:crypto';

export const BUCKETS = [
  'messageCreate',
  'messageEdit',
  'typing',
  'webhooks',
  'webhookExecute',
  'webhookEdit',
  'other',
] as const;
export type BucketName = (typeof BUCKETS)[number];

export interface BucketLimit {
  limit: number;
  windowMs: number;
}

/** Discord's published per-channel message limit is 5 per 5 s; webhooks 5 per 2 s. */
export const DEFAULT_LIMITS: Record<BucketName, BucketLimit> = {
  messageCreate: { limit: 5, windowMs: 5_000 },
  messageEdit: { limit: 5, windowMs: 5_000 },
  typing: { limit: 5, windowMs: 5_000 },
  webhooks: { limit: 15, windowMs: 5_000 },
  webhookExecute: { limit: 5, windowMs: 2_000 },
  webhookEdit: { limit: 5, windowMs: 2_000 },
  other: { limit: 50, windowMs: 1_000 },
};

export type Headers = Record<string, string>;
export type TakeResult =
  { ok: true; headers: Headers } | { ok: false; headers: Headers; retryAfterSec: number; global: boolean };

interface Window {
  resetAt: number;
  used: number;
}

const secs = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limits: Record<BucketName, BucketLimit>;

  constructor(
    limits: Partial<Record<BucketName, BucketLimit>> = {},
    private readonly globalPerSecond = 50,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** The opaque bucket id Discord returns in X-RateLimit-Bucket (same for every major parameter). */
  static hashOf(bucket: BucketName): string {
    return createHash('sha1').update(`fake-discord:${bucket}`).digest('hex').slice(0, 32);
  }

  private window(key: string, windowMs: number, now: number): Window {
    let w = this.windows.get(key);
    if (!w || now >= w.resetAt) {
      w = { resetAt: now + windowMs, used: 0 };
      this.windows.set(key, w);
    }
    return w;
  }

  /** Counts one request against the global limit (when `token` is given) and the route bucket. */
  take(bucket: BucketName, major: string, token: string | undefined, now = Date.now()): TakeResult {
    if (token !== undefined) {
      const g = this.window(`global:${token}`, 1_000, now);
      if (g.used >= this.globalPerSecond) {
        const retryAfterSec = (g.resetAt - now) / 1000;
        return {
          ok: false,
          global: true,
          retryAfterSec,
          headers: { 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' },
        };
      }
      g.used++;
    }
    const { limit, windowMs } = this.limits[bucket];
    const w = this.window(`${bucket}:${major}`, windowMs, now);
    const headers = (remaining: number): Headers => ({
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': secs(w.resetAt),
      'X-RateLimit-Reset-After': secs(w.resetAt - now),
      'X-RateLimit-Bucket': RateLimiter.hashOf(bucket),
    });
    if (w.used >= limit) {
      return {
        ok: false,
        global: false,
        retryAfterSec: (w.resetAt - now) / 1000,
        headers: { ...headers(0), 'X-RateLimit-Scope': 'user' },
      };
    }
    w.used++;
    return { ok: true, headers: headers(limit - w.used) };
  }

  /** Headers for a scripted 429 (failNext): the bucket looks exhausted for `retryAfterSec`. */
  static exhausted(
    bucket: BucketName,
    limit: BucketLimit,
    retryAfterSec: number,
    global: boolean,
    now = Date.now(),
  ): Headers {
    if (global) return { 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' };
    return {
      'X-RateLimit-Limit': String(limit.limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': secs(now + retryAfterSec * 1000),
      'X-RateLimit-Reset-After': secs(retryAfterSec * 1000),
      'X-RateLimit-Bucket': RateLimiter.hashOf(bucket),
      'X-RateLimit-Scope': 'user',
    };
  }

  limitOf(bucket: BucketName): BucketLimit {
    return this.limits[bucket];
  }
}
