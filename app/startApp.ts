// The composition root: builds what a process's roles share (app/shared.ts), then each role it
// runs (gateway, worker, api). The only place that wires the platform-free core (src/) to the
// adapters, the queues (jobs/) and the API (graphql/).
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import type { Store } from '../src/store/store.js';
import { handleInbound, type HandleInboundDeps } from '../src/gateway/handleInbound.js';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import type { IngestResult } from '../src/ingest/ingest.js';
import { buildShared, type Shared } from './shared.js';
import { startWorkerRole } from './workerRole.js';
import { startGatewayRole } from './gatewayRole.js';
import { startApiRole } from './apiRole.js';
import { Stops } from './stops.js';

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
  const stops = new Stops(o.log);
  try {
    const s = await buildShared(env, { ...o, stops });
    if (o.roles.has('worker')) await startWorkerRole(s, stops);
    // What every gateway does with an inbound event; also exposed for tools and the bench.
    const inboundDeps = buildInboundDeps(s);
    const ingest = (event: InboundEventInput) => handleInbound(inboundDeps, event);
    const gateway = o.roles.has('gateway') ? await startGatewayRole(s, ingest, stops) : {};
    const apiUrl = o.roles.has('api') ? await startApiRole(s, stops) : undefined;
    return { store: s.store, backfilled: s.backfilled, ...(apiUrl ? { apiUrl } : {}), ...gateway, handleInbound: ingest, stop: () => stops.run() };
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
    defaultLocale: env.DEFAULT_LOCALE,
    sessionGapMs: env.SESSION_GAP_MS,
    responseWindowMs: env.RESPONSE_WINDOW_MS,
    albumSettleMs: env.ALBUM_SETTLE_MS,
    enqueueReply: (job) => s.respondQueue.enqueue(job),
    scheduler: s.timers,
    interrupt: (dialogueId) => s.interrupts.publish(dialogueId),
    replyInProgress: (dialogueId) => s.dialogueLock.isHeld(dialogueId),
    requestSummary: (sessionId, notify) => s.memoryQueue.summarize(sessionId, 'command', notify),
  };
}
