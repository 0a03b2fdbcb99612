// Composition root: builds every role this process runs from validated config and reachable
// services. `main.ts` decides the roles and the services; tests call startApp directly.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import type { Env } from './config/env.js';
import type { Logger } from './log.js';
import { Store } from './store/store.js';
import { RedisStateGuard } from './store/stateGuard.js';
import { runHotPathBackfills } from './store/hotPathBackfills.js';
import type { Outbounds } from './delivery/outbound.js';
import { handleInbound, type HandleInboundDeps } from './gateway/handleInbound.js';
import type { InboundEventInput } from './ingest/inboundEvent.js';
import type { IngestResult } from './ingest/ingest.js';
import { RespondQueue } from '../jobs/respondQueue.js';
import { startRespondWorker } from '../jobs/respondWorker.js';
import { TimerQueue, startTimerWorker } from '../jobs/timers.js';
import { InterruptBus } from '../jobs/interrupts.js';
import { startSweeper } from '../jobs/sweeper.js';
import { createLlmClient } from './llm/createClient.js';
import { builtinTools } from './tools/builtins/index.js';
import { ActiveReplies } from './respond/activeReplies.js';
import type { RespondDeps } from './respond/respondToTurn.js';
import { proactiveCheckIn } from './lifecycle/checkIn.js';
import { TelegramGateway } from '../adapters/telegram/bot.js';
import { TelegramOutbound } from '../adapters/telegram/outbound.js';
import { TelegramMediaSource } from '../adapters/telegram/media.js';
import { DiscordGateway } from '../adapters/discord/gateway.js';
import { DiscordOutbound } from '../adapters/discord/outbound.js';
import { DiscordMediaSource } from '../adapters/discord/media.js';
import type { MediaSources } from './media/mediaSource.js';
import { RedisChatBudget } from './delivery/chatBudget.js';
import { PacedOutbound } from './delivery/pacedOutbound.js';
import { MediaProcessor } from './media/processor.js';
import { prepareMessagesMedia, type PrepareMediaDeps } from './media/prepare.js';
import { MediaRetryQueue, startMediaRetryWorker, startMediaSweeper } from '../jobs/mediaRetry.js';
import { createApiServer } from '../graphql/server.js';
import { createGatewayPubSub } from '../graphql/pubsub.js';
import { RedisChangeFeed } from './feed/changeFeed.js';
import { DEFAULT_LIMITS } from '../graphql/limits.js';
import { TokenCounter } from './context/tokens.js';
import { createEmbedder } from './memory/embedder.js';
import { IndexCache } from './memory/indexCache.js';
import { RedisMemoryVersions } from './memory/versions.js';
import { MemoryRecall } from './memory/recall.js';
import { startSearchKeysBackfill } from './store/searchKeysBackfill.js';
import { MemoryQueue, startMemoryWorker } from '../jobs/memoryJobs.js';
import { DialogueLock } from '../jobs/dialogueLock.js';
import { memoryJobHandlers, type MemoryWorkDeps } from './lifecycle/memoryWork.js';
import { afterReply } from './respond/afterReply.js';

export const ROLES = ['gateway', 'worker', 'api'] as const;
export type ProcessRole = (typeof ROLES)[number];

export interface RunningApp {
  store: Store;
  /** Base URL of the API server when this process runs the api role. */
  apiUrl?: string;
  /** Where this process listens for Telegram webhook updates (webhook mode, gateway role). */
  telegramWebhookUrl?: string;
  /** Resolves when the one-off backfills of the hot path's indexes are done (src/store/hotPathBackfills.ts). */
  backfilled: Promise<void>;
  /** Ingests one inbound event as an adapter would deliver it (any role). */
  handleInbound(event: InboundEventInput): Promise<IngestResult>;
  stop(): Promise<void>;
}

export async function startApp(env: Env, o: { roles: ReadonlySet<ProcessRole>; log: Logger; mongoUri: string; redisUrl: string }): Promise<RunningApp> {
  const { log } = o;
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err: unknown) => log.error({ err }, 'error while stopping'));
  };
  try {
    const redis = new Redis(o.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
    stops.push(() => redis.quit());
    // Every write the store makes is announced over Redis, so the API's subscriptions see
    // changes made by any process; a failed announcement is logged, the write stands.
    const feed = new RedisChangeFeed(redis, env.QUEUE_PREFIX, (err) => log.warn({ err }, 'change feed publish failed'));
    // The state guard is shared by every process through Redis (src/store/stateGuard.ts).
    const store = await Store.connect(o.mongoUri, env.MONGODB_DB, { feed, guard: new RedisStateGuard(redis, { prefix: env.QUEUE_PREFIX }), log });
    stops.push(() => store.close());
    await store.participants.ensureDefaultAgent(env.AGENT_NAME, env.AGENT_PERSONA);
    const backfilled = runHotPathBackfills(store, log);
    const queue = new RespondQueue(redis, env.QUEUE_PREFIX);
    stops.push(() => queue.close());

    const budget = new RedisChatBudget(redis, { prefix: env.QUEUE_PREFIX });
    const outbounds: Outbounds = {};
    const mediaSources: MediaSources = {};
    if (env.TELEGRAM_BOT_TOKEN) {
      // Every call to the platform spends the chat's shared budget (SPEC §4.3).
      outbounds.telegram = new PacedOutbound(new TelegramOutbound(env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_API_ROOT, { drafts: env.TELEGRAM_DRAFTS === 'on', log }), { budget, log });
      mediaSources.telegram = new TelegramMediaSource(env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_API_ROOT);
    } else log.info('TELEGRAM_BOT_TOKEN is not set: the Telegram adapter is disabled');
    if (env.DISCORD_BOT_TOKEN) {
      // Every rate limit goes to the shared chat budget (maxRateLimitWaitMs 0); sends are not
      // re-sent by the pacer because the adapter retries them itself with Discord's nonce.
      outbounds.discord = new PacedOutbound(new DiscordOutbound({ token: env.DISCORD_BOT_TOKEN, apiRoot: env.DISCORD_API_ROOT, log, maxRateLimitWaitMs: 0 }), {
        budget,
        log,
        retrySends: false,
      });
      mediaSources.discord = new DiscordMediaSource({ token: env.DISCORD_BOT_TOKEN, apiRoot: env.DISCORD_API_ROOT });
    } else log.info('DISCORD_BOT_TOKEN is not set: the Discord adapter is disabled');

    const timers = new TimerQueue(redis, env.QUEUE_PREFIX);
    stops.push(() => timers.close());
    const interrupts = new InterruptBus(redis, env.QUEUE_PREFIX);
    stops.push(() => interrupts.close());
    const memoryQueue = new MemoryQueue(redis, env.QUEUE_PREFIX);
    stops.push(() => memoryQueue.close());

    // Memory: one embedder and one per-owner vector cache per process, used by the worker's
    // recall and the API's memory search; other processes' writes reach the cache through
    // version counters in Redis. Nothing here connects until first used.
    const openai = new OpenAI({ apiKey: env.OPENAI_API_KEY ?? 'no-key', baseURL: env.OPENAI_BASE_URL });
    const embedder = createEmbedder({ provider: env.EMBEDDINGS, ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}), openai, model: env.EMBEDDING_MODEL, dims: env.EMBEDDING_DIMS });
    const memoryVersions = new RedisMemoryVersions(redis, `${env.QUEUE_PREFIX}:`);
    const memoryCache = new IndexCache({ store, embedder, versions: memoryVersions, log, maxScopes: env.MEMORY_CACHE_SCOPES });
    // The dialogue lease replies hold: summaries and operator deletions take it too, so none of
    // them runs while a reply of the same dialogue does.
    const dialogueLock = new DialogueLock(redis, env.QUEUE_PREFIX, env.WORKER_LOCK_MS);
    const recall = new MemoryRecall({ store, embedder, cache: memoryCache, log, embedTimeoutMs: env.RECALL_EMBED_TIMEOUT_MS });

    if (o.roles.has('worker')) {
      if (!env.OPENAI_API_KEY) log.warn('OPENAI_API_KEY is not set: replies will fail unless OPENAI_BASE_URL needs no key (e.g. Ollama)');
      const active = new ActiveReplies();
      const mediaRetries = new MediaRetryQueue(redis, env.QUEUE_PREFIX);
      stops.push(() => mediaRetries.close());
      const mediaDeps: PrepareMediaDeps = {
        processor: new MediaProcessor({
          sources: mediaSources,
          openai,
          visionModel: env.VISION_MODEL,
          transcribeModel: env.TRANSCRIBE_MODEL,
          maxBytes: env.MEDIA_MAX_BYTES,
          timeoutMs: env.MEDIA_TIMEOUT_MS,
          documentMaxChars: env.DOCUMENT_MAX_CHARS,
          log,
        }),
        attachments: store.attachments,
        maxAttempts: env.MEDIA_MAX_ATTEMPTS,
        retryBaseMs: env.MEDIA_RETRY_BASE_MS,
        scheduleRetry: (id, at) => mediaRetries.retryAt(id, at),
        log,
      };
      await interrupts.subscribe((dialogueId) => {
        if (active.interrupt(dialogueId)) log.info({ dialogueId }, 'reply interrupted by the user');
      });
      const deps: RespondDeps = {
        store,
        llm: createLlmClient(env.LLM_API, openai),
        tools: builtinTools(env),
        outbounds,
        log,
        model: env.LLM_MODEL,
        llmTimeoutMs: env.LLM_TIMEOUT_MS,
        maxToolRounds: env.TOOL_MAX_ROUNDS,
        counter: new TokenCounter(),
        recall,
        streamEditIntervalMs: env.STREAM_EDIT_INTERVAL_MS,
        locale: env.DEFAULT_LOCALE,
        timezone: env.DISPLAY_TIMEZONE,
        active,
        personaOf: (agent, chat) => {
          if (chat.platform !== 'discord' || env.DISCORD_PERSONAS !== 'on') return undefined;
          const avatarUrl = agent.avatarUrl ?? (agent.isDefault ? env.AGENT_AVATAR_URL : undefined);
          return { name: agent.name, ...(avatarUrl ? { avatarUrl } : {}) };
        },
        prepareMedia: (platform, messages) => prepareMessagesMedia(mediaDeps, messages, { platform }),
        onReplied: (turn, at, after) => afterReply({ store, scheduler: timers, memory: memoryQueue, checkInAfterMs: env.PROACTIVE_CHECKIN_AFTER_MS, log }, turn, at, after),
      };
      const memoryDeps: MemoryWorkDeps = {
        store,
        outbounds,
        log,
        llm: deps.llm,
        model: env.MEMORY_MODEL ?? env.LLM_MODEL,
        timeoutMs: env.MEMORY_TASK_TIMEOUT_MS,
        embedder,
        cache: memoryCache,
        config: async () => (await store.config.get()).config,
        lockDialogue: (dialogueId) => dialogueLock.acquire(dialogueId),
        scheduleIdleCheck: (sessionId, lastActivityAt) => timers.checkSessionAt(sessionId, new Date(lastActivityAt.getTime() + env.SESSION_GAP_MS)),
      };
      const memoryWorker = startMemoryWorker({ connection: redis, prefix: env.QUEUE_PREFIX, handlers: memoryJobHandlers(memoryDeps), log });
      stops.push(() => memoryWorker.close());
      if (env.CONSOLIDATION_CRON !== 'off') await memoryQueue.scheduleNightly(env.CONSOLIDATION_CRON, env.DISPLAY_TIMEZONE);
      else await memoryQueue.unscheduleNightly();
      const worker = startRespondWorker({ connection: redis, redis, prefix: env.QUEUE_PREFIX, concurrency: env.WORKER_CONCURRENCY, lockMs: env.WORKER_LOCK_MS, log, deps });
      stops.push(() => worker.close());
      const timerWorker = startTimerWorker({
        connection: redis,
        prefix: env.QUEUE_PREFIX,
        store,
        scheduler: timers,
        sessionGapMs: env.SESSION_GAP_MS,
        log,
        checkIn: (dialogueId, since, now) =>
          proactiveCheckIn({ ...deps, scheduler: timers, sessionGapMs: env.SESSION_GAP_MS, responseWindowMs: env.RESPONSE_WINDOW_MS }, dialogueId, since, now),
        onSessionClosed: (sessionId) => memoryQueue.summarize(sessionId, 'idle'),
      });
      stops.push(() => timerWorker.close());
      const mediaWorker = startMediaRetryWorker({ connection: redis, prefix: env.QUEUE_PREFIX, store, deps: mediaDeps, log });
      stops.push(() => mediaWorker.close());
      const mediaSweep = startMediaSweeper({ store, queue: mediaRetries, maxAttempts: env.MEDIA_MAX_ATTEMPTS, everyMs: 5 * 60_000, log });
      stops.push(() => mediaSweep.stop());
      const sweeper = startSweeper({ store, queue, everyMs: Math.max(250, Math.floor(env.SWEEP_AFTER_MS / 2)), olderThanMs: env.SWEEP_AFTER_MS, log });
      stops.push(() => sweeper.stop());
    }

    // What every gateway does with an inbound event; built once, also exposed for tools and the bench.
    const inboundDeps: HandleInboundDeps = {
      store,
      outbounds,
      log,
      defaultLocale: env.DEFAULT_LOCALE,
      sessionGapMs: env.SESSION_GAP_MS,
      responseWindowMs: env.RESPONSE_WINDOW_MS,
      albumSettleMs: env.ALBUM_SETTLE_MS,
      enqueueReply: (job) => queue.enqueue(job),
      scheduler: timers,
      interrupt: (dialogueId) => interrupts.publish(dialogueId),
      replyInProgress: (dialogueId) => dialogueLock.isHeld(dialogueId),
      requestSummary: (sessionId, notify) => memoryQueue.summarize(sessionId, 'command', notify),
    };
    const ingestEvent = (event: InboundEventInput) => handleInbound(inboundDeps, event);

    let telegramWebhookUrl: string | undefined;
    if (o.roles.has('gateway') && env.TELEGRAM_BOT_TOKEN) {
      const telegram = new TelegramGateway({
        token: env.TELEGRAM_BOT_TOKEN,
        apiRoot: env.TELEGRAM_API_ROOT,
        log,
        mode: env.TELEGRAM_MODE,
        ...(env.TELEGRAM_MODE === 'webhook' && env.TELEGRAM_WEBHOOK_SECRET
          ? { webhook: { ...(env.TELEGRAM_WEBHOOK_URL ? { url: env.TELEGRAM_WEBHOOK_URL } : {}), secret: env.TELEGRAM_WEBHOOK_SECRET, port: env.TELEGRAM_WEBHOOK_PORT } }
          : {}),
        onInbound: async (event) => {
          await ingestEvent(event);
        },
      });
      await telegram.start();
      stops.push(() => telegram.stop());
      telegramWebhookUrl = telegram.webhookListenUrl;
      log.info({ mode: telegram.mode, listen: telegram.webhookListenUrl }, 'Telegram adapter started');
    }

    if (o.roles.has('gateway') && env.DISCORD_BOT_TOKEN) {
      const discord = new DiscordGateway({
        token: env.DISCORD_BOT_TOKEN,
        apiRoot: env.DISCORD_API_ROOT,
        log,
        // Our own posts and their streaming edits come back from the gateway; the core would
        // ignore them too, but dropping them here saves a store lookup per edit.
        dropOwnEchoes: true,
        onInbound: async (event) => {
          await ingestEvent(event);
        },
      });
      await discord.start();
      stops.push(() => discord.stop());
      log.info('Discord adapter connected to the gateway');
    }

    let apiUrl: string | undefined;
    if (o.roles.has('api')) {
      if (env.OPS_TOKENS.length === 0) log.warn('OPS_TOKENS is empty: every GraphQL request will be rejected (UNAUTHENTICATED)');
      const subscriber = redis.duplicate();
      stops.push(() => subscriber.quit());
      // Message search needs search keys; messages stored before they existed get them here, in
      // the background (batches of 50; resumable: each start continues with whatever still lacks them).
      const backfill = startSearchKeysBackfill({ c: store.c, log });
      stops.push(() => backfill.stop());
      const devDefault = (v: 'auto' | 'on' | 'off') => (v === 'auto' ? env.NODE_ENV !== 'production' : v === 'on');
      const server: Server = createApiServer({
        ops: {
          store,
          outbounds,
          memory: memoryQueue,
          log,
          sessionGapMs: env.SESSION_GAP_MS,
          responseWindowMs: env.RESPONSE_WINDOW_MS,
          locale: env.DEFAULT_LOCALE,
          timezone: env.DISPLAY_TIMEZONE,
          recall,
          memoryVersions,
          scheduler: timers,
          enqueueReply: (job) => queue.enqueue(job),
          lockDialogue: (dialogueId) => dialogueLock.acquire(dialogueId),
        },
        pubsub: createGatewayPubSub({ publisher: redis, subscriber, prefix: env.QUEUE_PREFIX }),
        opsTokens: env.OPS_TOKENS,
        log,
        graphiql: devDefault(env.GRAPHIQL),
        introspection: devDefault(env.GRAPHQL_INTROSPECTION),
        limits: { ...DEFAULT_LIMITS, maxDepth: env.GRAPHQL_MAX_DEPTH, maxAliases: env.GRAPHQL_MAX_ALIASES, maxCost: env.GRAPHQL_MAX_COST },
        readiness: { redis: async () => (await redis.ping()) === 'PONG' },
      });
      await new Promise<void>((res) => server.listen(env.PORT, '0.0.0.0', res));
      const port = (server.address() as AddressInfo).port;
      apiUrl = `http://127.0.0.1:${port}`;
      stops.push(() => new Promise<void>((res) => { server.closeAllConnections(); server.close(() => res()); }));
      log.info({ url: `${apiUrl}/graphql` }, 'API listening');
    }

    return { store, backfilled, ...(apiUrl ? { apiUrl } : {}), ...(telegramWebhookUrl ? { telegramWebhookUrl } : {}), handleInbound: ingestEvent, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
