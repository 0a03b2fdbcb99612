// Thin wiring: a BullMQ worker that takes a turn id and calls respondToTurn. When the dialogue
// already has a reply in progress the job waits (delayed) instead of answering out of order.
import { DelayedError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import { RESPOND_QUEUE, respondJobSchema, type RespondJob } from './respondQueue.js';
import { DialogueLock } from './dialogueLock.js';
import { respondToTurn, type RespondDeps } from '../src/respond/respondToTurn.js';

export interface RespondWorkerOptions {
  connection: ConnectionOptions;
  redis: Redis;
  prefix: string;
  concurrency: number;
  /** Stall detection and dialogue lease: a dead worker's reply is picked up after about this long. */
  lockMs: number;
  deps: RespondDeps;
  log: Logger;
}

const LOCK_RETRY_MS = 250;

export function startRespondWorker(o: RespondWorkerOptions): Worker<RespondJob> {
  const lock = new DialogueLock(o.redis, o.prefix, o.lockMs);
  const worker = new Worker<RespondJob>(
    RESPOND_QUEUE,
    async (job: Job<RespondJob>, token?: string) => {
      const data = respondJobSchema.parse(job.data);
      const release = await lock.acquire(data.dialogueId);
      if (!release) {
        await job.moveToDelayed(Date.now() + LOCK_RETRY_MS, token);
        throw new DelayedError();
      }
      try {
        const result = await respondToTurn(o.deps, data.turnId, data.dialogueId);
        o.log.info({ turnId: data.turnId, ...result }, 'turn handled');
        return result;
      } finally {
        await release();
      }
    },
    { connection: o.connection, prefix: o.prefix, concurrency: o.concurrency, lockDuration: o.lockMs, stalledInterval: o.lockMs },
  );
  worker.on('failed', (job, err) => o.log.error({ turnId: job?.data.turnId, attempt: job?.attemptsMade, err }, 'respond job failed'));
  worker.on('error', (err) => o.log.error({ err }, 'respond worker error'));
  return worker;
}
