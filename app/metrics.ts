// The metrics port (src/metrics/metrics.ts) as Prometheus series, in a registry of this
// process's own (several apps in one test process never share series). Every label value
// passes through bounded() first, so an unexpected value is "other", never a new series.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Metrics } from '../src/metrics/metrics.js';
import {
  bounded,
  DELIVERY_CODE_LABELS,
  INBOUND_KIND_LABELS,
  INGEST_RESULT_LABELS,
  LLM_KIND_LABELS,
  LLM_OUTCOME_LABELS,
  MEMORY_JOB_LABELS,
  MEMORY_RESULT_LABELS,
  PLATFORM_LABELS,
  QUEUE_LABELS,
  REPLY_STAGE_LABELS,
  ROOM_SKIP_LABELS,
  REFUSAL_REASON_LABELS,
  MODERATION_DIRECTION_LABELS,
  MODERATION_RESULT_LABELS,
  STORE_COMMAND_LABELS,
} from '../src/metrics/labels.js';

export const METRIC_PREFIX = 'rainbow_';

// Seconds: from a cached prompt's first token (tens of ms) to a queue backed up for minutes.
const LATENCY_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

export interface PromMetrics extends Metrics {
  readonly registry: Registry;
}

export function createPromMetrics(o: { defaultMetrics?: boolean } = {}): PromMetrics {
  const registry = new Registry();
  // Process CPU, memory, event-loop lag, GC (prom-client's standard set).
  if (o.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
    // Gauges named like counters (`_total`), which Prometheus' own lint rejects; the same counts
    // are kept per type in nodejs_active_handles, _requests and _resources.
    for (const kind of ['handles', 'requests', 'resources'])
      registry.removeSingleMetric(`${METRIC_PREFIX}nodejs_active_${kind}_total`);
  }
  const r = [registry];
  const n = (name: string) => `${METRIC_PREFIX}${name}`;

  const inbound = new Counter({
    name: n('inbound_events_total'),
    help: 'Inbound platform events handled, by platform, event kind and what ingest did with them.',
    labelNames: ['platform', 'kind', 'result'] as const,
    registers: r,
  });
  const duplicates = new Counter({
    name: n('inbound_duplicates_suppressed_total'),
    help: 'Redelivered platform messages recognised and not stored or answered again.',
    labelNames: ['platform'] as const,
    registers: r,
  });
  const queueWait = new Histogram({
    name: n('queue_wait_seconds'),
    help: 'Time a job waited between being due and a worker taking it (first attempt).',
    labelNames: ['queue'] as const,
    buckets: LATENCY_BUCKETS,
    registers: r,
  });
  const replyStage = new Histogram({
    name: n('reply_stage_seconds'),
    help: 'Reply latency by stage: queue (turn opened to reply started), context, model, delivery.',
    labelNames: ['stage'] as const,
    buckets: LATENCY_BUCKETS,
    registers: r,
  });
  const ttft = new Histogram({
    name: n('llm_time_to_first_token_seconds'),
    help: 'Time from an LLM request to its first streamed token, by kind (reply or background task).',
    labelNames: ['kind'] as const,
    buckets: LATENCY_BUCKETS,
    registers: r,
  });
  const llmCalls = new Counter({
    name: n('llm_calls_total'),
    help: 'LLM calls by kind and outcome (ok, or the failure code).',
    labelNames: ['kind', 'outcome'] as const,
    registers: r,
  });
  const tokens = new Counter({
    name: n('llm_tokens_total'),
    help: 'Tokens the model reported, by kind (reply or background task) and direction (input or output).',
    labelNames: ['kind', 'direction'] as const,
    registers: r,
  });
  const deliveryErrors = new Counter({
    name: n('delivery_errors_total'),
    help: 'Failed platform calls (each attempt), by platform and code: rate_limited, transient, permanent.',
    labelNames: ['platform', 'code'] as const,
    registers: r,
  });
  const rateLimited = new Counter({
    name: n('platform_rate_limited_total'),
    help: '429 answers from a platform, by platform and scope (one chat, or the whole bot).',
    labelNames: ['platform', 'scope'] as const,
    registers: r,
  });
  const recall = new Counter({
    name: n('memory_recall_total'),
    help: 'Active recalls before a reply, by result: hit (memories found) or empty.',
    labelNames: ['result'] as const,
    registers: r,
  });
  const memoryJobs = new Counter({
    name: n('memory_jobs_total'),
    help: 'Memory jobs ended, by job name and result.',
    labelNames: ['job', 'result'] as const,
    registers: r,
  });
  const roomSkips = new Counter({
    name: n('room_skips_total'),
    help: 'Rooms: asks skipped, by reason (chose, timeout, left, failed).',
    labelNames: ['reason'] as const,
    registers: r,
  });
  const refusals = new Counter({
    name: n('refusals_total'),
    help: 'Messages that reached no model (SPEC §14), by reason: not_admitted, blocked, budget, moderation.',
    labelNames: ['reason'] as const,
    registers: r,
  });
  const moderation = new Counter({
    name: n('moderation_checks_total'),
    help: 'Moderation checks by direction (in: a message, out: a reply) and result: clean, flagged, unavailable (endpoint failed; let through).',
    labelNames: ['direction', 'result'] as const,
    registers: r,
  });
  const askTimeouts = new Counter({
    name: n('room_ask_timeouts_total'),
    help: 'Rooms: asks nobody started answering before their deadline.',
    registers: r,
  });

  const storeCommands = new Histogram({
    name: n('store_command_seconds'),
    help: 'Time from sending a MongoDB command to its answer, by command: what the store makes every stage wait.',
    labelNames: ['command'] as const,
    buckets: LATENCY_BUCKETS,
    registers: r,
  });

  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  return {
    registry,
    inbound(platform, kind, result) {
      const p = bounded(PLATFORM_LABELS, platform);
      inbound.inc({
        platform: p,
        kind: bounded(INBOUND_KIND_LABELS, kind),
        result: bounded(INGEST_RESULT_LABELS, result),
      });
      if (result === 'duplicate') duplicates.inc({ platform: p });
    },
    queueWait(queue, ms) {
      queueWait.observe({ queue: bounded(QUEUE_LABELS, queue) }, seconds(ms));
    },
    replyStage(stage, ms) {
      replyStage.observe({ stage: bounded(REPLY_STAGE_LABELS, stage) }, seconds(ms));
    },
    llmCall(kind, outcome, o = {}) {
      const k = bounded(LLM_KIND_LABELS, kind);
      llmCalls.inc({ kind: k, outcome: bounded(LLM_OUTCOME_LABELS, outcome) });
      if (o.ttftMs !== undefined) ttft.observe({ kind: k }, seconds(o.ttftMs));
      if (o.inputTokens) tokens.inc({ kind: k, direction: 'input' }, o.inputTokens);
      if (o.outputTokens) tokens.inc({ kind: k, direction: 'output' }, o.outputTokens);
    },
    deliveryFailure(platform, failure) {
      const p = bounded(PLATFORM_LABELS, platform);
      deliveryErrors.inc({ platform: p, code: bounded(DELIVERY_CODE_LABELS, failure.kind) });
      if (failure.kind === 'rate_limited') rateLimited.inc({ platform: p, scope: failure.global ? 'global' : 'chat' });
    },
    recall(found) {
      recall.inc({ result: found > 0 ? 'hit' : 'empty' });
    },
    memoryJob(name, result) {
      memoryJobs.inc({ job: bounded(MEMORY_JOB_LABELS, name), result: bounded(MEMORY_RESULT_LABELS, result) });
    },
    roomSkip(reason) {
      const why = bounded(ROOM_SKIP_LABELS, reason);
      roomSkips.inc({ reason: why });
      if (why === 'timeout') askTimeouts.inc();
    },
    refusal(reason) {
      refusals.inc({ reason: bounded(REFUSAL_REASON_LABELS, reason) });
    },
    moderation(direction, result) {
      moderation.inc({
        direction: bounded(MODERATION_DIRECTION_LABELS, direction),
        result: bounded(MODERATION_RESULT_LABELS, result),
      });
    },
    storeCommand(command, ms) {
      storeCommands.observe({ command: bounded(STORE_COMMAND_LABELS, command) }, seconds(ms));
    },
  };
}
