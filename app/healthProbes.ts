// The health page's probes (src/health/health.ts) as this deployment answers them: platforms
// from the settings (a platform without a token is off) with the last update marked in Redis,
// MongoDB and Redis readiness, the respond queue's counts, and the embeddings' marks.
import type { Queue } from 'bullmq';
import { DEFAULT_OPENAI_BASE_URL, type Env } from '../src/config/env.js';
import { modelConfigured } from '../src/llm/noModel.js';
import type { Embedder } from '../src/memory/embedder.js';
import type { HealthProbes, PlatformHealth, QueueHealth } from '../src/health/health.js';
import type { Store } from '../src/store/store.js';
import type { Redis } from 'ioredis';
import type { HealthMarks } from './healthMarks.js';
import { ADAPTERS } from './platforms.js';
import { ProviderMarks } from './providerMarks.js';
import { providerList } from './llmProviders.js';

/**
 * Whether replies have a model: the primary names a service (a key, or a server of its own) or
 * LLM_FALLBACKS lists one — as app/llmProviders.ts builds the chain; else NoModelClient answers.
 */
export const replyModelConfigured = (env: Pick<Env, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'LLM_FALLBACKS'>): boolean =>
  modelConfigured({
    apiKey: env.OPENAI_API_KEY,
    baseUrl: env.OPENAI_BASE_URL,
    defaultBaseUrl: DEFAULT_OPENAI_BASE_URL,
  }) || env.LLM_FALLBACKS.length > 0;

/** A probe never holds the page on a stuck connection (the shared one retries forever). */
const PROBE_TIMEOUT_MS = 1_000;

export function healthProbes(o: {
  env: Env;
  store: Store;
  redis: Redis;
  respondQueue: Queue;
  embedder: Embedder;
  marks: HealthMarks;
}): HealthProbes {
  const { env } = o;
  const providerMarks = new ProviderMarks(o.redis, env.QUEUE_PREFIX);
  return {
    model: env.LLM_MODEL,
    modelConfigured: replyModelConfigured(env),
    providers: () => withTimeout(providerMarks.read(providerList(env))),
    embeddingsFallback: () => withTimeout(providerMarks.embeddingsFallback()),
    async platforms() {
      const last = await withTimeout(o.marks.lastInbound()).catch(() => new Map<string, Date>());
      return ADAPTERS.map((a): PlatformHealth => {
        const { on, mode } = a.health(env);
        const id = a.platform.id;
        return { id, on, mode: on ? mode : null, lastInboundAt: last.get(id) ?? null };
      });
    },
    async services() {
      const check = async (name: string, probe: () => Promise<boolean>) => ({
        name,
        ready: await withTimeout(probe()).catch(() => false),
      });
      return Promise.all([
        check('mongodb', () => o.store.ping()),
        check('redis', async () => (await o.redis.ping()) === 'PONG'),
      ]);
    },
    async respondQueue(): Promise<QueueHealth | null> {
      try {
        const [counts, oldest] = await withTimeout(
          Promise.all([
            o.respondQueue.getJobCounts('waiting', 'prioritized', 'active', 'delayed'),
            o.respondQueue.getJobs(['waiting', 'prioritized'], 0, 0, true),
          ]),
        );
        const first = oldest[0];
        return {
          waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          oldestWaitMs: first ? Math.max(0, Date.now() - (first.timestamp + (first.delay ?? 0))) : null,
        };
      } catch {
        return null;
      }
    },
    async embeddings(windowMinutes) {
      const empty = { calls: 0, errors: 0, lastOkAt: null, lastErrorAt: null, lastError: null };
      // Fell back to the offline embedder (no embeddings endpoint): a warning (Health.warnings), not a failing service.
      const fellBack = await withTimeout(providerMarks.embeddingsFallback()).catch(() => null);
      if (fellBack) return { target: `${fellBack.to} (offline fallback)`, remote: false, counts: empty };
      const remote = !o.embedder.lexical;
      const counts = remote ? await withTimeout(o.marks.calls('embeddings', windowMinutes)).catch(() => empty) : empty;
      return { target: o.embedder.id, remote, counts };
    },
  };
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), PROBE_TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
