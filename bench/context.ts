// The every-turn context (SPEC §5) over a long dialogue: one private chat of N turns through the
// whole pipeline, memory jobs included (extraction, rolling summary), waiting for them between
// turns as a real conversation's pauses would. From the `context_built` events it reports
//  - the total input tokens sent against a whole-history prompt of the same turns (ratio), and
//  - the context-build time against the bare reads a whole-history prompt needs (ratio), and
//  - once the long session has ended by the gap, the next session's build with the previous
//    session carried over (`carry_over_turns` 6) against without (0), turns alternating (ratio).
import { MongoClient, type Db } from 'mongodb';
import { Redis } from 'ioredis';
import { MemoryQueue } from '../jobs/memoryJobs.js';
import { TokenCounter } from '../src/llm/tokens.js';
import type { Message } from '../src/domain/model.js';
import { startPipeline } from './pipeline.js';
import { percentile } from './stats.js';
import { fmt, table } from './report.js';
import { withTimeout } from './concurrency.js';
import { memoryIdle } from './memoryIdle.js';

export interface ContextBenchResult {
  turns: number;
  oursTokens: number;
  wholeTokens: number;
  lastOurs: number;
  lastWhole: number;
  maxOurs: number;
  gather: { p50: number; p95: number };
  bare: { p50: number; p95: number };
  recall: { p50: number; p95: number };
  turnsFolded: number;
  memories: number;
  /** Builds of the session after the gap, alternating carry-over on (6 turns) and off. */
  carry: { on: { p50: number; p95: number }; off: { p50: number; p95: number }; turns: number; tokens: number };
}

/** Alternated turns per setting after the gap. */
const CARRY_TURNS = 20;

const TOPICS_EN = [
  'my job at the clinic',
  'the trip to Lisbon we planned',
  'my sister Emma',
  'learning the piano',
  'our cat Mochi',
  'the marathon in April',
  'cooking ramen at home',
];
const TOPICS_ZH = [
  '我在医院的工作',
  '我们计划去成都旅行',
  '我妹妹小雨',
  '学习弹钢琴',
  '我家的猫豆豆',
  '四月的马拉松',
  '在家做拉面',
];

/** A deterministic user message of 15–45 words, alternating English and Chinese. */
export function benchMessage(i: number): string {
  if (i % 2 === 0) {
    const topic = TOPICS_EN[i % TOPICS_EN.length]!;
    const extra = ' I keep thinking about it during the day and wonder what you would do in my place.'.repeat(
      1 + (i % 3),
    );
    return `Turn ${i}: let me tell you more about ${topic}.${extra}`;
  }
  const topic = TOPICS_ZH[i % TOPICS_ZH.length]!;
  return `第${i}轮：我想再跟你聊聊${topic}。${'这几天我一直在想这件事，不知道你会怎么看，也想听听你的建议。'.repeat(1 + (i % 3))}`;
}

/** A reply of about 40 words, as a companion's answers are. */
const benchReply = (): string =>
  'That sounds like it matters a lot to you. Tell me what part of it feels heaviest right now, and we can take it one step at a time. I remember what you told me before, so we can build on that together.';

export async function runContextBench(o: {
  mongoUri: string;
  redisUrl: string;
  dbName: string;
  prefix: string;
  turns: number;
  progress: (l: string) => void;
}): Promise<ContextBenchResult> {
  const rig = await startPipeline({
    mongoUri: o.mongoUri,
    redisUrl: o.redisUrl,
    dbName: o.dbName,
    prefix: o.prefix,
    concurrency: 2,
    streamEditMs: 50,
    reply: benchReply,
  });
  const redis = new Redis(o.redisUrl, { maxRetriesPerRequest: null });
  const memory = new MemoryQueue(redis, o.prefix);
  const client = await MongoClient.connect(o.mongoUri);
  try {
    const chat = rig.newChat();
    let dialogueId = '';
    let sessionId = '';
    for (let i = 1; i <= o.turns; i++) {
      const r = await rig.send(rig.event(chat, benchMessage(i)));
      if (r.kind !== 'accepted') throw new Error(`turn ${i} was not accepted: ${r.kind}`);
      dialogueId = r.dialogueId;
      sessionId = r.sessionId;
      await rig.finished(r.turnId);
      if (!(await memoryIdle(memory, 60_000))) throw new Error('memory jobs still running after 60000 ms');
      if (i % 20 === 0) o.progress(`context: ${i}/${o.turns} turns`);
    }
    const db = client.db(o.dbName);
    const builds = await db.collection('events').find({ kind: 'context_built', dialogueId }).sort({ at: 1 }).toArray();
    const carry = await carryOverBuilds(rig, db, { chat, dialogueId, sessionId, memory, progress: o.progress });
    const messages = (
      await db
        .collection<Message>('messages')
        .find({ dialogueId, senderRole: { $in: ['human', 'ai'] } })
        .sort({ createdAt: 1, _id: 1 })
        .toArray()
    ).filter((m) => m.visible && !m.rejected);

    // Whole-history baseline: the same fixed parts plus every message of the dialogue so far.
    const counter = new TokenCounter();
    let whole = 0;
    let lastWhole = 0;
    let ours = 0;
    let lastOurs = 0;
    let maxOurs = 0;
    const turnIdsInOrder = builds.map((b) => String(b.turnId));
    for (const [i, b] of builds.entries()) {
      const data = b.data as { totalTokens: number; parts: Record<string, { tokens: number }> };
      ours += data.totalTokens;
      lastOurs = data.totalTokens;
      maxOurs = Math.max(maxOurs, data.totalTokens);
      const upTo = new Set(turnIdsInOrder.slice(0, i + 1));
      const shown = messages.filter(
        (m) =>
          m.turnId !== undefined && upTo.has(m.turnId) && !(m.senderRole === 'ai' && m.turnId === turnIdsInOrder[i]),
      );
      const fixed = (data.parts.prefix?.tokens ?? 0) + (data.parts.clock?.tokens ?? 0);
      const t =
        fixed +
        counter.countMessages(
          shown.map((m) => ({ role: m.senderRole === 'ai' ? 'assistant' : 'user', content: m.content })),
        );
      whole += t;
      lastWhole = t;
    }

    // The bare reads a whole-history prompt needs: the agent and the session's messages.
    const bareSamples: number[] = [];
    for (let i = 0; i < Math.max(20, builds.length); i++) {
      const started = performance.now();
      await Promise.all([
        db.collection('agents').findOne({ _id: 'agt_default' as never }),
        db.collection('messages').find({ sessionId }).sort({ createdAt: 1 }).toArray(),
      ]);
      bareSamples.push(performance.now() - started);
    }
    const gatherSamples = builds.map((b) => Number((b.data as { gatherMs: number }).gatherMs));
    const recallSamples = builds.flatMap((b) => {
      const r = (b.data as { recall?: { timings?: { totalMs: number } } | null }).recall;
      return r?.timings ? [r.timings.totalMs] : [];
    });
    const session = await db.collection('sessions').findOne({ _id: sessionId as never });
    const memories = await db
      .collection('memories')
      .countDocuments({ 'sources.dialogueId': dialogueId, status: 'active' });
    const p = (s: number[]) => ({ p50: percentile(s, 50), p95: percentile(s, 95) });
    return {
      turns: builds.length,
      oursTokens: ours,
      wholeTokens: whole,
      lastOurs,
      lastWhole,
      maxOurs,
      gather: p(gatherSamples),
      bare: p(bareSamples),
      recall: p(recallSamples),
      turnsFolded: Number((session?.rollingSummary as { turnsFolded?: number } | undefined)?.turnsFolded ?? 0),
      memories,
      carry,
    };
  } finally {
    await withTimeout(rig.close(), 30_000, 'closing the context bench pipeline').catch((err: unknown) =>
      o.progress(`context: close failed: ${String(err)}`),
    );
    await memory.close();
    // Memory version counters and leases of this run (queues are obliterated by rig.close()).
    const left = await redis.keys(`${o.prefix}*`);
    if (left.length > 0) await redis.del(...left);
    await redis.quit();
    await client.close();
  }
}

/**
 * The long session ends by the gap (its last activity moved two hours back), so the next message
 * opens a session carrying its end; then turns alternate carry-over on and off.
 */
async function carryOverBuilds(
  rig: Awaited<ReturnType<typeof startPipeline>>,
  db: Db,
  o: { chat: string; dialogueId: string; sessionId: string; memory: MemoryQueue; progress: (l: string) => void },
): Promise<ContextBenchResult['carry']> {
  const ended = new Date(Date.now() - 2 * 3_600_000);
  await db.collection('sessions').updateOne({ _id: o.sessionId as never }, { $set: { lastActivityAt: ended } });
  o.progress(`context: ${2 * CARRY_TURNS} turns after the gap, carry-over on and off in turn`);
  const on: number[] = [];
  const off: number[] = [];
  let tokens = 0;
  for (let i = 0; i < 2 * CARRY_TURNS; i++) {
    const carrying = i % 2 === 0;
    await rig.app.store.config.update({ thresholds: { carry_over_turns: carrying ? 6 : 0 } }, new Date());
    // Every measured turn is a young session's (the carried turns are read while it has at most
    // carry_over_turns of its own): the worst case, the long previous window read each time.
    await db
      .collection('sessions')
      .updateOne({ dialogueId: o.dialogueId, status: 'open' }, { $set: { 'stats.turnCount': 0 } });
    const r = await rig.send(rig.event(o.chat, benchMessage(1000 + i)));
    if (r.kind !== 'accepted') throw new Error(`turn after the gap was not accepted: ${r.kind}`);
    await rig.finished(r.turnId);
    if (!(await memoryIdle(o.memory, 60_000))) throw new Error('memory jobs still running after 60000 ms');
    const built = await db.collection('events').findOne({ kind: 'context_built', turnId: r.turnId });
    const data = built?.data as { gatherMs: number; parts: Record<string, { tokens: number }> } | undefined;
    if (!data) throw new Error(`no context_built event for turn ${r.turnId}`);
    const carried = data.parts.previous?.tokens ?? 0;
    if (carrying !== carried > 0)
      throw new Error(`turn ${i} after the gap: carry-over ${carrying ? 'missing' : 'present'}`);
    (carrying ? on : off).push(data.gatherMs);
    tokens = Math.max(tokens, carried);
  }
  const p = (s: number[]) => ({ p50: percentile(s, 50), p95: percentile(s, 95) });
  return { on: p(on), off: p(off), turns: CARRY_TURNS, tokens };
}

export function contextTable(r: ContextBenchResult): string {
  return table(
    ['measure', 'whole-history baseline', 'rebuilt context (ours)', 'ratio'],
    [
      [
        `total input tokens, ${r.turns} turns`,
        String(r.wholeTokens),
        String(r.oursTokens),
        `${fmt(r.oursTokens / r.wholeTokens)}×`,
      ],
      [
        `prompt tokens at turn ${r.turns}`,
        String(r.lastWhole),
        String(r.lastOurs),
        `${fmt(r.lastOurs / r.lastWhole)}×`,
      ],
      [
        'context build p50 (ms; baseline = bare reads)',
        fmt(r.bare.p50),
        fmt(r.gather.p50),
        `${fmt(r.gather.p50 / r.bare.p50)}×`,
      ],
      [
        'context build p95 (ms; baseline = bare reads)',
        fmt(r.bare.p95),
        fmt(r.gather.p95),
        `${fmt(r.gather.p95 / r.bare.p95)}×`,
      ],
      [
        `context build p50 after the gap (ms; baseline = carry-over off, ${r.carry.turns} turns each)`,
        fmt(r.carry.off.p50),
        fmt(r.carry.on.p50),
        `${fmt(r.carry.on.p50 / r.carry.off.p50)}×`,
      ],
    ],
  );
}

export function contextNotes(r: ContextBenchResult): string[] {
  return [
    `Largest prompt of the run: ${r.maxOurs} tokens; ${r.turnsFolded} turns folded into the rolling summary; ${r.memories} active memories extracted by the fake model.`,
    `Active recall inside the build: p50 ${fmt(r.recall.p50)} ms, p95 ${fmt(r.recall.p95)} ms (embeddings from the local fake OpenAI server over HTTP).`,
    `Carry-over after the gap: 6 turns of the previous (${r.turns}-turn) session, ${r.carry.tokens} tokens, read from its working window while the new session has at most 6 turns (each measured turn is made such a turn; later turns read only its summary); build p95 ${fmt(r.carry.on.p95)} ms on, ${fmt(r.carry.off.p95)} ms off.`,
    'Context build = every part fetched and counted (config, agent, session, history, seed, recall, persona card, tone, tokenizer); bare reads = the agent and the session messages only.',
  ];
}
