// The memory queue against the real Redis: a summary whose job failed can be asked for again at
// once (the failed job is kept a week under the same id, which BullMQ would otherwise take as
// "already queued"), while asking again for a summary still waiting queues nothing more.
import { randomBytes } from 'node:crypto';
import { UnrecoverableError, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { MemoryQueue, startMemoryWorker, type MemoryJob, type MemoryJobHandlers } from '../../jobs/memoryJobs.js';
import { createLogger } from '../../src/log.js';
import { eventually } from '../support/testEnv.js';

const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

describe('MemoryQueue.summarize', () => {
  let redis: Redis;
  let prefix: string;
  let queue: MemoryQueue;
  let worker: Worker<MemoryJob> | undefined;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    await redis.quit();
  });
  beforeEach(() => {
    prefix = `test-mq-${randomBytes(4).toString('hex')}`;
    queue = new MemoryQueue(redis, prefix);
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  const unused = (): Promise<never> => Promise.reject(new Error('not expected in this test'));
  /** A worker whose summaries fail for good (no retries): what a broken summary leaves behind. */
  function failingWorker(): Worker<MemoryJob> {
    const handlers: MemoryJobHandlers = {
      extract: unused,
      rollingSummary: unused,
      summarize: () => Promise.reject(new UnrecoverableError('the model refused')),
      evolve: unused,
      consolidate: unused,
    };
    return startMemoryWorker({ connection: redis, prefix, handlers, log, concurrency: 1 });
  }

  it('queues a summary again after the previous one failed', async () => {
    worker = failingWorker();
    await queue.summarize('ses_fail', 'command');
    await eventually(
      async () => (await queue.queue.getJobState('summarize-ses_fail')) === 'failed',
      10_000,
      'the summary failed',
    );
    await worker.close();
    worker = undefined;

    await queue.summarize('ses_fail', 'api');
    expect(await queue.queue.getJobState('summarize-ses_fail')).toBe('waiting');
    const job = await queue.queue.getJob('summarize-ses_fail');
    expect(job?.data).toEqual({ kind: 'summarize', sessionId: 'ses_fail', reason: 'api' });
    expect(job?.attemptsMade).toBe(0);
    expect(await queue.queue.getFailedCount()).toBe(0);
  });

  it('keeps a waiting summary as it is when asked again', async () => {
    await queue.summarize('ses_wait', 'command');
    await queue.summarize('ses_wait', 'api');
    expect(await queue.queue.getWaitingCount()).toBe(1);
    expect((await queue.queue.getJob('summarize-ses_wait'))?.data).toEqual({
      kind: 'summarize',
      sessionId: 'ses_wait',
      reason: 'command',
    });
  });
});
