// Retries of failed attachment processing (src/media/prepare.ts) as delayed BullMQ jobs, so a
// failed transcription gets its text even if nobody writes in the chat again. Job ids are
// derived from the message and the stored time of its next attempt, so scheduling the same
// retry twice (a second prepare, the sweep) adds one job.
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Store } from '../src/store/store.js';
import { nextRetryAt, prepareMessagesMedia, type PrepareMediaDeps } from '../src/media/prepare.js';
import { every, type Periodic } from './interval.js';

export const MEDIA_RETRY_QUEUE = 'media-retry';

const mediaRetryJob = z.object({ messageId: z.string().min(1), at: z.number() });
export type MediaRetryJob = z.infer<typeof mediaRetryJob>;

export const mediaRetryJobId = (messageId: string, at: Date) => `media-${messageId}-${at.getTime()}`;

export class MediaRetryQueue {
  readonly queue: Queue<MediaRetryJob>;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue<MediaRetryJob>(MEDIA_RETRY_QUEUE, {
      connection,
      prefix,
      // Job attempts cover infrastructure errors only; media failures are recorded, not thrown.
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
  }

  /** Re-runs the message's media preparation at `at` (an attachment's stored nextAttemptAt). */
  async retryAt(messageId: string, at: Date): Promise<void> {
    const job: MediaRetryJob = { messageId, at: at.getTime() };
    await this.queue.add('media-retry', job, {
      jobId: mediaRetryJobId(messageId, at),
      delay: Math.max(0, at.getTime() - Date.now()),
    });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

export interface MediaRetryWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  store: Store;
  /** The same deps the respond worker uses (scheduleRetry → MediaRetryQueue.retryAt). */
  deps: PrepareMediaDeps;
  log: Logger;
  concurrency?: number;
}

export function startMediaRetryWorker(o: MediaRetryWorkerOptions): Worker<MediaRetryJob> {
  const worker = new Worker<MediaRetryJob>(
    MEDIA_RETRY_QUEUE,
    async (job) => {
      const data = mediaRetryJob.parse(job.data);
      const message = await o.store.messages.get(data.messageId);
      if (!message) return 'message gone';
      // Due as of the scheduled time: a delayed job may fire a little early.
      const now = new Date(Math.max(Date.now(), data.at));
      const [prepared] = await prepareMessagesMedia(o.deps, [message], { now });
      const states = (prepared?.contentMeta?.attachments ?? []).map((a) => a.processing.state);
      return states.join(',');
    },
    { connection: o.connection, prefix: o.prefix, concurrency: o.concurrency ?? 2 },
  );
  worker.on('failed', (job, err) => o.log.error({ job: job?.id, err }, 'media retry job failed'));
  worker.on('error', (err) => o.log.error({ err }, 'media retry worker error'));
  return worker;
}

/**
 * Re-enqueues due retries whose job was lost (Redis flushed, scheduling failed). Idempotent:
 * the job id comes from the stored next-attempt time, so a job still waiting makes it a no-op.
 */
export async function sweepMediaRetries(
  store: Store,
  queue: MediaRetryQueue,
  maxAttempts: number,
  now = new Date(),
): Promise<number> {
  const due = await store.attachments.dueForRetry(now, maxAttempts);
  for (const m of due) {
    const at = nextRetryAt(m.contentMeta?.attachments ?? [], maxAttempts);
    if (at) await queue.retryAt(m._id, at);
  }
  return due.length;
}

/** Runs sweepMediaRetries on an interval (every worker may run one; sweeping is idempotent). */
export function startMediaSweeper(o: {
  store: Store;
  queue: MediaRetryQueue;
  maxAttempts: number;
  everyMs: number;
  log: Logger;
}): Periodic {
  return every(
    o.everyMs,
    async () => {
      const n = await sweepMediaRetries(o.store, o.queue, o.maxAttempts);
      if (n > 0) o.log.info({ messages: n }, 'media sweep enqueued due attachment retries');
    },
    (err) => o.log.error({ err }, 'media sweep failed'),
  );
}
