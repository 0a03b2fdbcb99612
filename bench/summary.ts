// Turns raw results into the printed tables.
import type { FloorBurst, FloorIteration } from './floor.js';
import type { BurstResult, TurnTiming } from './turns.js';
import { comparisonTable, fmt, table, type Row } from './report.js';
import { percentile, perSecond, summarize } from './stats.js';
import type { CpuSnapshot } from './cpu.js';
import type { RecallBenchResult } from './recall.js';

export interface Results {
  floorSeq: FloorIteration[][]; // one array per floor run (before and after the pipeline)
  floorBurst: FloorBurst[][]; // per floor run, its bursts
  burstSize: number;
  seqNewChat: TurnTiming[];
  seqOneChat: TurnTiming[];
  burst: BurstResult;
  /** CPU per phase, with the items it covered (warmup included). */
  cpu: { floorSeq: CpuSpan[]; floorBurst: CpuSpan[]; seqNewChat?: CpuSpan; burst?: CpuSpan };
  /** Which servers this run started (their CPU is the children's), e.g. "FerretDB"; '' if none. */
  childLabel: string;
}

/** Items per second over several bursts of `size`: total items ÷ total span. */
const burstRate = (bursts: readonly FloorBurst[], size: number) =>
  perSecond(
    size * bursts.length,
    bursts.reduce((a, b) => a + b.spanMs, 0),
  );

const pick = <T>(xs: readonly T[], f: (x: T) => number) => summarize(xs.map(f));

export function mainTable(r: Results): string {
  const floorSeq = summarize(r.floorSeq.flat().map((x) => x.total));
  const bursts = r.floorBurst.flat();
  const floorBurstLat = summarize(bursts.flatMap((b) => b.latencies));
  const floorRate = burstRate(bursts, r.burstSize);
  const floorProduced = bursts.reduce((a, b) => a + b.producedPerSecond, 0) / bursts.length;
  const newChat = pick(r.seqNewChat, (t) => t.preLlm);
  const oneChat = pick(r.seqOneChat, (t) => t.preLlm);
  const burst = summarize(r.burst.preLlm);
  const rows: Row[] = [
    {
      measure: `pre-LLM latency p50 (ms), sequential, new chat each (n=${newChat.n})`,
      floor: floorSeq.p50,
      pipeline: newChat.p50,
      kind: 'time',
    },
    {
      measure: 'pre-LLM latency p99 (ms), sequential, new chat each',
      floor: floorSeq.p99,
      pipeline: newChat.p99,
      kind: 'time',
    },
    {
      measure: `pre-LLM latency p50 (ms), sequential, one chat (n=${oneChat.n})`,
      floor: floorSeq.p50,
      pipeline: oneChat.p50,
      kind: 'time',
    },
    {
      measure: 'pre-LLM latency p99 (ms), sequential, one chat',
      floor: floorSeq.p99,
      pipeline: oneChat.p99,
      kind: 'time',
    },
    {
      measure: `pre-LLM latency p50 (ms), burst of ${r.burstSize}`,
      floor: floorBurstLat.p50,
      pipeline: burst.p50,
      kind: 'time',
    },
    {
      measure: `pre-LLM latency p99 (ms), burst of ${r.burstSize}`,
      floor: floorBurstLat.p99,
      pipeline: burst.p99,
      kind: 'time',
    },
    {
      measure: 'ingest rate (/s): insert+enqueue vs handleInbound',
      floor: floorProduced,
      pipeline: r.burst.ingestPerSecond,
      kind: 'rate',
    },
    {
      measure: 'sustained rate (/s): dequeued vs turns responded',
      floor: floorRate,
      pipeline: r.burst.perSecond,
      kind: 'rate',
    },
  ];
  return comparisonTable(rows);
}

export interface CpuSpan {
  used: CpuSnapshot;
  items: number;
}

/** CPU ms per item over several spans; NaN when unknown. */
function perItem(spans: readonly CpuSpan[], f: (c: CpuSnapshot) => number | undefined): number {
  const items = spans.reduce((a, s) => a + s.items, 0);
  return spans.reduce((a, s) => a + (f(s.used) ?? NaN), 0) / items;
}

export function cpuTable(r: Results): string {
  const rows: Row[] = [];
  const add = (what: string, floor: CpuSpan[], pipeline: CpuSpan | undefined) => {
    if (!pipeline) return;
    rows.push({
      measure: `${what}: this Node process (app, fakes, producers)`,
      floor: perItem(floor, (c) => c.selfMs),
      pipeline: perItem([pipeline], (c) => c.selfMs),
      kind: 'time',
    });
    if (r.childLabel) {
      rows.push({
        measure: `${what}: ${r.childLabel} (started by this run)`,
        floor: perItem(floor, (c) => c.childrenMs),
        pipeline: perItem([pipeline], (c) => c.childrenMs),
        kind: 'time',
      });
    }
  };
  add('CPU ms per item, sequential', r.cpu.floorSeq, r.cpu.seqNewChat);
  add('CPU ms per item, burst', r.cpu.floorBurst, r.cpu.burst);
  return comparisonTable(rows);
}

export function stageTable(r: Results): string {
  const floor = r.floorSeq.flat();
  const fIngest = pick(floor, (x) => x.insert + x.enqueue);
  const fDequeue = pick(floor, (x) => x.toDequeue);
  const t = r.seqNewChat;
  const stages: Array<[string, string, number, ReturnType<typeof summarize>]> = [
    ['ingest (handleInbound)', 'insertOne + queue.add', fIngest.p50, pick(t, (x) => x.ingest)],
    [
      "handleInbound returned → reply started (< 0: the job is enqueued alongside ingest's last writes)",
      'add resolved → processor started',
      fDequeue.p50,
      pick(t, (x) => x.toReplyStart),
    ],
    ['reply started → LLM request received', '–', NaN, pick(t, (x) => x.toLlm)],
    ['LLM request → turn responded (stream, deliver, close)', '–', NaN, pick(t, (x) => x.llmToResponded)],
    ['whole turn: handleInbound → responded', '–', NaN, pick(t, (x) => x.total)],
  ];
  return table(
    [
      'stage (sequential, new chat each)',
      'floor counterpart',
      'floor p50',
      'pipeline p50',
      'pipeline p99',
      'ratio p50',
    ],
    stages.map(([stage, counterpart, f, p]) => [
      stage,
      counterpart,
      fmt(f),
      fmt(p.p50),
      fmt(p.p99),
      Number.isFinite(f) ? `${fmt(p.p50 / f)}×` : '–',
    ]),
  );
}

/** What went wrong in the pipeline burst, if anything (failed ingests are not retried). */
export function burstNotes(r: Results): string[] {
  const b = r.burst;
  const notes = [
    `pipeline burst: ${b.accepted}/${r.burstSize} inbound events accepted, ${b.retriedJobs} respond jobs needed a retry`,
  ];
  for (const [message, count] of b.ingestErrors) notes.push(`  handleInbound failed ${count}×: ${message}`);
  return notes;
}

/** Whether a turn gets slower as the database fills (it does on FerretDB, whose queries scan). */
export function growthLine(r: Results): string {
  const t = r.seqNewChat;
  const q = Math.max(1, Math.floor(t.length / 4));
  const p50 = (xs: TurnTiming[]) => fmt(summarize(xs.map((x) => x.total)).p50);
  return `pipeline sequential (new chat each, fresh database): whole-turn p50 first ${q} turns ${p50(t.slice(0, q))} ms → last ${q} turns ${p50(t.slice(-q))} ms`;
}

/** The floor measured before and after the pipeline: a large change means the servers drifted. */
export function driftLine(r: Results): string {
  const seq = r.floorSeq.map((run) => fmt(summarize(run.map((x) => x.total)).p50));
  const rate = r.floorBurst.map((run) => fmt(burstRate(run, r.burstSize)));
  return `floor before → after the pipeline: sequential p50 ${seq.join(' → ')} ms; burst ${rate.join(' → ')} /s`;
}

/** The Recall table: per memory count, cold index load, recall and keyword-only latencies. */
export function recallTable(r: RecallBenchResult): string {
  const p = (xs: readonly number[], q: number) => fmt(percentile(xs, q));
  const rows = r.sizes.map((s) => [
    s.size.toLocaleString('en-US'),
    s.coldLoadMs.length > 0
      ? `${p(s.coldLoadMs, 50)}${s.coldLoadMs.length > 1 ? ` (n=${s.coldLoadMs.length})` : ''}`
      : '– (not stored)',
    s.snapshotLoadMs.length > 0
      ? `${p(s.snapshotLoadMs, 50)}${s.snapshotLoadMs.length > 1 ? ` (n=${s.snapshotLoadMs.length})` : ''}`
      : '–',
    p(s.recallMs, 50),
    p(s.recallMs, 95),
    p(s.keywordOnlyMs, 50),
    p(s.keywordOnlyMs, 95),
    Number.isFinite(s.insertS) ? fmt(s.insertS) : '–',
  ]);
  return table(
    [
      'memories (one owner)',
      'cold index load, listed (ms)',
      'cold index load, snapshot (ms)',
      'recall p50 (ms)',
      'recall p95 (ms)',
      'keyword-only p50 (ms)',
      'keyword-only p95 (ms)',
      'insert (s)',
    ],
    rows,
  );
}

/** What the Recall table measured, and anything that did not go as planned. */
export function recallNotes(r: RecallBenchResult): string[] {
  const { cfg } = r;
  const notes = [
    `Recall: MemoryRecall over a warm IndexCache, offline hashed n-gram embedder (${cfg.dims} dims), ${cfg.queries} timed recalls per column after ${cfg.warmup} untimed, topK 8, mixed zh/en questions (2–3 queries each: vector + BM25 per query, fused).`,
    'Keyword-only: the same recalls with the embeddings API down (every embed call fails at once), as when OpenAI is unreachable. Memory texts are generated deterministically (zh/en templates sharing vocabulary).',
    "Cold index load: a new IndexCache's first recall scope load from the MongoDB-wire server: list the active memories, decode stored vectors, build the keyword postings (median of the loads; vectors already stored, none recomputed). Insert: adding that row's new memories with insertMany.",
    "Cold index load, snapshot: the same first load with the scope's snapshot present (issue 34): its head and parts read by `_id`, inflated and unpacked into the index (tokens counted and vectors packed when written), no listing; the snapshot is written once after a listed load, in the background, and its write time is in the progress log.",
  ];
  if (r.skippedNote) notes.push(`Note: ${r.skippedNote}.`);
  for (const s of r.sizes) {
    if (s.empty.recall + s.empty.keywordOnly > 0) {
      notes.push(
        `Note: over ${s.size} memories, ${s.empty.recall} recalls and ${s.empty.keywordOnly} keyword-only recalls returned nothing.`,
      );
    }
    if (s.wrongMode > 0)
      notes.push(
        `Note: ${s.wrongMode} recalls over ${s.size} memories were not in the mode they measure (vector vs keyword-only).`,
      );
  }
  return notes;
}
