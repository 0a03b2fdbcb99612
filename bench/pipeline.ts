// The real pipeline, in this process: the app's worker role (respond worker, timers, sweeper)
// against a fake OpenAI that answers at once and a fake Telegram reached over real HTTP, fed
// by handleInbound exactly as the gateway role wires it.
import { Redis } from 'ioredis';
import { QueueEvents } from 'bullmq';
import { loadEnv } from '../src/config/env.js';
import { createLogger } from '../src/log.js';
import { startApp, type Extensions, type ProcessRole, type RunningApp } from '../app/startApp.js';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import type { IngestResult } from '../src/ingest/ingest.js';
import { RESPOND_QUEUE, RespondQueue, respondJobId } from '../jobs/respondQueue.js';
import { TimerQueue } from '../jobs/timers.js';
import { startFakeOpenAI, type ChatRequestBody, type FakeOpenAI } from '../test/doubles/fakeOpenAI.js';
import { MemoryQueue } from '../jobs/memoryJobs.js';
import { startFakeTelegram, type FakeTelegram } from '../test/doubles/fakeTelegram.js';
import { withTimeout } from './concurrency.js';

const BOT_TOKEN = '123456789:BENCH-bot-token_abcdefghijklmnopqrstuv';

export interface PipelineRig {
  app: RunningApp;
  llm: FakeOpenAI;
  tg: FakeTelegram;
  /** The app's QUEUE_PREFIX: every Redis key of this app starts with `${prefix}:`. */
  prefix: string;
  /** A handle on the app's memory queue (post-turn extraction, rolling summary), to see when it is idle. */
  memory: MemoryQueue;
  /** A private chat id never used before in this run. */
  newChat(): string;
  /** A text message from the chat's user, as the Telegram adapter would produce it. */
  event(chatId: string, text: string): InboundEventInput;
  /** handleInbound with the gateway role's dependencies. */
  send(ev: InboundEventInput): Promise<IngestResult>;
  /** Resolves when the turn's respond job has completed (BullMQ queue events, no store polling). */
  finished(turnId: string, timeoutMs?: number): Promise<void>;
  /** How many of these turns' respond jobs took more than one attempt. */
  retriedJobs(turnIds: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

export async function startPipeline(o: {
  mongoUri: string;
  redisUrl: string;
  dbName: string;
  prefix: string;
  concurrency: number;
  streamEditMs: number;
  /** TELEGRAM_GLOBAL_PER_SECOND (the app's default when absent). */
  telegramPerSecond?: number;
  /** What the app is started with at its edges (e.g. lifted platform limits). */
  extensions?: Extensions;
  /** What the fake model answers (default 'ok': one chunk, no delay). */
  reply?: (body: ChatRequestBody) => string;
  /** Also run the api role (GraphQL and the web channel on an HTTP server), accepting this admin token. */
  apiToken?: string;
}): Promise<PipelineRig> {
  const llm = await startFakeOpenAI({ defaultReply: o.reply ?? (() => 'ok') });
  const tg = await startFakeTelegram();
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    MONGODB_URI: o.mongoUri,
    MONGODB_DB: o.dbName,
    REDIS_URL: o.redisUrl,
    QUEUE_PREFIX: o.prefix,
    OPENAI_API_KEY: 'sk-bench-not-a-real-key-000000',
    OPENAI_BASE_URL: llm.baseURL,
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    TELEGRAM_API_ROOT: tg.apiRoot,
    DEFAULT_LOCALE: 'en',
    STREAM_EDIT_INTERVAL_MS: String(o.streamEditMs),
    ...(o.telegramPerSecond ? { TELEGRAM_GLOBAL_PER_SECOND: String(o.telegramPerSecond) } : {}),
    WORKER_CONCURRENCY: String(o.concurrency),
    ...(o.apiToken ? { OPS_TOKENS: `bench:admin:${o.apiToken}` } : {}),
  });
  const log = createLogger(env.LOG_LEVEL);
  const app = await startApp(env, {
    roles: new Set<ProcessRole>(o.apiToken ? ['worker', 'api'] : ['worker']),
    log,
    mongoUri: o.mongoUri,
    redisUrl: o.redisUrl,
    ...(o.extensions ? { extensions: o.extensions } : {}),
  }).catch(async (err: unknown) => {
    await tg.close();
    await llm.close();
    throw err;
  });

  // Handles on the app's queues, only to inspect jobs and clean up afterwards.
  const redis = new Redis(o.redisUrl, { maxRetriesPerRequest: null });
  const queue = new RespondQueue(redis, env.QUEUE_PREFIX);
  const timers = new TimerQueue(redis, env.QUEUE_PREFIX);
  const memory = new MemoryQueue(redis, env.QUEUE_PREFIX);

  // Job completion, observed over Redis so waiting adds no load to the MongoDB-wire server.
  const eventsConn = new Redis(o.redisUrl, { maxRetriesPerRequest: null });
  const events = new QueueEvents(RESPOND_QUEUE, { connection: eventsConn, prefix: env.QUEUE_PREFIX });
  await events.waitUntilReady();
  const outcome = new Map<string, string | null>(); // jobId → null (completed) or failure reason
  const waiters = new Map<string, () => void>();
  const settle = (jobId: string, failure: string | null) => {
    outcome.set(jobId, failure);
    waiters.get(jobId)?.();
  };
  events.on('completed', ({ jobId }) => settle(jobId, null));
  events.on('failed', ({ jobId, failedReason }) => settle(jobId, failedReason || 'failed'));

  let chatSeq = 0;
  let messageSeq = 0;
  return {
    app,
    llm,
    tg,
    prefix: env.QUEUE_PREFIX,
    memory,
    newChat: () => String(500_000_000 + ++chatSeq),
    event: (chatId, text) => ({
      platform: 'telegram',
      chat: { chatId, kind: 'private' },
      platformMessageId: String(++messageSeq),
      sender: { userId: chatId, isBot: false, displayName: 'Bench User', languageCode: 'en' },
      text,
      sentAt: new Date(),
    }),
    send: (ev) => app.handleInbound(ev),
    async finished(turnId, timeoutMs = 30_000) {
      const jobId = respondJobId(turnId);
      if (!outcome.has(jobId)) {
        await withTimeout(
          new Promise<void>((res) => waiters.set(jobId, res)),
          timeoutMs,
          `turn ${turnId} to be answered`,
        );
      }
      waiters.delete(jobId);
      const failure = outcome.get(jobId);
      outcome.delete(jobId);
      if (failure) throw new Error(`respond job for ${turnId} failed: ${failure}`);
    },
    async retriedJobs(turnIds) {
      const jobs = await Promise.all(turnIds.map((id) => queue.queue.getJob(respondJobId(id))));
      return jobs.filter((j) => j !== undefined && (j.attemptsMade > 1 || Boolean(j.failedReason))).length;
    },
    async close() {
      await app.stop();
      await events.close();
      await eventsConn.quit();
      await queue.queue.obliterate({ force: true });
      await timers.queue.obliterate({ force: true });
      await memory.unscheduleNightly();
      await memory.queue.obliterate({ force: true });
      await queue.close();
      await timers.close();
      await memory.close();
      await redis.quit();
      await tg.close();
      await llm.close();
    },
  };
}
