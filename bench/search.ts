// Message search over the project's own index (src/search/) at 100 000 stored messages, on the
// bench's MongoDB-wire server (the embedded FerretDB unless MONGODB_URI is given):
//   - seed: Chinese and English chat over 200 dialogues and 100 days, written as an earlier
//     version did (no journal), so the index's backfill folds them — its time is reported;
//     then a few hundred more through the message repository (the journal, as ingest writes);
//   - queries: common and rare terms in both languages, a phrase that occurs nowhere, each
//     with and without a dialogue filter, first page of 20 newest first: p50 / p95;
//   - the model's search_messages tool through the ToolRegistry with its 10 s timeout.
// BENCH_SEARCH_SIZE (default 100 000) and BENCH_SEARCH_SAMPLES (default 15 per query).
import { Store } from '../src/store/store.js';
import type { Message } from '../src/domain/model.js';
import { indexUntilCaughtUp } from '../src/store/searchIndexer.js';
import { planMessageSearch } from '../src/search/messageSearch.js';
import { searchMessages } from '../src/store/indexSearch.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { searchMessagesTool } from '../src/tools/builtins/searchMessages.js';
import { intFromEnv } from './config.js';
import { percentile } from './stats.js';

const ZH_WORDS = [
  '今天',
  '天气',
  '不错',
  '我们',
  '一起',
  '去看',
  '电影',
  '晚上',
  '吃饭',
  '朋友',
  '工作',
  '很忙',
  '周末',
  '休息',
  '喜欢',
  '音乐',
  '咖啡',
  '下雨',
  '公园',
  '散步',
  '学习',
  '中文',
  '有点',
  '累了',
  '明天',
  '见面',
  '开心',
  '谢谢',
  '问题',
  '时间',
  '地方',
  '手机',
  '回家',
  '妈妈',
  '小猫',
  '睡觉',
  '旅行',
  '计划',
  '早上',
  '跑步',
];
const EN_WORDS = [
  'the',
  'weather',
  'is',
  'nice',
  'today',
  'we',
  'should',
  'watch',
  'a',
  'movie',
  'tonight',
  'dinner',
  'with',
  'friends',
  'work',
  'busy',
  'weekend',
  'rest',
  'music',
  'coffee',
  'rain',
  'park',
  'walk',
  'learning',
  'chinese',
  'tired',
  'tomorrow',
  'meet',
  'happy',
  'thanks',
  'question',
  'time',
  'place',
  'phone',
  'home',
  'cat',
  'sleep',
  'travel',
  'plan',
  'morning',
  'running',
];
/** Rare: one message in 997 carries one of these. */
const RARE = ['灯塔守护人', 'lighthouse keeper'];

export interface SearchBenchQuery {
  label: string;
  text: string;
  dialogue: boolean;
  samples: number[];
  /** The first search of this query in the process (nothing of it cached). */
  coldMs: number;
  hits: number;
}

export interface SearchBenchResult {
  stored: number;
  seedMs: number;
  backfillMs: number;
  journaledMs: number;
  queries: SearchBenchQuery[];
  all: number[];
  tool: number[];
  toolErrors: number;
  postingsDocs: number;
}

function rng(seed: number) {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

function message(i: number, r: () => number, base: number): Message {
  // Both languages in every dialogue (dialogue = i % 200).
  const zh = Math.floor(i / 200) % 2 === 1;
  const words = zh ? ZH_WORDS : EN_WORDS;
  const n = 6 + Math.floor(r() * 10);
  const picked = Array.from({ length: n }, () => words[Math.floor(r() * words.length)]!);
  if (i % 997 === 7) picked.splice(2, 0, RARE[zh ? 0 : 1]!);
  const content = zh ? `${picked.join('')}。` : `${picked.join(' ')}.`;
  const at = new Date(base + Math.floor((i / 100_000) * 100 * 86_400_000) + Math.floor(r() * 60_000));
  return {
    _id: `msg_sx_${String(i).padStart(6, '0')}`,
    dialogueId: `dlg_sx_${i % 200}`,
    sessionId: `ses_sx_${i % 200}`,
    turnId: `trn_sx_${Math.floor(i / 2)}`,
    senderRole: i % 2 === 0 ? 'human' : 'ai',
    senderId: i % 2 === 0 ? 'hum_sx' : 'agt_sx',
    contentType: 'text',
    content,
    mentions: [],
    visible: true,
    createdAt: at,
    updatedAt: at,
  };
}

async function seed(store: Store, size: number, progress: (l: string) => void): Promise<void> {
  const r = rng(42);
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < size; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, size - i) }, (_, j) => message(i + j, r, base));
    await store.c.messages.insertMany(batch);
    if ((i + 1000) % 20_000 === 0) progress(`search: seeded ${i + 1000} / ${size}`);
  }
}

const QUERIES: Array<{ label: string; text: string }> = [
  { label: 'zh common', text: '天气' },
  { label: 'zh common phrase', text: '我们一起' },
  { label: 'zh rare', text: '灯塔守护人' },
  { label: 'en common', text: 'the' },
  { label: 'en common phrase', text: 'movie tonight' },
  { label: 'en rare', text: 'lighthouse keeper' },
  { label: 'nowhere', text: '不存在的东西' },
];

const time = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

export async function runSearchBench(o: {
  mongoUri: string;
  dbName: string;
  progress: (l: string) => void;
}): Promise<SearchBenchResult> {
  const size = intFromEnv('BENCH_SEARCH_SIZE', 100_000);
  const samples = intFromEnv('BENCH_SEARCH_SAMPLES', 15);
  const store = await Store.connect(o.mongoUri, o.dbName);
  try {
    const seedMs = await time(() => seed(store, size, o.progress));
    o.progress(`search: seeded ${size} in ${(seedMs / 1000).toFixed(1)} s; backfilling the index`);
    const backfillMs = await time(() => indexUntilCaughtUp(store));
    o.progress(`search: backfill folded ${size} in ${(backfillMs / 1000).toFixed(1)} s`);
    // A few hundred through the repository, as ingest writes them (the journal, then a fold).
    const r = rng(7);
    const journaledMs = await time(async () => {
      for (let i = 0; i < 300; i += 30)
        await Promise.all(
          Array.from({ length: 30 }, (_, j) => {
            const m = message(size + i + j, r, Date.UTC(2026, 3, 11));
            return store.messages.insertOnce(m, { windowed: false });
          }),
        );
    });
    await new Promise((res) => setTimeout(res, 2_100));
    await indexUntilCaughtUp(store);
    const queries: SearchBenchQuery[] = [];
    for (const q of QUERIES)
      for (const dialogue of [false, true]) {
        const plan = planMessageSearch({ text: q.text, ...(dialogue ? { dialogueId: 'dlg_sx_7' } : {}) }, new Date());
        let hits = 0;
        const coldMs = await time(() => searchMessages(store, plan, { limit: 20 }));
        const taken: number[] = [];
        for (let s = 0; s < samples; s++)
          taken.push(
            await time(async () => (hits = (await searchMessages(store, plan, { limit: 20 })).messages.length)),
          );
        queries.push({ label: q.label, text: q.text, dialogue, samples: taken, coldMs, hits });
        o.progress(`search: ${q.label}${dialogue ? ' in a dialogue' : ''}: p50 ${percentile(taken, 50).toFixed(1)} ms`);
      }
    const registry = new ToolRegistry([searchMessagesTool], 10_000);
    const tool: number[] = [];
    let toolErrors = 0;
    for (const q of QUERIES)
      for (let s = 0; s < Math.max(3, Math.floor(samples / 3)); s++) {
        const out = await registry.execute(
          { id: 'bench', name: 'search_messages', arguments: JSON.stringify({ query: q.text }) },
          { store, dialogueId: 'dlg_sx_7', now: new Date(), timezone: 'UTC', signal: new AbortController().signal },
        );
        if (!out.ok) toolErrors++;
        tool.push(out.durationMs);
      }
    const postingsDocs = await store.c.searchPostings.estimatedDocumentCount();
    return {
      stored: size + 300,
      seedMs,
      backfillMs,
      journaledMs,
      queries,
      all: queries.flatMap((q) => q.samples),
      tool,
      toolErrors,
      postingsDocs,
    };
  } finally {
    await store.close();
  }
}

const fmt = (ms: number) => ms.toFixed(1);

export function searchTable(r: SearchBenchResult): string {
  const lines = [
    `Message search over ${r.stored.toLocaleString('en')} messages (the index's own postings, ${r.postingsDocs} documents; first page of 20, newest first)`,
    '',
    '| query | text | dialogue filter | hits | first (cold) ms | p50 ms | p95 ms |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...r.queries.map(
      (q) =>
        `| ${q.label} | ${q.text} | ${q.dialogue ? 'yes' : 'no'} | ${q.hits} | ${fmt(q.coldMs)} | ${fmt(percentile(q.samples, 50))} | ${fmt(percentile(q.samples, 95))} |`,
    ),
    `| **all queries** | | | | ${fmt(
      percentile(
        r.queries.map((q) => q.coldMs),
        50,
      ),
    )} / ${fmt(
      percentile(
        r.queries.map((q) => q.coldMs),
        95,
      ),
    )} (p50 / p95) | **${fmt(percentile(r.all, 50))}** | **${fmt(percentile(r.all, 95))}** |`,
    '',
    'Sealed postings generations are kept per process (LRU, 64 MB); bucket heads, the state, the journal and every candidate message are read from the store on every search.',
    '',
    `search_messages tool (ToolRegistry, 10 s timeout), ${r.tool.length} calls in one dialogue: p50 ${fmt(percentile(r.tool, 50))} ms, p95 ${fmt(percentile(r.tool, 95))} ms, max ${fmt(Math.max(...r.tool))} ms, ${r.toolErrors} failed.`,
    `Seed ${(r.seedMs / 1000).toFixed(1)} s (raw inserts, as an earlier version stored them); backfill into the index ${(r.backfillMs / 1000).toFixed(1)} s; 300 messages through the repository (journal) ${fmt(r.journaledMs)} ms.`,
  ];
  return lines.join('\n');
}
