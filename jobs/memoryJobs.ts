// Memory work off the reply's critical path (SPEC §4.4): per-turn extraction and rolling
// summary, the summarise action, persona evolution and the nightly consolidation, on one BullMQ
// queue. Job ids derive from their subject so a job scheduled twice runs once; what each job
// does lives in src/ (the handlers), this file only wires the queue.
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { MemoryScheduler } from '../src/lifecycle/memoryWork.js';
import type { TurnFacts } from '../src/memory/extraction.js';

export const MEMORY_QUEUE = 'memory';

const noticeTarget = z.object({
  messageId: z.string(),
  dialogueId: z.string(),
  sessionId: z.string(),
  locale: z.enum(['zh-CN', 'en']),
  replyTo: z.string().optional(),
});
export type NoticeTarget = z.infer<typeof noticeTarget>;

/** src/memory/extraction.ts TurnFacts; jobs queued before it existed have none. */
const turnFacts = z.object({
  dialogueId: z.string(),
  sessionId: z.string(),
  ownerId: z.string(),
  subjectId: z.string(),
  groupChat: z.boolean(),
  agentName: z.string(),
  userName: z.string().optional(),
  origin: z.object({ dialogueId: z.string(), scope: z.enum(['private', 'group']) }).optional(),
}) satisfies z.ZodType<TurnFacts>;

const memoryJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('extract'), turnId: z.string(), facts: turnFacts.optional() }),
  z.object({ kind: z.literal('rolling-summary'), sessionId: z.string() }),
  z.object({
    kind: z.literal('summarize'),
    sessionId: z.string(),
    reason: z.enum(['command', 'api', 'idle']),
    notify: noticeTarget.optional(),
  }),
  z.object({ kind: z.literal('evolve'), agentId: z.string() }),
  z.object({ kind: z.literal('consolidate'), ownerId: z.string().optional(), subjectId: z.string().optional() }),
]);
export type MemoryJob = z.infer<typeof memoryJob>;

export interface MemoryJobHandlers {
  extract(turnId: string, facts?: TurnFacts): Promise<unknown>;
  rollingSummary(sessionId: string): Promise<unknown>;
  /** Resolves to 'busy' when the dialogue is replying: the job is retried shortly. */
  summarize(sessionId: string, reason: 'command' | 'api' | 'idle', notify?: NoticeTarget): Promise<unknown>;
  evolve(agentId: string): Promise<unknown>;
  consolidate(scope: { ownerId?: string; subjectId?: string }): Promise<unknown>;
}

export class MemoryQueue implements MemoryScheduler {
  readonly queue: Queue<MemoryJob>;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue<MemoryJob>(MEMORY_QUEUE, {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 2_000 },
        removeOnComplete: true,
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
  }

  /** After a reply: extract the turn's memories and fold the session's history if it grew. */
  async afterTurn(turnId: string, sessionId: string, o: { fold?: boolean; facts?: TurnFacts } = {}): Promise<void> {
    await this.queue.addBulk([
      {
        name: 'extract',
        data: { kind: 'extract', turnId, ...(o.facts ? { facts: o.facts } : {}) },
        opts: { jobId: `extract-${turnId}` },
      },
      // One per turn: a second run for the same state is a no-op (the summary is conditional).
      ...(o.fold === false
        ? []
        : [
            {
              name: 'rolling-summary',
              data: { kind: 'rolling-summary' as const, sessionId },
              opts: { jobId: `rsum-${sessionId}-${turnId}` },
            },
          ]),
    ]);
  }

  async summarize(sessionId: string, reason: 'command' | 'api' | 'idle', notify?: NoticeTarget): Promise<void> {
    const jobId = `summarize-${sessionId}`;
    // A failed job is kept (removeOnFail) under the same id, and BullMQ ignores an add whose id
    // exists: without this a failed summary could not be asked for again for a week. A waiting,
    // delayed or running one stays: the request is already queued.
    if ((await this.queue.getJobState(jobId)) === 'failed') await this.queue.remove(jobId);
    await this.queue.add(
      'summarize',
      { kind: 'summarize', sessionId, reason, ...(notify ? { notify } : {}) },
      { jobId },
    );
  }

  async evolve(agentId: string, at: Date): Promise<void> {
    await this.queue.add('evolve', { kind: 'evolve', agentId }, { jobId: `evolve-${agentId}-${at.getTime()}` });
  }

  async consolidate(scope: { ownerId?: string; subjectId?: string } = {}, at: Date = new Date()): Promise<void> {
    await this.queue.add(
      'consolidate',
      { kind: 'consolidate', ...scope },
      { jobId: `consolidate-${scope.ownerId ?? 'all'}-${scope.subjectId ?? 'all'}-${at.getTime()}` },
    );
  }

  /** The nightly consolidation as a BullMQ job scheduler (one per deployment, upserted at start). */
  async scheduleNightly(pattern: string, tz: string): Promise<void> {
    await this.queue.upsertJobScheduler(
      'nightly-consolidation',
      { pattern, tz },
      { name: 'consolidate', data: { kind: 'consolidate' } },
    );
  }

  async unscheduleNightly(): Promise<void> {
    await this.queue.removeJobScheduler('nightly-consolidation');
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/**
 * Runs its tasks one at a time, in call order. Consolidation is CPU work (clustering a scope's
 * vectors), unlike the other memory jobs, which mostly wait on the model: one at a time per
 * process, so a nightly pass never takes the CPU that replies need.
 */
function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** `concurrency`: memory jobs at once per process (MEMORY_CONCURRENCY); they mostly wait on the model. */
export function startMemoryWorker(o: {
  connection: ConnectionOptions;
  prefix: string;
  handlers: MemoryJobHandlers;
  log: Logger;
  concurrency?: number;
}): Worker<MemoryJob> {
  const heavy = oneAtATime();
  const worker = new Worker<MemoryJob>(
    MEMORY_QUEUE,
    async (job) => {
      const data = memoryJob.parse(job.data);
      switch (data.kind) {
        case 'extract':
          return o.handlers.extract(data.turnId, data.facts);
        case 'rolling-summary':
          return o.handlers.rollingSummary(data.sessionId);
        case 'summarize': {
          const r = await o.handlers.summarize(data.sessionId, data.reason, data.notify);
          // A reply of this dialogue is running: try again once it is over.
          if (r === 'busy') throw new Error('dialogue busy; retrying the summary');
          return r;
        }
        case 'evolve':
          return o.handlers.evolve(data.agentId);
        case 'consolidate':
          return heavy(() =>
            o.handlers.consolidate({
              ...(data.ownerId ? { ownerId: data.ownerId } : {}),
              ...(data.subjectId ? { subjectId: data.subjectId } : {}),
            }),
          );
      }
    },
    { connection: o.connection, prefix: o.prefix, concurrency: o.concurrency ?? 2 },
  );
  worker.on('failed', (job, err) =>
    o.log.warn({ job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, 'memory job failed'),
  );
  worker.on('error', (err) => o.log.error({ err }, 'memory worker error'));
  return worker;
}
