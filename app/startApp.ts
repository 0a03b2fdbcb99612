// The composition root: builds what a process's roles share (app/shared.ts), then each role it
// runs (gateway, worker, api) and, when a role serves HTTP, the process's one HTTP server
// (app/http/). The only place that wires the platform-free core (src/) to the adapters, the
// queues (jobs/) and the API (graphql/).
import { PointerHints } from '../src/ingest/pointerHints.js';
import { listenHost, type Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import type { Store } from '../src/store/store.js';
import type { Platform } from '../src/domain/model.js';
import type { PlatformLimits } from '../src/platforms/platform.js';
import type { StreamStageFactory } from '../src/delivery/streamStage.js';
import { handleInbound, type HandleInboundDeps } from '../src/inbound/handleInbound.js';
import { linkIdentity } from '../src/ops/linkIdentity.js';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import type { IngestResult } from '../src/ingest/ingest.js';
import { buildShared, type Shared } from './shared.js';
import { startWorkerRole } from './workerRole.js';
import { gatewayServesHttp, mountGatewayRole } from './gatewayRole.js';
import { adapterOf } from './platforms.js';
import { mountApiRole } from './apiRole.js';
import { mountWebChannel } from './webChannel.js';
import { createHttpServer } from './http/server.js';
import { mountMetrics } from './http/metrics.js';
import type { FastifyInstance } from 'fastify';
import { Stops } from './stops.js';

export const ROLES = ['gateway', 'worker', 'api'] as const;
export type ProcessRole = (typeof ROLES)[number];

export interface RunningApp {
  store: Store;
  /** Base URL of the HTTP server (GraphQL at /graphql) when this process runs the api role. */
  apiUrl?: string;
  /** Where this process serves Prometheus metrics (whenever it serves HTTP and METRICS is not off). */
  metricsUrl?: string;
  /** Where this process serves webhook updates, by platform (webhook mode, gateway role), on the same server. */
  webhookUrls?: Partial<Record<Platform, string>>;
  /** Resolves when the one-off backfills of the hot path's indexes are done (src/store/hotPathBackfills.ts). */
  backfilled: Promise<void>;
  /** Ingests one inbound event as an adapter would deliver it (any role). */
  handleInbound(event: InboundEventInput): Promise<IngestResult>;
  stop(): Promise<void>;
}

/** What a deployment plugs into the pipeline at the edges (none by default). */
export interface Extensions {
  /** Sending limits other than the platforms' own (a deployment the platform allows more; the bench). */
  platformLimits?: Partial<Record<Platform, PlatformLimits>>;
  /** Stages between the model and what people see, in order (src/delivery/streamStage.ts). */
  streamStages?: readonly StreamStageFactory[];
}

export async function startApp(
  env: Env,
  o: { roles: ReadonlySet<ProcessRole>; log: Logger; mongoUri: string; redisUrl: string; extensions?: Extensions },
): Promise<RunningApp> {
  const stops = new Stops(o.log);
  try {
    const s = await buildShared(env, {
      ...o,
      stops,
      ...(o.extensions?.platformLimits ? { platformLimits: o.extensions.platformLimits } : {}),
    });
    if (o.roles.has('worker')) await startWorkerRole(s, stops, o.extensions ?? {});
    // What every gateway does with an inbound event; also exposed for tools and the bench.
    const inboundDeps = buildInboundDeps(s);
    const ingest = (event: InboundEventInput) => handleInbound(inboundDeps, event);
    // One HTTP server per process, when a role serves HTTP: the roles mount their routes, then it
    // listens, then the gateway starts (registering the webhook needs the server's URL). It
    // closes after the adapters stop (webhook updates being handled still get their answer) and
    // before the API's Redis subscriber goes.
    // METRICS=on opens it for /metrics alone too (a worker-only process).
    const servesHttp = o.roles.has('api') || (o.roles.has('gateway') && gatewayServesHttp(env)) || env.METRICS === 'on';
    const http = servesHttp
      ? createHttpServer({
          log: s.log,
          port: env.PORT,
          host: listenHost(env),
          readiness: { mongodb: () => s.store.ping(), redis: async () => (await s.redis.ping()) === 'PONG' },
        })
      : undefined;
    if (http && s.metricsRegistry) mountMetricsRoute(s, http.app);
    if (http && o.roles.has('api')) {
      mountApiRole(s, http, stops);
      mountWebChannel(s, http, ingest, stops);
    }
    const mounted = o.roles.has('gateway') ? mountGatewayRole(s, ingest, stops, http) : undefined;
    let serverUrl: string | undefined;
    if (http) {
      stops.push(() => http.close());
      serverUrl = await http.listen();
    }
    const apiUrl = o.roles.has('api') ? serverUrl : undefined;
    if (apiUrl) s.log.info({ url: `${apiUrl}/graphql` }, 'API listening');
    const gateway = mounted ? await mounted.start(serverUrl) : {};
    return {
      store: s.store,
      backfilled: s.backfilled,
      ...(apiUrl ? { apiUrl } : {}),
      ...(serverUrl && s.metricsRegistry ? { metricsUrl: `${serverUrl}/metrics` } : {}),
      ...gateway,
      handleInbound: ingest,
      stop: () => stops.run(),
    };
  } catch (err) {
    await stops.run();
    throw err;
  }
}

function buildInboundDeps(s: Shared): HandleInboundDeps {
  const { env } = s;
  return {
    store: s.store,
    outbounds: s.outbounds,
    log: s.log,
    metrics: s.metrics,
    defaultLocale: env.DEFAULT_LOCALE,
    sessionGapMs: env.SESSION_GAP_MS,
    responseWindowMs: env.RESPONSE_WINDOW_MS,
    albumSettleMs: env.ALBUM_SETTLE_MS,
    pointerHints: new PointerHints(),
    enqueueReply: (job) => s.respondQueue.enqueue(job),
    scheduler: s.timers,
    interrupt: (dialogueId) => s.interrupts.publish(dialogueId),
    replyLease: s.replyLease,
    requestSummary: (sessionId, notify) => s.memoryQueue.summarize(sessionId, 'command', notify),
    budget: s.budget,
    moderate: (text) => s.moderator.check(text),
    timezone: env.DISPLAY_TIMEZONE,
    // SET NX: of every process that refuses the same person, only the first tells them.
    claimNotice: async (key, ttlMs) =>
      (await s.redis.set(`${env.QUEUE_PREFIX}:notice:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK',
    async link(identity, code) {
      // A web identity is the one others link to, never linked itself (PlatformAdapter.linkTarget).
      if (adapterOf(identity.platform)?.linkTarget) return false;
      const into = await s.linkCodes.redeem(code);
      if (!into) return false;
      await linkIdentity({ store: s.store, memoryVersions: s.memoryVersions }, { identity, into, at: new Date() });
      return true;
    },
  };
}

/** /metrics with this process's series; without any token it answers 401 to everyone. */
function mountMetricsRoute(s: Shared, app: FastifyInstance): void {
  const { env } = s;
  if (!s.metricsRegistry) return;
  if (!env.METRICS_TOKEN && env.OPS_TOKENS.length === 0)
    s.log.warn('neither METRICS_TOKEN nor OPS_TOKENS is set: /metrics will answer 401');
  mountMetrics(app, {
    registry: s.metricsRegistry,
    opsTokens: env.OPS_TOKENS,
    ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
  });
}
