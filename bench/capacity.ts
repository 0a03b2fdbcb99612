// BENCH_ONLY=capacity (issue 34): replies under a real model's latency, measured from outside.
// The gateway runs as real processes (`app/main.ts`, as `npm start` does) — one process with
// every role, or a gateway + api process and two workers on the same Redis and MongoDB — against
// a fake Telegram and a fake model with a realistic profile: first token after 0.6–1.0 s, then
// 32–48 tokens a second in chunks of four, 150–300 tokens a reply. N private chats each write a
// message every 20–40 s (the first at a random moment of the first 30 s) for the load window;
// memory jobs run as they do in production (the fake answers extraction like a compliant model,
// after 1–3 s).
// From the record: a reply's overhead is its turn's start to its delivery minus the model's own
// time; its queue wait is the turn's start to the model call's start. CPU and peak RSS come from
// /proc for every gateway process, the MongoDB-wire server and this process (the fakes).
import { readFileSync } from 'node:fs';
import { MongoClient, type Db } from 'mongodb';
import { Redis } from 'ioredis';
import type { Message, Turn, EventLog } from '../src/domain/model.js';
import { startFakeOpenAI, type ChatRequestBody, type FakeOpenAI, type ScriptStep } from '../test/doubles/fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram } from '../test/doubles/fakeTelegram.js';
import { runMain, type Child } from '../test/support/childProcess.js';
import { privateText } from '../test/fixtures/telegramUpdates.js';
import { intFromEnv } from './config.js';
import { percentile } from './stats.js';
import { sleep } from './concurrency.js';
import { freePort } from '../src/localServices/reachability.js';
import { sample } from '../test/support/promText.js';
import { mostAtOnce } from '../test/support/intervals.js';
import { OTHER, STORE_COMMAND_LABELS } from '../src/metrics/labels.js';

export type CapacityShape = 'one process' | 'gateway + 2 workers';

export interface CapacityConfig {
  chats: number[];
  /** Seconds of load; every chat writes every 20–40 s within it. */
  loadSeconds: number;
  shapes: CapacityShape[];
}

export interface ProcessUsage {
  name: string;
  /** Share of one core over the load window and drain. */
  cpu: number;
  peakRssMiB: number;
}

export interface CapacityResult {
  shape: CapacityShape;
  chats: number;
  messages: number;
  replies: number;
  /** Messages without a delivered reply when the drain gave up. */
  unanswered: number;
  overheadMs: { p50: number; p95: number; p99: number };
  queueWaitMs: { p50: number; p95: number; p99: number; max: number };
  modelMs: { p50: number };
  mostStreams: number;
  /** Mean seconds per reply stage (the processes' own histograms): queue, context, model, delivery; and the respond queue's job wait. */
  stageMeans: Record<string, number>;
  processes: ProcessUsage[];
}

export function loadCapacityConfig(): CapacityConfig {
  const chats = (process.env.BENCH_CAPACITY_CHATS ?? '100,300,1000')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  const shapes: CapacityShape[] = ['one process', 'gateway + 2 workers'];
  const only = process.env.BENCH_CAPACITY_SHAPE;
  return {
    chats,
    loadSeconds: intFromEnv('BENCH_CAPACITY_SECONDS', 90),
    shapes: only === 'split' ? [shapes[1]!] : only === 'one' ? [shapes[0]!] : shapes,
  };
}

const OPS_TOKEN = 'bench-capacity-admin-token-000';

const uniform = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

/** A streamed reply shaped like a hosted model's: TTFT, then tokens at a steady pace. */
function modelStep(body: ChatRequestBody): ScriptStep {
  const last = body.messages.findLast((m) => m.role === 'user');
  const asked = typeof last?.content === 'string' ? last.content.slice(0, 40) : '';
  const tokens = Math.round(uniform(150, 300));
  const words = Array.from({ length: tokens }, (_, i) => (i % 12 === 11 ? '好的。 ' : 'word '));
  const chunks: string[] = [`re ${asked}: `];
  for (let i = 0; i < words.length; i += 4) chunks.push(words.slice(i, i + 4).join(''));
  return {
    kind: 'reply',
    chunks,
    firstByteDelayMs: Math.round(uniform(600, 1000)),
    chunkDelayMs: Math.round((4 / uniform(32, 48)) * 1000),
  };
}

/** User + system CPU seconds and peak RSS of a Linux process. */
function procUsage(pid: number): { cpuS: number; peakRssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return { cpuS: ticks / 100, peakRssMiB: hwm / 1024 };
}

interface Rig {
  tg: FakeTelegram;
  llm: FakeOpenAI;
  children: Array<{ name: string; child: Child; metricsUrl: string }>;
  db: Db;
  close(): Promise<void>;
}

async function startRig(o: {
  shape: CapacityShape;
  mongoUri: string;
  redisUrl: string;
  dbName: string;
  prefix: string;
}): Promise<Rig> {
  const tg = await startFakeTelegram();
  // Background tasks (extraction, summaries) take a hosted model's 1–3 s too.
  const llm = await startFakeOpenAI({ defaultStep: modelStep, taskFirstByteDelayMs: () => uniform(1000, 3000) });
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    LOCAL_SERVICES: 'off',
    MONGODB_URI: o.mongoUri,
    MONGODB_DB: o.dbName,
    REDIS_URL: o.redisUrl,
    QUEUE_PREFIX: o.prefix,
    OPENAI_API_KEY: 'sk-bench-not-real-0000000000',
    OPENAI_BASE_URL: llm.baseURL,
    TELEGRAM_BOT_TOKEN: '123456:BENCH-capacity-token-000000000000',
    TELEGRAM_API_ROOT: tg.apiRoot,
    // One bot at 1 000 messages a second stands in for several bots: a bot's ~30/s is not measured here.
    TELEGRAM_GLOBAL_PER_SECOND: '1000',
    TELEGRAM_DRAFTS: 'off',
    OPS_TOKENS: `bench:admin:${OPS_TOKEN}`,
    ...(process.env.BENCH_CAPACITY_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.BENCH_CAPACITY_CONCURRENCY } : {}),
  };
  // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a CPU profile of each gateway process.
  const nodeArgs = (process.env.BENCH_CAPACITY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const roles: Array<{ name: string; args: string[] }> =
    o.shape === 'one process'
      ? [{ name: 'gateway (all roles)', args: [] }]
      : [
          { name: 'gateway + api', args: ['--role', 'gateway', '--role', 'api'] },
          { name: 'worker 1', args: ['--role', 'worker'] },
          { name: 'worker 2', args: ['--role', 'worker'] },
        ];
  // Each process serves its own /metrics (a worker alone with METRICS=on), read at the end.
  const children: Rig['children'] = [];
  for (const r of roles) {
    const port = await freePort();
    const child = runMain({ ...env, PORT: String(port), METRICS: 'on' }, r.args, nodeArgs);
    children.push({ name: r.name, child, metricsUrl: `http://127.0.0.1:${port}/metrics` });
  }
  const client = await MongoClient.connect(o.mongoUri);
  const db = client.db(o.dbName);
  const close = async () => {
    await Promise.all(children.map((c) => c.child.stop()));
    await dropKeys(o.redisUrl, o.prefix);
    await db.dropDatabase().catch(() => {});
    await client.close();
    await tg.close();
    await llm.close();
  };
  try {
    await warmUp(tg, db, children);
  } catch (err) {
    await close();
    throw err;
  }
  return { tg, llm, children, db, close };
}

/** The run's queues and budgets, so the next case starts from an empty Redis. */
async function dropKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>)
      if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** One message answered end to end: every process is up (the workers took a job, or one did). */
async function warmUp(tg: FakeTelegram, db: Db, children: Rig['children']): Promise<void> {
  tg.pushUpdate(privateText({ updateId: 1, chatId: 1, text: 'warm up' }));
  const until = Date.now() + 120_000;
  while ((await db.collection<EventLog>('events').countDocuments({ kind: 'delivery' })) < 1) {
    const dead = children.find((c) => c.child.process.exitCode !== null);
    if (dead || Date.now() > until)
      throw new Error(
        `capacity bench: ${dead?.name ?? 'the gateway'} did not answer:\n${(dead ?? children[0]!).child.output().slice(-3000)}`,
      );
    await sleep(200);
  }
}

/** Each chat writes every 20–40 s, starting within the first 30 s, until the window ends. */
async function drive(tg: FakeTelegram, chats: number, loadMs: number): Promise<number> {
  const start = Date.now();
  let updateId = 10;
  let sent = 0;
  const plan: Array<{ at: number; chat: number }> = [];
  for (let c = 0; c < chats; c++)
    for (let at = uniform(0, 30_000); at < loadMs; at += uniform(20_000, 40_000)) plan.push({ at, chat: c });
  plan.sort((a, b) => a.at - b.at);
  for (const p of plan) {
    const wait = start + p.at - Date.now();
    if (wait > 0) await sleep(wait);
    const chatId = 5_000_000 + p.chat;
    tg.pushUpdate(
      privateText({ updateId: ++updateId, chatId, firstName: `U${p.chat}`, text: `m${++sent} 你好 in chat ${p.chat}` }),
    );
  }
  return sent;
}

/** Waits until every human message's turn is answered and delivered (or the drain times out). */
async function drain(db: Db, expected: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  let delivered = 0;
  while (Date.now() < until) {
    // The warm-up's reply is one delivery more than the load's.
    delivered = (await db.collection<EventLog>('events').countDocuments({ kind: 'delivery' })) - 1;
    const humans = await db.collection<Message>('messages').countDocuments({ senderRole: 'human' });
    const turns = await db.collection<Turn>('turns').countDocuments({});
    if (humans >= expected + 1 && delivered >= turns - 1) return 0;
    await sleep(2_000);
  }
  return Math.max(0, expected - delivered);
}

const STAGES = ['queue', 'context', 'model', 'delivery'] as const;

/**
 * Mean seconds per reply stage, summed over the processes' histograms, the respond queue's job
 * wait and a store command's answer.
 */
async function stageMeans(children: Rig['children']): Promise<Record<string, number>> {
  const sums = new Map<string, { sum: number; count: number }>();
  const add = (key: string, text: string, name: string, labels: Record<string, string>) => {
    const acc = sums.get(key) ?? { sum: 0, count: 0 };
    acc.sum += sample(text, `${name}_sum`, labels) ?? 0;
    acc.count += sample(text, `${name}_count`, labels) ?? 0;
    sums.set(key, acc);
  };
  for (const c of children) {
    const r = await fetch(c.metricsUrl, { headers: { authorization: `Bearer ${OPS_TOKEN}` } }).catch(() => undefined);
    if (!r?.ok) continue;
    const text = await r.text();
    for (const stage of STAGES) add(stage, text, 'rainbow_reply_stage_seconds', { stage });
    add('job wait', text, 'rainbow_queue_wait_seconds', { queue: 'respond' });
    for (const command of [...STORE_COMMAND_LABELS, OTHER])
      add('store command', text, 'rainbow_store_command_seconds', { command });
  }
  return Object.fromEntries([...sums].map(([k, v]) => [k, v.count ? v.sum / v.count : NaN]));
}

const pcts = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99) });

async function fromRecord(db: Db, since: Date) {
  const turns = new Map((await db.collection<Turn>('turns').find({}).toArray()).map((t) => [t._id, t] as const));
  const events = await db
    .collection<EventLog>('events')
    .find({ kind: { $in: ['llm_call', 'delivery'] }, at: { $gte: since } })
    .toArray();
  const calls = new Map<string, EventLog>();
  for (const e of events) if (e.kind === 'llm_call' && e.data.task === undefined && e.turnId) calls.set(e.turnId, e);
  const overhead: number[] = [];
  const wait: number[] = [];
  const model: number[] = [];
  const streams: Array<[number, number]> = [];
  for (const d of events) {
    if (d.kind !== 'delivery' || !d.turnId) continue;
    const turn = turns.get(d.turnId);
    const call = calls.get(d.turnId);
    if (!turn || !call || turn.startedAt < since) continue;
    const duration = Number(call.data.durationMs);
    const callStart = call.at.getTime() - duration;
    overhead.push(d.at.getTime() - turn.startedAt.getTime() - duration);
    wait.push(callStart - turn.startedAt.getTime());
    model.push(duration);
    streams.push([callStart, call.at.getTime()]);
  }
  return { overhead, wait, model, streams };
}

export async function runCapacityCase(o: {
  shape: CapacityShape;
  chats: number;
  loadSeconds: number;
  mongoUri: string;
  redisUrl: string;
  mongoPid?: number;
  dbName: string;
  prefix: string;
  progress: (line: string) => void;
}): Promise<CapacityResult> {
  const rig = await startRig(o);
  try {
    const pids = [
      ...rig.children.map((c) => ({ name: c.name, pid: c.child.process.pid! })),
      ...(o.mongoPid ? [{ name: 'FerretDB', pid: o.mongoPid }] : []),
      { name: 'bench (fake model + Telegram)', pid: process.pid },
    ];
    const before = pids.map((p) => procUsage(p.pid));
    const t0 = Date.now();
    const since = new Date(t0);
    o.progress(`capacity: ${o.shape}, ${o.chats} chats for ${o.loadSeconds} s`);
    const messages = await drive(rig.tg, o.chats, o.loadSeconds * 1000);
    const unanswered = await drain(rig.db, messages, 180_000);
    const seconds = (Date.now() - t0) / 1000;
    const processes = pids.map((p, i) => {
      const after = procUsage(p.pid);
      return { name: p.name, cpu: (after.cpuS - before[i]!.cpuS) / seconds, peakRssMiB: after.peakRssMiB };
    });
    const r = await fromRecord(rig.db, since);
    const means = await stageMeans(rig.children);
    return {
      shape: o.shape,
      chats: o.chats,
      messages,
      replies: r.overhead.length,
      unanswered,
      overheadMs: pcts(r.overhead),
      queueWaitMs: { ...pcts(r.wait), max: Math.max(...r.wait) },
      modelMs: { p50: percentile(r.model, 50) },
      mostStreams: mostAtOnce(r.streams),
      stageMeans: means,
      processes,
    };
  } finally {
    await rig.close();
  }
}

const ms = (x: number) =>
  x >= 10_000 ? `${(x / 1000).toFixed(0)} s` : x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`;

/** A target holds: overhead p95 ≤ 500 ms, no queue wait over 1 s, nothing left unanswered. */
export const holds = (r: CapacityResult) => r.overheadMs.p95 <= 500 && r.queueWaitMs.max <= 1000 && r.unanswered === 0;

export function capacityTable(rs: CapacityResult[]): string {
  const head = [
    '| shape | chats | messages | replies | overhead p50 / p95 / p99 | queue wait p50 / p95 / max | model p50 | streams at once | stage means: job wait · queue · context · model · delivery | store command mean | CPU (share of a core) and peak RSS | holds |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const rows = rs.map((r) =>
    [
      r.shape,
      r.chats,
      r.messages,
      `${r.replies}${r.unanswered ? ` (${r.unanswered} unanswered)` : ''}`,
      `${ms(r.overheadMs.p50)} / ${ms(r.overheadMs.p95)} / ${ms(r.overheadMs.p99)}`,
      `${ms(r.queueWaitMs.p50)} / ${ms(r.queueWaitMs.p95)} / ${ms(r.queueWaitMs.max)}`,
      ms(r.modelMs.p50),
      r.mostStreams,
      ['job wait', ...STAGES].map((k) => ms((r.stageMeans[k] ?? NaN) * 1000)).join(' · '),
      ms((r.stageMeans['store command'] ?? NaN) * 1000),
      r.processes.map((p) => `${p.name} ${Math.round(p.cpu * 100)} %, ${Math.round(p.peakRssMiB)} MiB`).join('; '),
      holds(r) ? 'yes' : 'no',
    ].join(' | '),
  );
  return [...head, ...rows.map((r) => `| ${r} |`)].join('\n');
}
