// Thin wiring: a BullMQ worker that takes a turn id and asks the core to answer it. When the
// dialogue already has a reply in progress the job waits (delayed) instead of answering out of order.
import { DelayedError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { RESPOND_QUEUE, respondJobSchema, type RespondJob } from './respondQueue.js';
import type { Generated } from '../src/respond/generate.js';

export interface RespondWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  concurrency: number;
  /** Stall detection: a dead worker's job is picked up after about this long (the reply lease lapses alike). */
  lockMs: number;
  /** `generate({ kind: 'answer', … })` (src/respond/generate.ts): the reply under the dialogue's lease. */
  answer(job: RespondJob): Promise<Generated>;
  log: Logger;
}

/** How long a job waits when its dialogue is busy with another reply. */
export const BUSY_RETRY_MS = 250;

export function startRespondWorker(o: RespondWorkerOptions): Worker<RespondJob> {
  const worker = new Worker<RespondJob>(
    RESPOND_QUEUE,
    async (job: Job<RespondJob>, token?: string) => {
      const data = respondJobSchema.parse(job.data);
      const r = await o.answer(data);
      if (r.kind === 'busy') {
        await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
        throw new DelayedError();
      }
      const result = r.kind === 'answer' ? r.result : r;
      o.log.info({ turnId: data.turnId, dialogueId: data.dialogueId, ...result }, 'turn handled');
      return result;
    },
    {
      connection: o.connection,
      prefix: o.prefix,
      concurrency: o.concurrency,
      lockDuration: o.lockMs,
      stalledInterval: o.lockMs,
    },
  );
  worker.on('failed', (job, err) =>
    o.log.error(
      { turnId: job?.data.turnId, dialogueId: job?.data.dialogueId, attempt: job?.attemptsMade, err },
      'respond job failed',
    ),
  );
  worker.on('error', (err) => o.log.error({ err }, 'respond worker error'));
  return worker;
}
