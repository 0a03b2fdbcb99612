// The worker role: replies (respond worker), delayed work (timers, check-ins), memory jobs,
// media retries and the sweepers that recover lost jobs.
import { NoModelClient } from '../src/llm/noModel.js';
import { ChainLlmClient } from '../src/llm/chainClient.js';
import { buildModelRoutes, type ModelRoutes } from './llmProviders.js';
import { ProviderMarks } from './providerMarks.js';
import { builtinTools } from '../src/tools/builtins/index.js';
import { ActiveReplies } from '../src/respond/activeReplies.js';
import type { RespondDeps } from '../src/respond/respondDeps.js';
import { afterReply } from '../src/respond/afterReply.js';
import { askDue } from '../src/rooms/roomFlow.js';
import { notifyExternal, personaOf, roomFlowDeps } from './roomDeps.js';
import { generate, type GenerateDeps } from '../src/respond/generate.js';
import { memoryJobHandlers, type MemoryWorkDeps } from '../src/lifecycle/memoryWork.js';
import { TokenCounter } from '../src/llm/tokens.js';
import { MediaProcessor } from '../src/media/processor.js';
import { prepareMessagesMedia, type PrepareMediaDeps } from '../src/media/prepare.js';
import { startRespondWorker } from '../jobs/respondWorker.js';
import type { RespondJob } from '../jobs/respondQueue.js';
import { startTimerWorker } from '../jobs/timers.js';
import { startSweeper } from '../jobs/sweeper.js';
import { startMemoryWorker } from '../jobs/memoryJobs.js';
import { MediaRetryQueue, startMediaRetryWorker, startMediaSweeper } from '../jobs/mediaRetry.js';
import { startReflectionWorker } from '../jobs/reflectionJobs.js';
import { runReflection } from '../src/reflection/runner.js';
import { reflectOnSchedule } from '../src/reflection/schedule.js';
import type { Shared } from './shared.js';
import type { Stops } from './stops.js';
import type { Extensions } from './startApp.js';
import { meteredLlm } from '../src/metrics/meteredLlm.js';
import type { LlmClient } from '../src/llm/types.js';
import { budgetedLlm } from '../src/budget/budgetedLlm.js';
import { watchWorker } from './queueMetrics.js';
import { moderationStageFactory } from '../src/moderation/moderationStage.js';

export async function startWorkerRole(s: Shared, stops: Stops, ext: Extensions): Promise<void> {
  const { env, log, store, redis } = s;
  if (!env.OPENAI_API_KEY)
    log.warn('OPENAI_API_KEY is not set: replies will fail unless OPENAI_BASE_URL needs no key (e.g. Ollama)');
  const mediaRetries = new MediaRetryQueue(redis, env.QUEUE_PREFIX);
  stops.push(() => mediaRetries.close());
  const mediaDeps = buildMediaDeps(s, mediaRetries);
  const active = new ActiveReplies();
  await s.interrupts.subscribe((dialogueId, why) => {
    if (!active.interrupt(dialogueId, why)) return;
    const what =
      why.reason === 'deadline' ? "reply stopped at the room's answer deadline" : 'reply interrupted by the user';
    log.info({ dialogueId, ...why }, what);
  });
  const deps = buildRespondDeps(s, { active, mediaDeps, ...ext });

  const memoryWorker = startMemoryWorker({
    connection: redis,
    prefix: env.QUEUE_PREFIX,
    concurrency: env.MEMORY_CONCURRENCY,
    handlers: memoryJobHandlers(buildMemoryDeps(s)),
    log,
  });
  stops.push(() => memoryWorker.close());
  watchWorker(memoryWorker, 'memory', s.metrics, { outcomes: true });
  if (env.CONSOLIDATION_CRON !== 'off')
    await s.memoryQueue.scheduleNightly(env.CONSOLIDATION_CRON, env.DISPLAY_TIMEZONE);
  else await s.memoryQueue.unscheduleNightly();
  await startReflection(s, stops);

  // Answers and check-ins both go through generate(), under the dialogue's reply lease.
  const gen: GenerateDeps = {
    ...deps,
    replyLease: s.replyLease,
    enqueueReply: (job) => s.respondQueue.enqueue(job),
    scheduler: s.timers,
    sessionGapMs: env.SESSION_GAP_MS,
    responseWindowMs: env.RESPONSE_WINDOW_MS,
  };
  const answer = (job: RespondJob) => generate(gen, { kind: 'answer', ...job });
  const worker = startRespondWorker({
    connection: redis,
    prefix: env.QUEUE_PREFIX,
    concurrency: env.WORKER_CONCURRENCY,
    lockMs: env.WORKER_LOCK_MS,
    log,
    answer,
  });
  stops.push(() => worker.close());
  watchWorker(worker, 'respond', s.metrics);
  const checkIn = async (dialogueId: string, since: Date, now: Date) => {
    const r = await generate(gen, { kind: 'check-in', dialogueId, since, now });
    return r.kind === 'check-in' ? r.result : r.kind;
  };
  const timerWorker = startTimerWorker({
    connection: redis,
    prefix: env.QUEUE_PREFIX,
    store,
    scheduler: s.timers,
    sessionGapMs: env.SESSION_GAP_MS,
    log,
    checkIn,
    onSessionClosed: (sessionId) => s.memoryQueue.summarize(sessionId, 'idle'),
    roomAnswerDue: (turnId, now, o) => askDue(roomFlowDeps(s), turnId, now, o),
  });
  stops.push(() => timerWorker.close());
  watchWorker(timerWorker, 'timers', s.metrics);

  const mediaWorker = startMediaRetryWorker({
    connection: redis,
    prefix: env.QUEUE_PREFIX,
    store,
    deps: mediaDeps,
    log,
  });
  stops.push(() => mediaWorker.close());
  watchWorker(mediaWorker, 'media-retry', s.metrics);
  const mediaSweep = startMediaSweeper({
    store,
    queue: mediaRetries,
    maxAttempts: env.MEDIA_MAX_ATTEMPTS,
    everyMs: 5 * 60_000,
    log,
  });
  stops.push(() => mediaSweep.stop());
  const sweepEveryMs = Math.max(250, Math.floor(env.SWEEP_AFTER_MS / 2));
  const sweeper = startSweeper({
    store,
    queue: s.respondQueue,
    everyMs: sweepEveryMs,
    olderThanMs: env.SWEEP_AFTER_MS,
    log,
  });
  stops.push(() => sweeper.stop());
}

/**
 * Self-reflection: the run worker and the schedule's tick (every minute; it starts runs only for
 * agents whose schedule an operator switched on, so it does nothing by default).
 */
async function startReflection(s: Shared, stops: Stops): Promise<void> {
  const { env, log, store } = s;
  const runDeps = { ...buildMemoryDeps(s), lock: s.reflectionLock };
  const tickDeps = {
    store,
    lock: s.reflectionLock,
    queue: s.reflectionQueue,
    log,
    defaultTimezone: env.DISPLAY_TIMEZONE,
  };
  const worker = startReflectionWorker({
    connection: s.redis,
    prefix: env.QUEUE_PREFIX,
    log,
    handlers: {
      run: async (id) => (await runReflection(runDeps, id))?.status,
      tick: (now) => reflectOnSchedule(tickDeps, now),
    },
  });
  stops.push(() => worker.close());
  await s.reflectionQueue.scheduleTick();
}

function buildMediaDeps(s: Shared, retries: MediaRetryQueue): PrepareMediaDeps {
  const { env, log } = s;
  return {
    processor: new MediaProcessor({
      sources: s.mediaSources,
      openai: routesOf(s).transcription,
      vision: routesOf(s).vision,
      visionModel: env.VISION_MODEL,
      ffmpeg: env.FFMPEG_PATH,
      transcribeModel: env.TRANSCRIBE_MODEL,
      maxBytes: env.MEDIA_MAX_BYTES,
      timeoutMs: env.MEDIA_TIMEOUT_MS,
      documentMaxChars: env.DOCUMENT_MAX_CHARS,
      log,
    }),
    attachments: s.store.attachments,
    maxAttempts: env.MEDIA_MAX_ATTEMPTS,
    retryBaseMs: env.MEDIA_RETRY_BASE_MS,
    scheduleRetry: (id, at) => retries.retryAt(id, at),
    log,
  };
}

function buildRespondDeps(
  s: Shared,
  o: { active: ActiveReplies; mediaDeps: PrepareMediaDeps } & Extensions,
): RespondDeps {
  const { env, log, store } = s;
  const after = {
    store,
    rooms: roomFlowDeps(s),
    scheduler: s.timers,
    memory: s.memoryQueue,
    checkInAfterMs: env.PROACTIVE_CHECKIN_AFTER_MS,
    log,
  };
  return {
    store,
    llm: meteredLlm(budgeted(s, modelClient(s)), s.metrics, 'reply'),
    tools: builtinTools(env),
    outbounds: s.outbounds,
    log,
    model: env.LLM_MODEL,
    llmTimeoutMs: env.LLM_TIMEOUT_MS,
    maxToolRounds: env.TOOL_MAX_ROUNDS,
    counter: new TokenCounter(),
    recall: s.recall,
    knowledge: s.knowledge.retrieval,
    knowledgeTopK: env.KNOWLEDGE_TOP_K,
    streamEditIntervalMs: env.STREAM_EDIT_INTERVAL_MS,
    platforms: s.platformRegistry,
    locale: env.DEFAULT_LOCALE,
    timezone: env.DISPLAY_TIMEZONE,
    active: o.active,
    personaOf: (agent, chat) => personaOf(s, agent, chat),
    agentOutbound: (agentId, chat) => s.agentOutbounds.of(agentId, chat),
    notifyExternal: notifyExternal(s),
    prepareMedia: (platform, messages) => prepareMessagesMedia(o.mediaDeps, messages, { platform }),
    onReplied: (turn, at, done) => afterReply(after, turn, at, done),
    metrics: s.metrics,
    // The deployment's own stages, then moderation's gate (SPEC §14); respond/ places them
    // between the required ones, so markers are out before a reply is judged.
    streamStages: [...(o.streamStages ?? []), moderationStageFactory(s.moderator, { locale: env.DEFAULT_LOCALE })],
  };
}

/**
 * The chain of model providers (primary, then LLM_FALLBACKS), or the client that says none is
 * configured (every reply names the settings). One chain per process: replies and background
 * tasks share its cool-downs and what it learned of models that refuse tools.
 */
function modelClient(s: Shared): LlmClient {
  const chat = routesOf(s).chat;
  return chat ? new ChainLlmClient(chat) : new NoModelClient();
}

const routes = new WeakMap<Shared, ModelRoutes>();
/** This process's providers, built once; their health is marked in Redis for the API's page. */
function routesOf(s: Shared): ModelRoutes {
  let r = routes.get(s);
  if (!r) {
    r = buildModelRoutes(s.env, new ProviderMarks(s.redis, s.env.QUEUE_PREFIX, s.log));
    routes.set(s, r);
  }
  return r;
}

/** Every call under a payer (a reply, a person's background task) keeps the budgets (SPEC §14). */
const budgeted = (s: Shared, llm: LlmClient): LlmClient =>
  budgetedLlm(llm, { gate: s.budget, counter: new TokenCounter(), log: s.log });

function buildMemoryDeps(s: Shared): MemoryWorkDeps {
  const { env, store } = s;
  return {
    store,
    outbounds: s.outbounds,
    log: s.log,
    // Counted apart from replies: background tokens are a different budget.
    llm: meteredLlm(budgeted(s, modelClient(s)), s.metrics, 'background'),
    model: env.MEMORY_MODEL ?? env.LLM_MODEL,
    timeoutMs: env.MEMORY_TASK_TIMEOUT_MS,
    embedder: s.embedder,
    cache: s.memoryCache,
    config: async () => (await store.config.get()).config,
    replyLease: s.replyLease,
    scheduleIdleCheck: (sessionId, lastActivityAt) =>
      s.timers.checkSessionAt(sessionId, new Date(lastActivityAt.getTime() + env.SESSION_GAP_MS)),
  };
}
