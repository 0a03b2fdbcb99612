// Self-reflection on BullMQ: one job per run (job id = run id, so a run is queued once; not
// retried: a failed run is recorded as failed and a new one is a new trigger) and the
// schedule's tick, a job scheduler every minute that asks src/reflection/schedule.ts which
// agents are due. What the jobs do lives in src/reflection; this file only wires the queue.
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ReflectionQueuePort } from '../src/reflection/deps.js';

export const REFLECTION_QUEUE = 'reflection';
const TICK = 'reflection-tick';

const reflectionJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), reflectionId: z.string(), agentId: z.string() }),
  z.object({ kind: z.literal('tick') }),
]);
export type ReflectionJob = z.infer<typeof reflectionJob>;

export interface ReflectionJobHandlers {
  run(reflectionId: string): Promise<unknown>;
  /** The schedule's tick at `now`. */
  tick(now: Date): Promise<unknown>;
}

export class ReflectionQueue implements ReflectionQueuePort {
  readonly queue: Queue<ReflectionJob>;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue<ReflectionJob>(REFLECTION_QUEUE, {
      connection,
      prefix,
      defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
    });
  }

  async enqueueRun(job: { reflectionId: string; agentId: string }): Promise<void> {
    await this.queue.add('run', { kind: 'run', ...job }, { jobId: job.reflectionId });
  }

  /** The tick as a job scheduler (one per deployment, upserted at start). */
  async scheduleTick(everyMs = 60_000): Promise<void> {
    await this.queue.upsertJobScheduler(TICK, { every: everyMs }, { name: 'tick', data: { kind: 'tick' } });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

export function startReflectionWorker(o: {
  connection: ConnectionOptions;
  prefix: string;
  handlers: ReflectionJobHandlers;
  log: Logger;
  /** Runs of different agents go side by side (one agent's runs are kept apart by its lock). */
  concurrency?: number;
}): Worker<ReflectionJob> {
  const worker = new Worker<ReflectionJob>(
    REFLECTION_QUEUE,
    async (job) => {
      const data = reflectionJob.parse(job.data);
      return data.kind === 'run' ? o.handlers.run(data.reflectionId) : o.handlers.tick(new Date());
    },
    { connection: o.connection, prefix: o.prefix, concurrency: o.concurrency ?? 2 },
  );
  worker.on('failed', (job, err) =>
    o.log.warn({ job: job?.name, jobId: job?.id, err: err.message }, 'reflection job failed'),
  );
  worker.on('error', (err) => o.log.error({ err }, 'reflection worker error'));
  return worker;
}
