// Delayed jobs (SPEC §4.4) on one BullMQ queue: turn expiry, idle-session close, proactive
// check-in. Delayed jobs are stored in Redis, so they fire after any process restarts. Job ids
// are derived from their subject, so scheduling the same thing twice adds one job.
import { DelayedError, Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Scheduler } from '../src/lifecycle/scheduler.js';
import type { Store } from '../src/store/store.js';
import { expireTurn } from '../src/lifecycle/expireTurn.js';
import { closeIdleSession } from '../src/lifecycle/closeIdleSession.js';
import { BUSY_RETRY_MS } from './respondWorker.js';

export const TIMERS_QUEUE = 'timers';
/** How long a reply stopped at its room's deadline has to end before its ask is skipped anyway. */
const STOP_GRACE_MS = 5_000;

const timerJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('expire-turn'), turnId: z.string() }),
  z.object({ kind: z.literal('check-session'), sessionId: z.string() }),
  z.object({ kind: z.literal('check-in'), dialogueId: z.string(), since: z.number() }),
  // `stopping`: its reply was told to stop at the deadline; this later check skips it if it did not end.
  z.object({ kind: z.literal('room-answer-due'), turnId: z.string(), stopping: z.boolean().optional() }),
]);
export type TimerJob = z.infer<typeof timerJob>;

export class TimerQueue implements Scheduler {
  readonly queue: Queue<TimerJob>;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue<TimerJob>(TIMERS_QUEUE, {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
  }

  private async at(job: TimerJob, id: string, when: Date): Promise<void> {
    await this.queue.add(job.kind, job, { jobId: id, delay: Math.max(0, when.getTime() - Date.now()) });
  }

  expireTurnAt(turnId: string, at: Date): Promise<void> {
    return this.at({ kind: 'expire-turn', turnId }, `expire-${turnId}`, at);
  }

  checkSessionAt(sessionId: string, at: Date): Promise<void> {
    return this.at({ kind: 'check-session', sessionId }, `session-${sessionId}-${at.getTime()}`, at);
  }

  checkInAt(dialogueId: string, since: Date, at: Date): Promise<void> {
    return this.at(
      { kind: 'check-in', dialogueId, since: since.getTime() },
      `checkin-${dialogueId}-${since.getTime()}`,
      at,
    );
  }

  roomAnswerDueAt(turnId: string, at: Date): Promise<void> {
    return this.at({ kind: 'room-answer-due', turnId }, `roomdue-${turnId}`, at);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

export interface TimerWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  store: Store;
  scheduler: Scheduler;
  sessionGapMs: number;
  log: Logger;
  /** `generate({ kind: 'check-in', … })`: 'busy' while the dialogue has a reply in progress (the job waits). */
  checkIn(dialogueId: string, since: Date, now: Date): Promise<string>;
  /** A session closed after the gap: its summary and memories are due (SPEC §4.4). */
  onSessionClosed?(sessionId: string): Promise<void>;
  /** A room's ask passed its deadline (src/rooms/roomFlow.ts askDue). */
  roomAnswerDue(turnId: string, now: Date, o: { force: boolean }): Promise<string>;
}

export function startTimerWorker(o: TimerWorkerOptions): Worker<TimerJob> {
  const worker = new Worker<TimerJob>(
    TIMERS_QUEUE,
    async (job, token?: string) => {
      const data = timerJob.parse(job.data);
      const now = new Date();
      switch (data.kind) {
        case 'expire-turn':
          return expireTurn(o.store, data.turnId, now);
        case 'check-session': {
          const r = await closeIdleSession(o.store, data.sessionId, now, o.sessionGapMs);
          if (r.kind === 'recheck') await o.scheduler.checkSessionAt(data.sessionId, r.at);
          if (r.kind === 'closed') await o.onSessionClosed?.(data.sessionId);
          return r.kind;
        }
        case 'room-answer-due': {
          const r = await o.roomAnswerDue(data.turnId, now, { force: data.stopping === true });
          if (r !== 'stopping') return r;
          await job.updateData({ ...data, stopping: true });
          await job.moveToDelayed(Date.now() + STOP_GRACE_MS, token);
          throw new DelayedError();
        }
        case 'check-in': {
          const r = await o.checkIn(data.dialogueId, new Date(data.since), now);
          if (r !== 'busy') return r;
          await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
          throw new DelayedError();
        }
      }
    },
    { connection: o.connection, prefix: o.prefix, concurrency: 4 },
  );
  worker.on('failed', (job, err) => o.log.error({ job: job?.name, err }, 'timer job failed'));
  worker.on('error', (err) => o.log.error({ err }, 'timer worker error'));
  return worker;
}
