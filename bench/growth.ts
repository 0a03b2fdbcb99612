// The pipeline scenario at growing store sizes: per size a fresh database and a fresh app, one
// real turn whose documents become the padding's templates, the padding itself (history of
// `size` messages with their turns, sessions, events, chats and memories), then timed turns
// with the memory jobs running as in the app, counting every database command they cause.
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import { collections, type Collections } from '../src/store/collections.js';
import { intFromEnv } from './config.js';
import type { PipelineRig } from './pipeline.js';
import { oneTurn, type OneTurnOptions, type TurnTiming } from './turns.js';
import { memoryIdle } from './memoryIdle.js';
import { cpuSince, cpuSnapshot, type CpuSnapshot } from './cpu.js';
import { CommandTally, withCommandMonitoring, type TallyCounts } from './commandTally.js';
import { captureTemplates } from './growthTemplates.js';
import { padStore } from './growthPadding.js';
import { humanText } from './growthDocs.js';

export interface GrowthConfig {
  /** Stored messages to pad to, ascending; each size gets its own database. */
  sizes: number[];
  /** Timed sequential turns, a new chat each. */
  turns: number;
  /** Timed sequential turns in one chat. */
  chatTurns: number;
  /** Untimed turns after padding, before the timed ones. */
  warmup: number;
  /** Seconds the timed turns of one size may take, projected from the warm-up; 0 = no limit. */
  budgetS: number;
}

export function loadGrowthConfig(): GrowthConfig {
  const raw = process.env.BENCH_GROWTH_SIZES?.trim();
  const sizes = raw ? raw.split(',').map((s) => Number(s.trim())) : [0, 10_000, 100_000];
  if (sizes.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`BENCH_GROWTH_SIZES must be comma-separated whole numbers ≥ 0 (got "${raw}")`);
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    turns: intFromEnv('BENCH_GROWTH_TURNS', 30),
    chatTurns: intFromEnv('BENCH_GROWTH_CHAT_TURNS', 20),
    warmup: intFromEnv('BENCH_GROWTH_WARMUP', 3, 0),
    budgetS: intFromEnv('BENCH_GROWTH_BUDGET_S', 1800, 0),
  };
}

/** The same pause after every turn at every size, so sizes compare: the memory jobs done or this long. */
const MEMORY_WAIT_MS = 5_000;
/** Before and after the counted turns: long enough for leftover memory work not to leak across. */
const SETTLE_MS = 10 * 60_000;
/** A turn at 100 000 messages on FerretDB can take minutes. */
const FINISH_TIMEOUT_MS = 30 * 60_000;

export interface GrowthSizeResult {
  size: number;
  /** Stored after padding (the template turn included), before any measured turn. */
  messages: number;
  docs: number;
  /** Documents per collection after padding. */
  perCollection: Record<string, number>;
  padSeconds: number;
  padInserted: number;
  contextEventBytes: number;
  eventsPerTurn: number;
  memoryFromTurn: boolean;
  newChat: TurnTiming[];
  sameChat: TurnTiming[];
  /** CPU over the counted new-chat turns (their memory jobs included). */
  cpu: CpuSnapshot;
  commands: TallyCounts;
  /** Post-turn waits that hit MEMORY_WAIT_MS with memory jobs still running. */
  memoryWaitCapped: number;
  /** Whether the memory queue was idle when counting stopped (else later commands were missed). */
  settled: boolean;
  /** Why fewer turns than configured were timed, if so. */
  cutNote?: string;
}

export interface GrowthResult {
  cfg: GrowthConfig;
  sizes: GrowthSizeResult[];
  /** The size that failed (larger ones were not run) and why. */
  failure?: string;
}

async function countAll(c: Collections): Promise<Record<string, number>> {
  const names = Object.keys(c) as Array<keyof Collections>;
  const counts = await Promise.all(names.map((n) => c[n].countDocuments({})));
  return Object.fromEntries(names.map((n, i) => [n, counts[i]!]));
}

/** Sequential turns, the memory queue waited for after each; returns the timings and how many waits were capped. */
async function timedTurns(
  rig: PipelineRig,
  o: { n: number; chat: () => string; label: string; turn: OneTurnOptions; progress: (line: string) => void },
): Promise<{ timings: TurnTiming[]; capped: number; meanS: number }> {
  const timings: TurnTiming[] = [];
  let capped = 0;
  const began = performance.now();
  for (let i = 0; i < o.n; i++) {
    const t = await oneTurn(rig, o.chat(), `bench ${o.label} ${i}`, o.turn);
    timings.push(t);
    const idle = await memoryIdle(rig.memory, MEMORY_WAIT_MS);
    if (!idle) capped++;
    // Turns can take minutes on a large store: say how each went.
    o.progress(
      `  ${o.label} ${i + 1}/${o.n}: turn ${t.total} ms (pre-LLM ${t.preLlm}, ingest ${t.ingest})${idle ? '' : ', memory jobs still running after 5 s'}`,
    );
  }
  return { timings, capped, meanS: o.n > 0 ? (performance.now() - began) / 1000 / o.n : NaN };
}

/** Turn counts that fit the budget at the warm-up's pace (at least 3 and 2). */
function fitBudget(cfg: GrowthConfig, secondsPerTurn: number): { turns: number; chatTurns: number; note?: string } {
  const projected = (cfg.turns + cfg.chatTurns) * secondsPerTurn;
  if (cfg.budgetS === 0 || !Number.isFinite(secondsPerTurn) || projected <= cfg.budgetS)
    return { turns: cfg.turns, chatTurns: cfg.chatTurns };
  const scale = cfg.budgetS / projected;
  const turns = Math.max(3, Math.floor(cfg.turns * scale));
  const chatTurns = Math.max(2, Math.floor(cfg.chatTurns * scale));
  return {
    turns,
    chatTurns,
    note: `${turns}/${chatTurns} turns timed instead of ${cfg.turns}/${cfg.chatTurns}: warm-up turns took ${secondsPerTurn.toFixed(1)} s each, ${(projected / 60).toFixed(0)} min projected, over BENCH_GROWTH_BUDGET_S=${cfg.budgetS}`,
  };
}

async function runSize(size: number, o: GrowthRunOptions): Promise<GrowthSizeResult> {
  const { cfg, progress } = o;
  const rig = await o.openPipeline(`growth${size}`, withCommandMonitoring(o.mongoUri));
  const side = await MongoClient.connect(o.mongoUri); // the bench's own reads and writes stay off the app's client
  try {
    const c = collections(side.db(rig.app.store.db.databaseName));
    const tally = new CommandTally(rig.app.store.client);
    progress(`growth ${size}: one real turn for the templates`);
    const templates = await captureTemplates(rig, c, humanText(0));
    progress(
      `growth ${size}: padding ${size} messages (${templates.events.length} events a turn, memory template ${templates.memoryFromTurn ? 'from the turn' : 'built from the type'})`,
    );
    const pad = await padStore(c, templates, size, progress);
    const perCollection = await countAll(c);
    const padInserted = Object.values(pad.inserted).reduce((a, b) => a + b, 0);
    progress(
      `growth ${size}: padded ${padInserted} documents in ${pad.seconds.toFixed(1)} s; ${perCollection.messages} messages stored`,
    );

    const turn: OneTurnOptions = { readTurn: (id) => c.turns.findOne({ _id: id }), finishTimeoutMs: FINISH_TIMEOUT_MS };
    progress(`growth ${size}: ${cfg.warmup} warm-up turns`);
    const warm = await timedTurns(rig, {
      n: cfg.warmup,
      chat: () => rig.newChat(),
      label: 'growth-warmup',
      turn,
      progress,
    });
    await memoryIdle(rig.memory, SETTLE_MS);
    const fit = fitBudget(cfg, warm.meanS);
    if (fit.note) progress(`growth ${size}: ${fit.note}`);

    progress(`growth ${size}: ${fit.turns} sequential turns, new chat each (commands counted)`);
    tally.start();
    const cpu0 = cpuSnapshot();
    const newChat = await timedTurns(rig, {
      n: fit.turns,
      chat: () => rig.newChat(),
      label: 'growth-new',
      turn,
      progress,
    });
    const settled = await memoryIdle(rig.memory, SETTLE_MS); // the last turns' memory work belongs to them too
    const cpu = cpuSince(cpu0);
    const commands = tally.stop();

    progress(`growth ${size}: ${fit.chatTurns} sequential turns in one chat`);
    const chat = rig.newChat();
    const sameChat = await timedTurns(rig, {
      n: fit.chatTurns,
      chat: () => chat,
      label: 'growth-chat',
      turn,
      progress,
    });
    return {
      size,
      messages: perCollection.messages ?? 0,
      docs: Object.values(perCollection).reduce((a, b) => a + b, 0),
      perCollection,
      padSeconds: pad.seconds,
      padInserted,
      contextEventBytes: pad.contextEventBytes,
      eventsPerTurn: templates.events.length,
      memoryFromTurn: templates.memoryFromTurn,
      newChat: newChat.timings,
      sameChat: sameChat.timings,
      cpu,
      commands,
      memoryWaitCapped: newChat.capped,
      settled,
      ...(fit.note ? { cutNote: fit.note } : {}),
    };
  } finally {
    await side.close();
    await rig.close();
    // Queues are obliterated by close(); memory version counters and leases are this app's too.
    const redis = new Redis(o.redisUrl, { maxRetriesPerRequest: null });
    const left = await redis.keys(`${rig.prefix}:*`);
    if (left.length > 0) await redis.del(...left);
    await redis.quit();
  }
}

export interface GrowthRunOptions {
  mongoUri: string;
  redisUrl: string;
  cfg: GrowthConfig;
  /** A fresh app on a fresh database named after `tag`, reached at `mongoUri` (cleaned up by the caller too). */
  openPipeline(tag: string, mongoUri: string): Promise<PipelineRig>;
  progress: (line: string) => void;
}

export async function runGrowthBench(o: GrowthRunOptions): Promise<GrowthResult> {
  const sizes: GrowthSizeResult[] = [];
  for (const size of o.cfg.sizes) {
    try {
      sizes.push(await runSize(size, o));
    } catch (err) {
      // The sizes already measured are still worth printing; a larger one would only fail again.
      const failure = `size ${size} failed (larger sizes not run): ${err instanceof Error ? err.message : String(err)}`;
      o.progress(`growth: ${failure}`);
      return { cfg: o.cfg, sizes, failure };
    }
  }
  return { cfg: o.cfg, sizes };
}
