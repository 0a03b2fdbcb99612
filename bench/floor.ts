// The floor: what any design with "store the message, queue a job, a worker picks it up" pays
// at least. One insertOne + one BullMQ add (the respond queue's own options) + the job reaching
// a Worker (same options as the respond worker) whose processor resolves at once.
import { MongoClient, type Collection } from 'mongodb';
import { Redis } from 'ioredis';
import { Worker } from 'bullmq';
import { RESPOND_QUEUE, RespondQueue, type RespondJob } from '../jobs/respondQueue.js';
import { runPool, withTimeout } from './concurrency.js';
import { perSecond } from './stats.js';

export interface FloorIteration {
  /** insertOne, ms. */
  insert: number;
  /** queue.add, ms. */
  enqueue: number;
  /** add resolved → processor started, ms. */
  toDequeue: number;
  /** before insert → processor started, ms. */
  total: number;
}

export interface FloorBurst {
  /** Per iteration: before insert → processor started, ms. */
  latencies: number[];
  /** First insert → last processor start, ms. */
  spanMs: number;
  perSecond: number;
  /** Insert+enqueue rate alone: iterations ÷ (first insert → last add resolved). */
  producedPerSecond: number;
}

export interface FloorRig {
  sequential(n: number, warmup: number): Promise<FloorIteration[]>;
  burst(n: number, producers: number): Promise<FloorBurst>;
  close(): Promise<void>;
}

interface FloorDoc {
  _id: string;
  text: string;
  at: Date;
}

export async function startFloor(o: {
  mongoUri: string;
  dbName: string;
  redisUrl: string;
  prefix: string;
  concurrency: number;
  lockMs: number;
}): Promise<FloorRig> {
  const client = await MongoClient.connect(o.mongoUri);
  const docs: Collection<FloorDoc> = client.db(o.dbName).collection<FloorDoc>('bench_floor');
  const redis = new Redis(o.redisUrl, { maxRetriesPerRequest: null });
  const queue = new RespondQueue(redis, o.prefix);
  const started = new Map<string, (at: number) => void>();
  const worker = new Worker<RespondJob>(
    RESPOND_QUEUE,
    (job) => {
      started.get(job.data.turnId)?.(performance.now());
      return Promise.resolve(); // nothing to do: the floor ends when the processor starts
    },
    {
      connection: redis,
      prefix: o.prefix,
      concurrency: o.concurrency,
      lockDuration: o.lockMs,
      stalledInterval: o.lockMs,
    },
  );
  await worker.waitUntilReady();
  let seq = 0;

  /** Insert + enqueue; `dequeued` resolves with the time the processor started on the job. */
  async function produce(): Promise<{ t0: number; t1: number; t2: number; dequeued: Promise<number> }> {
    const id = `floor-${seq++}`;
    const dequeued = new Promise<number>((res) => started.set(id, res)).finally(() => started.delete(id));
    const t0 = performance.now();
    await docs.insertOne({ _id: id, text: `bench floor ${id}`, at: new Date() });
    const t1 = performance.now();
    await queue.enqueue({ turnId: id, dialogueId: id });
    const t2 = performance.now();
    return { t0, t1, t2, dequeued };
  }

  async function once(): Promise<FloorIteration> {
    const { t0, t1, t2, dequeued } = await produce();
    const at = await withTimeout(dequeued, 30_000, 'a floor job to be dequeued');
    return { insert: t1 - t0, enqueue: t2 - t1, toDequeue: at - t2, total: at - t0 };
  }

  return {
    async sequential(n, warmup) {
      for (let i = 0; i < warmup; i++) await once();
      const out: FloorIteration[] = [];
      for (let i = 0; i < n; i++) out.push(await once());
      return out;
    },
    async burst(n, producers) {
      // Producers only insert+enqueue (like handleInbound); the worker drains behind them.
      const pending: Array<Promise<{ t0: number; at: number }>> = [];
      await runPool(n, producers, async () => {
        const p = await produce();
        pending.push(p.dequeued.then((at) => ({ t0: p.t0, at })));
      });
      const produced = performance.now();
      const done = await withTimeout(Promise.all(pending), 60_000, 'the floor burst to be dequeued');
      const first = Math.min(...done.map((d) => d.t0));
      const spanMs = Math.max(...done.map((d) => d.at)) - first;
      return {
        latencies: done.map((d) => d.at - d.t0),
        spanMs,
        perSecond: perSecond(n, spanMs),
        producedPerSecond: perSecond(n, produced - first),
      };
    },
    async close() {
      await worker.close();
      await queue.queue.obliterate({ force: true });
      await queue.close();
      await redis.quit();
      await client.close();
    },
  };
}
