// `npm run bench`: the pipeline's own cost next to the bare floor, on the same Redis and
// MongoDB-wire server, in one run, then active recall at growing memory counts (recall.ts), and
// the pipeline at growing store sizes (growth.ts), knowledge retrieval over 10 000 chunks
// (knowledge.ts), recall quality on LoCoMo's development conversations (locomo.ts), replies
// under a real model's latency from one process and from a gateway with two workers (capacity.ts),
// and message search over 100 000 messages on the project's own index (search.ts).
// BENCH_ONLY=pipeline, rooms, web, recall, knowledge, context, graphql, growth, locomo, capacity
// or search runs one part. Progress goes to stderr, the tables to stdout.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import { intFromEnv, loadBenchConfig } from './config.js';
import { startBenchServices, type BenchServices } from './services.js';
import { startFloor, type FloorRig } from './floor.js';
import { startPipeline, type PipelineRig } from './pipeline.js';
import { measureAll } from './measure.js';
import { benchRecall, loadRecallBenchConfig } from './recall.js';
import { benchKnowledge, knowledgeNotes, knowledgeTable, loadKnowledgeBenchConfig } from './knowledge.js';
import { benchLocomo, loadLocomoBenchConfig } from './locomo.js';
import { locomoNotes, locomoTables } from './locomoReport.js';
import { contextNotes, contextTable, runContextBench } from './context.js';
import { graphqlTable, runGraphqlBench } from './graphql.js';
import { loadGrowthConfig, runGrowthBench } from './growth.js';
import { runRoomBench } from './rooms.js';
import { roomTables } from './roomsReport.js';
import { runSearchBench, searchTable } from './search.js';
import { runWebBench, webNotes, webTable } from './web.js';
import { capacityTable, loadCapacityConfig, runCapacityCase, type CapacityResult } from './capacity.js';
import { commandKindTable, growthNotes, growthRatios, growthTable, shapeTables } from './growthReport.js';
import {
  burstNotes,
  cpuTable,
  driftLine,
  growthLine,
  mainTable,
  recallNotes,
  recallTable,
  stageTable,
} from './summary.js';

const WORKER_LOCK_MS = 30_000; // the app's default WORKER_LOCK_MS, used by the floor worker too

const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const PARTS = [
  'pipeline',
  'rooms',
  'web',
  'recall',
  'knowledge',
  'context',
  'graphql',
  'growth',
  'locomo',
  'capacity',
  'search',
] as const;
type Part = (typeof PARTS)[number];

/** BENCH_ONLY: one part, or every part when unset. */
function partsToRun(): ReadonlySet<Part> {
  const raw = process.env.BENCH_ONLY?.trim();
  if (!raw) return new Set(PARTS);
  if (!(PARTS as readonly string[]).includes(raw))
    throw new Error(`BENCH_ONLY must be one of ${PARTS.join(', ')} (got "${raw}")`);
  return new Set([raw as Part]);
}

async function main(): Promise<void> {
  const parts = partsToRun();
  const cfg = loadBenchConfig();
  const recallCfg = loadRecallBenchConfig();
  const runId = randomBytes(4).toString('hex');
  const dbName = `bench_${runId}`;
  const prefix = `bench-${runId}`;
  const began = performance.now();

  let services: BenchServices | undefined;
  let floor: FloorRig | undefined;
  const pipelines = new Set<PipelineRig>(); // open now
  const databases = [dbName]; // the floor's, then one per pipeline scenario
  let cleaning: Promise<void> | undefined;
  const step = async (what: string, f: () => Promise<unknown>) => {
    try {
      await f();
    } catch (err) {
      progress(`cleanup: ${what} failed: ${String(err)}`);
    }
  };
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const rig of pipelines) await step('stopping a pipeline', () => rig.close());
      await step('stopping the floor', async () => floor?.close());
      const s = services;
      if (!s) return;
      await step('dropping the databases', async () => {
        const client = await MongoClient.connect(s.mongoUri);
        for (const db of databases) await client.db(db).dropDatabase();
        await client.close();
        progress(`cleanup: dropped ${databases.join(', ')}`);
      });
      await step('checking Redis keys', async () => {
        const redis = new Redis(s.redisUrl, { maxRetriesPerRequest: null });
        const left = await redis.keys(`${prefix}*`);
        await redis.quit();
        progress(`cleanup: ${left.length} Redis keys left under ${prefix}* (queues obliterated)`);
      });
      await step('stopping services', () => s.stop());
    })());
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

  try {
    services = await startBenchServices(progress);
    progress(`MongoDB-wire server: ${services.mongoLabel}; Redis: ${services.redisLabel}`);
    const { mongoUri, redisUrl } = services;
    const write = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
    write([
      `Server: ${services.mongoLabel}; Redis ${services.redisLabel}. Node ${process.version}, ${availableParallelism()} cores.`,
    ]);

    // A fresh app on its own database, stopped and dropped by the cleanup if the part does not.
    const openPipeline = async (tag: string, uri = mongoUri): Promise<PipelineRig> => {
      databases.push(`${dbName}_${tag}`);
      const rig = await startPipeline({
        mongoUri: uri,
        redisUrl,
        dbName: `${dbName}_${tag}`,
        prefix: `${prefix}-${tag}`,
        concurrency: cfg.concurrency,
        streamEditMs: cfg.streamEditMs,
        telegramPerSecond: cfg.telegramPerSecond,
      });
      pipelines.add(rig);
      return { ...rig, close: () => (pipelines.delete(rig) ? rig.close() : Promise.resolve()) };
    };

    if (parts.has('pipeline')) {
      floor = await startFloor({
        mongoUri,
        redisUrl,
        dbName,
        prefix: `${prefix}-floor`,
        concurrency: cfg.concurrency,
        lockMs: WORKER_LOCK_MS,
      });
      const r = await measureAll(floor, (tag) => openPipeline(tag), cfg, services.startedLabel, progress);
      await floor.close();
      floor = undefined;

      write([
        `Worker concurrency ${cfg.concurrency}, ${cfg.producers} producers in a burst, STREAM_EDIT_INTERVAL_MS ${cfg.streamEditMs}, warmup ${cfg.warmup}, TELEGRAM_GLOBAL_PER_SECOND ${cfg.telegramPerSecond} (a bot at the default 25 is capped near 25 replies/s by Telegram's pace; BENCH_TG_PER_SECOND=25 measures that).`,
        '',
        mainTable(r),
        '',
        stageTable(r),
        '',
        cpuTable(r),
        '',
        ...burstNotes(r),
        growthLine(r),
        driftLine(r),
        'Ratio = pipeline ÷ floor for times, floor ÷ pipeline for rates: how many floors one turn costs.',
      ]);
    }

    if (parts.has('search')) {
      const searchDb = `${dbName}_search`;
      databases.push(searchDb);
      const sr = await runSearchBench({ mongoUri, dbName: searchDb, progress });
      write(['', searchTable(sr)]);
    }

    if (parts.has('rooms')) {
      const roomsDb = `${dbName}_rooms`;
      databases.push(roomsDb);
      progress("rooms: rounds of 3 agents, each by its own bot, against one agent's answer");
      const rr = await runRoomBench({
        mongoUri,
        redisUrl,
        dbName: roomsDb,
        prefix: `${prefix}-rooms`,
        rounds: intFromEnv('BENCH_ROOM_ROUNDS', 20),
        agents: 3,
        progress,
      });
      write([
        '',
        "Rooms: one round of 3 agents, each by its own bot (instant model, fake Telegram, Telegram's pacing kept)",
        '',
        ...roomTables(rr),
      ]);
    }

    if (parts.has('web')) {
      const webDb = `${dbName}_web`;
      databases.push(webDb);
      const wr = await runWebBench({
        mongoUri,
        redisUrl,
        dbName: webDb,
        prefix: `${prefix}-web`,
        turns: intFromEnv('BENCH_WEB_TURNS', 50),
        warmup: 5,
        progress,
      });
      write([
        '',
        'Web channel: REST + SSE over real HTTP against the same pipeline',
        '',
        webTable(wr),
        '',
        ...webNotes(wr),
      ]);
    }

    if (parts.has('recall')) {
      const recallDb = `${dbName}_recall`;
      databases.push(recallDb);
      const rr = await benchRecall({ mongoUri, dbName: recallDb, cfg: recallCfg, progress });
      write(['', 'Recall', '', recallTable(rr), '', ...recallNotes(rr)]);
    }

    if (parts.has('knowledge')) {
      const knowledgeDb = `${dbName}_knowledge`;
      databases.push(knowledgeDb);
      const kr = await benchKnowledge({ mongoUri, dbName: knowledgeDb, cfg: loadKnowledgeBenchConfig(), progress });
      write(['', 'Knowledge retrieval', '', knowledgeTable(kr), '', ...knowledgeNotes(kr)]);
    }

    if (parts.has('locomo')) {
      const locomoDb = `${dbName}_locomo`;
      databases.push(locomoDb);
      const lr = await benchLocomo({ mongoUri, dbName: locomoDb, cfg: loadLocomoBenchConfig(), progress });
      write(['', 'Recall quality on LoCoMo (development split)', '', ...locomoTables(lr), ...locomoNotes(lr)]);
    }

    if (parts.has('capacity')) {
      const ccfg = loadCapacityConfig();
      const results: CapacityResult[] = [];
      for (const shape of ccfg.shapes)
        for (const chats of ccfg.chats) {
          const tag = `capacity_${results.length}`;
          databases.push(`${dbName}_${tag}`);
          const result = await runCapacityCase({
            shape,
            chats,
            loadSeconds: ccfg.loadSeconds,
            mongoUri,
            redisUrl,
            mongoPid: services.mongoPid,
            dbName: `${dbName}_${tag}`,
            prefix: `${prefix}-${tag}`,
            progress,
          });
          results.push(result);
          // Each case's row as it lands: a long run cut short keeps what it measured.
          progress(capacityTable([result]).split('\n').at(-1) ?? '');
        }
      write([
        '',
        `Capacity under a model's latency (first token 0.6–1.0 s, 32–48 tokens/s, 150–300 tokens; each chat writes every 20–40 s for ${ccfg.loadSeconds} s; WORKER_CONCURRENCY ${process.env.BENCH_CAPACITY_CONCURRENCY ?? 'default'}). Holds: overhead p95 ≤ 500 ms, no queue wait over 1 s, nothing unanswered.`,
        '',
        capacityTable(results),
      ]);
    }

    if (parts.has('context')) {
      const contextDb = `${dbName}_context`;
      databases.push(contextDb);
      const turns = intFromEnv('BENCH_CONTEXT_TURNS', 100);
      progress(`context: a ${turns}-turn dialogue through the pipeline, memory jobs included`);
      const cr = await runContextBench({
        mongoUri,
        redisUrl,
        dbName: contextDb,
        prefix: `${prefix}-context`,
        turns,
        progress,
      });
      write(['', 'Context over a long dialogue', '', contextTable(cr), '', ...contextNotes(cr)]);
    }

    if (parts.has('growth')) {
      const gcfg = loadGrowthConfig();
      progress(
        `growth: sizes ${gcfg.sizes.join(', ')}; ${gcfg.turns} new-chat and ${gcfg.chatTurns} one-chat turns each, warm-up ${gcfg.warmup}`,
      );
      const gr = await runGrowthBench({ mongoUri, redisUrl, cfg: gcfg, openPipeline, progress });
      write([
        '',
        `Growth: the pipeline at growing store sizes (worker concurrency ${cfg.concurrency}, memory jobs on)`,
        '',
        growthTable(gr, services.startedLabel),
        '',
        ...growthRatios(gr),
        '',
        'Database commands per counted turn, by command (_id-only = filter exactly {_id: <string>}, and inserts):',
        '',
        commandKindTable(gr),
        ...shapeTables(gr),
        '',
        ...growthNotes(gr),
      ]);
    }

    if (parts.has('graphql')) {
      const graphqlDb = `${dbName}_graphql`;
      databases.push(graphqlDb);
      const gr = await runGraphqlBench({
        mongoUri,
        redisUrl,
        dbName: graphqlDb,
        prefix: `${prefix}-graphql`,
        samples: intFromEnv('BENCH_GRAPHQL_SAMPLES', 50),
        searchSize: intFromEnv('BENCH_SEARCH_MESSAGES', 100_000, 0),
        progress,
      });
      write([
        '',
        'GraphQL ops API',
        '',
        graphqlTable(gr),
        '',
        'Ratio = GraphQL (HTTP, auth, limits, loaders, JSON) ÷ the bare driver queries returning the same documents.',
      ]);
    }
  } finally {
    await cleanup();
    progress(`total ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
