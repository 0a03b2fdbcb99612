// What every role of a process shares: the Redis connection, the store, the queues, the
// platforms' outbound channels and the memory index. Nothing here listens or consumes jobs.
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import { Store } from '../src/store/store.js';
import { RedisWriteMark } from '../src/store/redisWriteMark.js';
import { RedisLinkCodes } from '../src/store/linkCodes.js';
import type { Moderator } from '../src/moderation/moderator.js';
import { buildModerator } from './moderation.js';
import { BudgetGate } from '../src/budget/budgetGate.js';
import { RedisStateGuard } from '../src/store/stateGuard.js';
import { holdLegacyPersonas } from '../src/store/personaSplit.js';
import { runHotPathBackfills } from '../src/store/hotPathBackfills.js';
import { RedisChangeFeed } from '../src/feed/changeFeed.js';
import { RedisChatBudget } from '../src/delivery/chatBudget.js';
import type { Embedder } from '../src/memory/embedder.js';
import { buildEmbedder } from './embedderSetup.js';
import { IndexCache } from '../src/memory/indexCache.js';
import { RedisMemoryVersions } from '../src/memory/versions.js';
import { MemoryRecall } from '../src/memory/recall.js';
import { buildKnowledge, type Knowledge } from './knowledge.js';
import { RespondQueue } from '../jobs/respondQueue.js';
import { TimerQueue } from '../jobs/timers.js';
import { InterruptBus } from '../jobs/interrupts.js';
import { MemoryQueue } from '../jobs/memoryJobs.js';
import { RedisReplyLease } from '../jobs/replyLease.js';
import { ReflectionQueue } from '../jobs/reflectionJobs.js';
import { RedisReflectionLock } from '../jobs/reflectionLock.js';
import {
  ADAPTERS,
  buildPlatforms,
  deploymentLimits,
  PLATFORMS,
  platformAccounts,
  routeAgentBots,
  type Platforms,
} from './platforms.js';
import { AgentOutbounds } from './agentOutbounds.js';
import type { PlatformAccounts } from '../src/ops/agentBots.js';
import { PlatformRegistry } from '../src/platforms/platform.js';
import type { Stops } from './stops.js';
import type { Platform } from '../src/domain/model.js';
import type { PlatformLimits } from '../src/platforms/platform.js';
import type { Registry } from 'prom-client';
import { noMetrics, type Metrics } from '../src/metrics/metrics.js';
import { createPromMetrics } from './metrics.js';
import { registerQueueDepth } from './queueMetrics.js';
import { HealthMarks, markingInbound } from './healthMarks.js';

export interface Shared extends Platforms {
  env: Env;
  log: Logger;
  redis: Redis;
  store: Store;
  /** Resolves when the one-off backfills of the hot path's indexes are done. */
  backfilled: Promise<void>;
  respondQueue: RespondQueue;
  timers: TimerQueue;
  interrupts: InterruptBus;
  memoryQueue: MemoryQueue;
  openai: OpenAI;
  embedder: Embedder;
  memoryVersions: RedisMemoryVersions;
  memoryCache: IndexCache;
  recall: MemoryRecall;
  /** Agents' documents: the per-agent index, retrieval for turns, adding and removing (src/knowledge). */
  knowledge: Knowledge;
  /** The dialogue lease replies hold; summaries and operator deletions take it too. */
  replyLease: RedisReplyLease;
  /** Self-reflection runs and the schedule's tick (jobs/reflectionJobs.ts). */
  reflectionQueue: ReflectionQueue;
  /** One reflection or rollback per agent at a time, across processes. */
  reflectionLock: RedisReflectionLock;
  /** Agents' own platform accounts: the channel each posts through (rooms). */
  agentOutbounds: AgentOutbounds;
  /** Which account a bot token belongs to (registering an agent's bot). */
  accounts: PlatformAccounts;
  /** Every adapter's descriptor (app/platforms.ts). */
  platformRegistry: PlatformRegistry;
  /** Codes that link a platform identity to a web user (`/link`). */
  linkCodes: RedisLinkCodes;
  /** Keywords and the `/moderations` endpoint (SPEC §14): incoming messages at ingest, replies as a stream stage. */
  moderator: Moderator;
  /** Budgets before the call (SPEC §14), checked at ingest and before every model call. */
  budget: BudgetGate;
  /** What the core observes (src/metrics); no-op with METRICS=off. */
  metrics: Metrics;
  /** This process's Prometheus series, served at /metrics (absent with METRICS=off). */
  metricsRegistry?: Registry;
  /** Health signals in Redis (platforms' last update, the embeddings' calls) for the health page. */
  healthMarks: HealthMarks;
}

/** How long an agent's reflection lock lives without renewal (a dead worker's run frees it after this). */
const REFLECTION_LOCK_MS = 10 * 60_000;

export async function buildShared(
  env: Env,
  o: {
    log: Logger;
    mongoUri: string;
    redisUrl: string;
    stops: Stops;
    platformLimits?: Partial<Record<Platform, PlatformLimits>>;
  },
): Promise<Shared> {
  const { log, stops } = o;
  const redis = new Redis(o.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  stops.push(() => redis.quit());
  // This process's Prometheus series (app/metrics.ts); with METRICS=off observations go nowhere.
  const prom = env.METRICS === 'off' ? undefined : createPromMetrics();
  if (prom) stops.push(registerQueueDepth(prom, { redis, prefix: env.QUEUE_PREFIX }));
  // The health page's signals, seen by every process through Redis (app/healthMarks.ts).
  const healthMarks = new HealthMarks(redis, env.QUEUE_PREFIX, log);
  const metrics = markingInbound(prom ?? noMetrics, healthMarks);
  // Every write the store makes is announced over Redis, so the API's subscriptions see
  // changes made by any process; a failed announcement is logged, the write stands.
  // Its own connection, pipelined: a turn announces a dozen changes, and those made in one tick
  // go out in one write instead of one each (announcements need no reply).
  const feedRedis = new Redis(o.redisUrl, { maxRetriesPerRequest: null, enableAutoPipelining: true });
  stops.push(() => feedRedis.quit()); // after the store closes (stops run newest first)
  const feed = new RedisChangeFeed(feedRedis, env.QUEUE_PREFIX, (err) =>
    log.warn({ err }, 'change feed publish failed'),
  );
  // The state guard is shared by every process through Redis (src/store/stateGuard.ts).
  const store = await Store.connect(o.mongoUri, env.MONGODB_DB, {
    feed,
    guard: new RedisStateGuard(redis, { prefix: env.QUEUE_PREFIX }),
    configMark: new RedisWriteMark(redis, { prefix: env.QUEUE_PREFIX, dbName: env.MONGODB_DB, kind: 'config' }),
    agentMark: new RedisWriteMark(redis, { prefix: env.QUEUE_PREFIX, dbName: env.MONGODB_DB, kind: 'agents' }),
    log,
    ...(prom ? { onCommand: (command: string, ms: number) => prom.storeCommand(command, ms) } : {}),
  });
  stops.push(() => store.close());
  await store.participants.ensureDefaultAgent(env.AGENT_NAME, env.AGENT_PERSONA);
  // Before any role serves a turn: an old evolved persona never reaches a prompt (SPEC §13).
  await holdLegacyPersonas(store, log);
  const backfilled = runHotPathBackfills(store, log);

  const respondQueue = new RespondQueue(redis, env.QUEUE_PREFIX);
  stops.push(() => respondQueue.close());
  const timers = new TimerQueue(redis, env.QUEUE_PREFIX);
  stops.push(() => timers.close());
  const interrupts = new InterruptBus(redis, env.QUEUE_PREFIX);
  stops.push(() => interrupts.close());
  const memoryQueue = new MemoryQueue(redis, env.QUEUE_PREFIX);
  stops.push(() => memoryQueue.close());
  const platformRegistry = new PlatformRegistry(PLATFORMS);
  const budget = new RedisChatBudget(redis, {
    prefix: env.QUEUE_PREFIX,
    platforms: platformRegistry,
    limits: { ...deploymentLimits(env), ...o.platformLimits },
  });
  const platforms = buildPlatforms(env, { budget, log, metrics });

  // Memory: one embedder and one per-owner vector cache per process, used by the worker's
  // recall and the API's memory search; other processes' writes reach the cache through
  // version counters in Redis. Nothing here connects until first used.
  const openai = new OpenAI({ apiKey: env.OPENAI_API_KEY ?? 'no-key', baseURL: env.OPENAI_BASE_URL });
  // The embeddings API when configured, falling back to the offline embedder when it has none (app/embedderSetup.ts).
  const embedder = buildEmbedder(env, { openai, marks: healthMarks, redis, log });
  log.info({ embedder: embedder.id }, 'memory and knowledge embedder');
  const memoryVersions = new RedisMemoryVersions(redis, `${env.QUEUE_PREFIX}:`);
  const memoryCache = new IndexCache({
    store,
    embedder,
    versions: memoryVersions,
    log,
    maxScopes: env.MEMORY_CACHE_SCOPES,
  });
  const recall = new MemoryRecall({
    store,
    embedder,
    cache: memoryCache,
    log,
    embedTimeoutMs: env.RECALL_EMBED_TIMEOUT_MS,
    loadWaitMs: env.RECALL_LOAD_WAIT_MS,
    metrics,
  });
  const knowledge = buildKnowledge({ env, redis, store, embedder, log });
  const replyLease = new RedisReplyLease(redis, env.QUEUE_PREFIX, env.WORKER_LOCK_MS);
  const reflectionQueue = new ReflectionQueue(redis, env.QUEUE_PREFIX);
  stops.push(() => reflectionQueue.close());
  // Long enough for a queued run to reach a worker; a running one renews it every third of it.
  const reflectionLock = new RedisReflectionLock(redis, env.QUEUE_PREFIX, REFLECTION_LOCK_MS);
  const agentOutbounds = new AgentOutbounds({ store, budget, log, env, adapters: ADAPTERS, metrics });
  // A private chat with an agent's own bot is written to through that bot (notices too).
  routeAgentBots(env, platforms.outbounds, agentOutbounds);

  return {
    env,
    log,
    redis,
    store,
    backfilled,
    respondQueue,
    timers,
    interrupts,
    memoryQueue,
    ...platforms,
    openai,
    embedder,
    memoryVersions,
    memoryCache,
    recall,
    knowledge,
    replyLease,
    reflectionQueue,
    reflectionLock,
    agentOutbounds,
    accounts: platformAccounts(env),
    platformRegistry,
    linkCodes: new RedisLinkCodes(redis, env.QUEUE_PREFIX),
    moderator: buildModerator(env, { store, log, metrics }),
    budget: new BudgetGate({
      store,
      config: async () => (await store.config.get()).config,
      timezone: env.DISPLAY_TIMEZONE,
    }),
    metrics,
    ...(prom ? { metricsRegistry: prom.registry } : {}),
    healthMarks,
  };
}
