// Queue series: depth per queue and state, read from BullMQ's counts when Prometheus scrapes
// (one small Redis round trip per queue), and each job's wait, taken from the workers' events.
import { Queue, type Job, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { Gauge } from 'prom-client';
import type { Metrics } from '../src/metrics/metrics.js';
import { QUEUE_LABELS } from '../src/metrics/labels.js';
import { METRIC_PREFIX, type PromMetrics } from './metrics.js';

const STATES = ['waiting', 'active', 'delayed'] as const;
/** A scrape never hangs on Redis (the shared connection retries forever): past this the depth is left out. */
const COUNT_TIMEOUT_MS = 1_000;

/** Registers the depth gauge; returns what closes its queue handles. */
export function registerQueueDepth(metrics: PromMetrics, o: { redis: Redis; prefix: string }): () => Promise<void> {
  // Plain Queue handles on the shared connection: they only read counts.
  const queues = QUEUE_LABELS.map((name) => new Queue(name, { connection: o.redis, prefix: o.prefix }));
  new Gauge({
    name: `${METRIC_PREFIX}queue_jobs`,
    help: 'Jobs per queue and state (waiting, active, delayed), read at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers: [metrics.registry],
    async collect() {
      const counts = await Promise.all(
        queues.map((q) => withTimeout(q.getJobCounts(...STATES), COUNT_TIMEOUT_MS).catch(() => undefined)),
      );
      this.reset();
      queues.forEach((q, i) => {
        const c = counts[i];
        if (c) for (const state of STATES) this.set({ queue: q.name, state }, c[state] ?? 0);
      });
    },
  });
  return async () => {
    await Promise.all(queues.map((q) => q.close()));
  };
}

/**
 * Observes a worker's jobs: the wait of each first attempt (due = added + its delay; retries and
 * busy re-delays are not queue wait), and for memory jobs how each ended.
 */
export function watchWorker(worker: Worker, queue: string, metrics: Metrics, o: { outcomes?: boolean } = {}): void {
  worker.on('active', (job: Job) => {
    if ((job.attemptsStarted ?? 1) <= 1) metrics.queueWait(queue, Date.now() - (job.timestamp + (job.delay ?? 0)));
  });
  if (!o.outcomes) return;
  worker.on('completed', (job: Job, result: unknown) => metrics.memoryJob(job.name, resultKind(result)));
  worker.on('failed', (job: Job | undefined) => metrics.memoryJob(job?.name ?? 'unknown', 'failed'));
}

/** What a handler said it did (`{ kind: 'skipped' }`, 'folded'…); plain `completed` otherwise. */
function resultKind(result: unknown): string {
  if (typeof result === 'string') return result;
  const kind = typeof result === 'object' && result !== null && 'kind' in result ? result.kind : undefined;
  return typeof kind === 'string' ? kind : 'completed';
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
