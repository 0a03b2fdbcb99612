// The respond queue: one job per turn that needs an AI reply. Job ids are derived from the
// turn, so enqueuing the same turn twice (redelivery, sweeper) is a no-op.
import { Queue, type ConnectionOptions } from 'bullmq';
import { z } from 'zod';

export const RESPOND_QUEUE = 'respond';

const hintsSchema = z.object({
  sessionId: z.string().min(1),
  agentId: z.string().min(1).optional(),
  humanId: z.string().min(1).optional(),
});

export const respondJobSchema = z.object({
  turnId: z.string().min(1),
  dialogueId: z.string().min(1),
  /** What ingest knew of the turn (src/domain/replyJob.ts); jobs queued elsewhere have none. */
  hints: hintsSchema.optional(),
});
export type RespondJob = z.infer<typeof respondJobSchema>;

export const respondJobId = (turnId: string) => `respond-${turnId}`;

export class RespondQueue {
  readonly queue: Queue<RespondJob>;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue<RespondJob>(RESPOND_QUEUE, {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: 24 * 3600, count: 10_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
  }

  /** `delayMs` holds the reply back (a Telegram album waiting for its other items). */
  async enqueue(job: RespondJob & { delayMs?: number }): Promise<void> {
    const { delayMs, ...data } = job;
    await this.queue.add('respond', data, { jobId: respondJobId(job.turnId), ...(delayMs ? { delay: delayMs } : {}) });
  }

  /** The sweeper's check: re-add a turn's job if it is gone (or finished while the turn is still pending). */
  async ensureQueued(job: RespondJob): Promise<'present' | 'requeued' | 'failed'> {
    const existing = await this.queue.getJob(respondJobId(job.turnId));
    if (existing) {
      const state = await existing.getState();
      if (state === 'failed') return 'failed'; // attempts exhausted: left for an operator, not retried forever
      if (state !== 'completed' && state !== 'unknown') return 'present';
      await existing.remove();
    }
    await this.enqueue(job);
    return 'requeued';
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
