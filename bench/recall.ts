// Active recall at 1k, 10k and 100k memories of one owner, asked from the person's private chat
// (the origin filter of SPEC §13 applies, the persona card's standing memories are picked): recall latency (the production
// MemoryRecall over a warm IndexCache, the offline embedder's vectors fused as an embeddings
// API's are, so the vector scan is measured), keyword-only latency (embeddings down: the work of
// the offline default, whose vectors recall leaves out, with its English word vectors loaded
// before the first timed recall), and the cold load of the per-process index from the MongoDB-wire server (list +
// decode the stored vectors + build the keyword postings). Memory texts are generated
// deterministically, mixed Chinese and English, from templates with shared vocabulary, so
// keyword postings grow long as real ones do.
import pino from 'pino';
import type { MemoryEntry, MemoryKind } from '../src/domain/model.js';
import { Store } from '../src/store/store.js';
import type { Embedder } from '../src/memory/embedder.js';
import { HashedNgramEmbedder } from '../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../src/memory/indexCache.js';
import { MemoryRecall, type RecallRequest } from '../src/memory/recall.js';
import { toMemoryEmbedding } from '../src/memory/vectors.js';
import { LocalMemoryVersions } from '../src/memory/versions.js';
import { sharedWordVectors } from '../src/memory/wordVectorsLoader.js';
import { intFromEnv } from './config.js';
import { timed } from './stats.js';
import { DownEmbedder, FusedVectors } from './benchEmbedders.js';
import { mulberry32 } from '../test/support/prng.js';

// ---- configuration (BENCH_RECALL_*, read like config.ts's settings) ----

export interface RecallBenchConfig {
  /** Memory counts of the one owner, ascending (each size adds to the previous one). */
  sizes: number[];
  /** Timed recalls per size and mode. */
  queries: number;
  /** Untimed recalls before each timed series. */
  warmup: number;
  /** Vector size of the offline embedder. */
  dims: number;
  /** Cold loads per size (median reported); the largest size is loaded once. */
  loads: number;
  /** Projected insert time above which the largest sizes are indexed in memory instead of stored. */
  insertBudgetS: number;
}

export function loadRecallBenchConfig(): RecallBenchConfig {
  const rawSizes = process.env.BENCH_RECALL_SIZES?.trim();
  const sizes = rawSizes ? rawSizes.split(',').map((s) => Number(s.trim())) : [1_000, 10_000, 100_000];
  if (sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_RECALL_SIZES must be comma-separated whole numbers ≥ 1 (got "${rawSizes}")`);
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    queries: intFromEnv('BENCH_RECALL_QUERIES', 100),
    warmup: intFromEnv('BENCH_RECALL_WARMUP', 10, 0),
    dims: intFromEnv('BENCH_RECALL_DIMS', 256, 8),
    loads: intFromEnv('BENCH_RECALL_LOADS', 3),
    insertBudgetS: intFromEnv('BENCH_RECALL_INSERT_BUDGET_S', 180),
  };
}

// ---- deterministic memory texts ----

const prng = mulberry32;

const EN = {
  city: [
    'Berlin',
    'Paris',
    'Tokyo',
    'Lisbon',
    'Toronto',
    'Melbourne',
    'Seoul',
    'Prague',
    'Austin',
    'Oslo',
    'Dublin',
    'Kyoto',
    'Vienna',
    'Denver',
  ],
  pet: ['cat', 'dog', 'parrot', 'rabbit', 'hamster', 'turtle', 'goldfish'],
  name: ['Mochi', 'Biscuit', 'Luna', 'Kiwi', 'Pepper', 'Oscar', 'Maple', 'Noodle', 'Ziggy', 'Hazel', 'Milo', 'Clover'],
  job: [
    'nurse',
    'teacher',
    'software engineer',
    'chef',
    'accountant',
    'photographer',
    'pharmacist',
    'architect',
    'barista',
    'translator',
  ],
  place: [
    'the city hospital',
    'a primary school',
    'a startup',
    'a small bakery',
    'the public library',
    'a design studio',
    'a law firm',
  ],
  food: [
    'spicy ramen',
    'sushi',
    'dark chocolate',
    'mango sticky rice',
    'pizza with olives',
    'green curry',
    'blueberry pancakes',
    'dumplings',
  ],
  skill: [
    'the guitar',
    'Spanish',
    'rock climbing',
    'watercolour painting',
    'chess',
    'the piano',
    'pottery',
    'Japanese',
  ],
  person: [
    'their sister',
    'their brother',
    'an old friend',
    'their partner',
    'their mother',
    'two colleagues',
    'their cousin',
  ],
  thing: [
    'crowded trains',
    'horror films',
    'cold coffee',
    'loud music',
    'early meetings',
    'cilantro',
    'rainy weekends',
  ],
  relation: ['sister', 'brother', 'daughter', 'son', 'best friend', 'grandmother'],
  month: ['January', 'March', 'May', 'July', 'September', 'November'],
  day: ['Monday', 'Wednesday', 'Friday', 'Saturday', 'Sunday'],
};
const ZH = {
  city: [
    '上海',
    '杭州',
    '成都',
    '北京',
    '深圳',
    '西安',
    '厦门',
    '青岛',
    '昆明',
    '南京',
    '武汉',
    '大理',
    '苏州',
    '重庆',
  ],
  pet: ['猫', '狗', '鹦鹉', '兔子', '仓鼠', '乌龟', '金鱼'],
  name: ['豆豆', '团子', '咪咪', '花花', '旺财', '年糕', '布丁', '可乐', '球球', '小白', '芝麻', '汤圆'],
  job: ['护士', '老师', '程序员', '厨师', '会计', '摄影师', '药剂师', '建筑师', '咖啡师', '翻译'],
  place: ['市医院', '一所小学', '一家创业公司', '一家面包店', '图书馆', '设计工作室', '律师事务所'],
  food: ['火锅', '寿司', '黑巧克力', '芒果糯米饭', '麻辣烫', '小笼包', '煎饼果子', '酸菜鱼'],
  skill: ['吉他', '西班牙语', '攀岩', '水彩画', '围棋', '钢琴', '陶艺', '日语'],
  person: ['姐姐', '哥哥', '老同学', '男朋友', '妈妈', '两个同事', '表妹'],
  thing: ['挤地铁', '恐怖片', '冷咖啡', '吵闹的音乐', '早上开会', '香菜', '下雨的周末'],
  relation: ['妹妹', '弟弟', '女儿', '儿子', '好朋友', '奶奶'],
  time: ['去年夏天', '上个月', '春节的时候', '国庆节', '前年冬天', '上周末'],
  day: ['周一', '周三', '周五', '周六', '周日'],
};
const EN_DETAILS: Array<(year: number, day: string) => string> = [
  (y) => ` since ${y}`,
  (_, d) => `, mentioned on a ${d}`,
  () => '; they sounded happy about it',
  () => ' (brought it up more than once)',
  (y, d) => `, said on a ${d} in ${y}`,
];
const ZH_DETAILS: Array<(year: number, day: string) => string> = [
  (y) => `，${y}年开始的`,
  (_, d) => `，${d}聊天时提到的`,
  () => '，说起来很开心',
  () => '，之前也提过好几次',
  (y, d) => `，${y}年的一个${d}说的`,
];

type Choose = <T>(xs: readonly T[]) => T;

const TEMPLATES: Array<{ kind: MemoryKind; text: (p: Choose, rnd: () => number) => string }> = [
  { kind: 'fact', text: (p) => `User lives in ${p(EN.city)} with ${p(EN.person)}` },
  { kind: 'fact', text: (p) => `User has a ${p(EN.pet)} named ${p(EN.name)}` },
  { kind: 'fact', text: (p) => `User works as a ${p(EN.job)} at ${p(EN.place)}` },
  { kind: 'preference', text: (p) => `User loves ${p(EN.food)} but dislikes ${p(EN.thing)}` },
  { kind: 'event', text: (p) => `User travelled to ${p(EN.city)} with ${p(EN.person)} in ${p(EN.month)}` },
  { kind: 'fact', text: (p) => `User is learning ${p(EN.skill)} on weekends` },
  { kind: 'fact', text: (p, r) => `User's ${p(EN.relation)} ${p(EN.name)} is ${18 + Math.floor(r() * 60)} years old` },
  { kind: 'fact', text: (p) => `用户住在${p(ZH.city)}，和${p(ZH.person)}一起` },
  { kind: 'fact', text: (p) => `用户养了一只${p(ZH.pet)}，名叫${p(ZH.name)}` },
  { kind: 'fact', text: (p) => `用户在${p(ZH.place)}当${p(ZH.job)}` },
  { kind: 'preference', text: (p) => `用户最喜欢吃${p(ZH.food)}，不喜欢${p(ZH.thing)}` },
  { kind: 'event', text: (p) => `用户${p(ZH.time)}和${p(ZH.person)}去了${p(ZH.city)}旅行` },
  { kind: 'fact', text: (p) => `用户最近在学${p(ZH.skill)}` },
  { kind: 'fact', text: (p, r) => `用户的${p(ZH.relation)}${p(ZH.name)}今年${6 + Math.floor(r() * 70)}岁` },
  {
    kind: 'plot',
    text: (p) =>
      `用户讲了${p(ZH.time)}在${p(ZH.city)}的经历：和${p(ZH.person)}迷路了，最后在一家${p(ZH.food)}店躲雨，聊到很晚才回去。`,
  },
  {
    kind: 'summary',
    text: (p) =>
      `Talked about ${p(EN.skill)} and a trip to ${p(EN.city)}; user felt tired after work at ${p(EN.place)}.`,
  },
];

const OWNER = 'agt_bench';
const SUBJECT = 'hum_bench';
const DAY = 86_400_000;
const EPOCH = Date.UTC(2024, 0, 1);
const NOW = new Date(EPOCH + 800 * DAY);

/** The i-th memory of the deterministic sequence: kind and text, and its generator for the other fields. */
export function memoryText(i: number): { kind: MemoryKind; text: string; rnd: () => number } {
  const rnd = prng(0x9e3779b1 ^ i);
  const p: Choose = (xs) => xs[Math.floor(rnd() * xs.length)]!;
  const t = TEMPLATES[Math.floor(rnd() * TEMPLATES.length)]!;
  // Half get a trailing detail (a year, a day, a feeling), so texts vary as real notes do;
  // exact repeats stay possible (each entry has its own dedupe key).
  const base = t.text(p, rnd);
  const zh = /\p{Script=Han}/u.test(base);
  const year = 2015 + Math.floor(rnd() * 11);
  const detail = rnd() < 0.5 ? '' : zh ? p(ZH_DETAILS)(year, p(ZH.day)) : p(EN_DETAILS)(year, p(EN.day));
  return { kind: t.kind, text: `${base}${detail}`, rnd };
}

const PRIVATE_CHAT = 'dlg_bench_dm';

/** Memories i..j-1 of the owner's deterministic sequence, with vectors from `embedder`. */
export async function generateMemories(from: number, to: number, embedder: Embedder): Promise<MemoryEntry[]> {
  const out: MemoryEntry[] = [];
  for (let i = from; i < to; i++) {
    const { kind, text, rnd } = memoryText(i);
    const at = new Date(EPOCH + Math.floor(rnd() * 790 * DAY) + i);
    out.push({
      _id: `mem_bench_${String(i).padStart(7, '0')}`,
      ownerId: OWNER,
      subjectId: SUBJECT,
      kind,
      text,
      dedupeKey: `bench_${i}`,
      importance: Math.round(rnd() * 100) / 100,
      sources: {},
      // Seven in ten learned in the person's private chat, the rest in three groups: recall from
      // the private chat filters every group's memories out (SPEC §13).
      origin:
        i % 10 < 7
          ? { dialogueId: PRIVATE_CHAT, scope: 'private' }
          : { dialogueId: `dlg_bench_group_${i % 3}`, scope: 'group' },
      occurredAt: at,
      status: 'active',
      recall: { count: 0 },
      createdAt: at,
      updatedAt: at,
    });
  }
  const vectors = await embedder.embed(out.map((e) => e.text));
  out.forEach((e, i) => (e.embedding = toMemoryEmbedding(embedder.id, vectors[i]!)));
  return out;
}

/** What users ask: mixed Chinese and English, some with history cues and an earlier message. */
const QUESTIONS: Array<Pick<RecallRequest, 'message' | 'recentUserTexts'>> = [
  { message: 'Where do I live these days?' },
  { message: "What's my cat's name again?" },
  { message: 'Do you remember what I do for work?' },
  { message: 'What food do I love?', recentUserTexts: ['I am so hungry right now'] },
  { message: 'When did I go to Tokyo?' },
  { message: 'How old is my sister?' },
  { message: 'Remember the trip last time? Who did I go with?', recentUserTexts: ['I miss Lisbon so much'] },
  { message: 'Which instrument am I learning?' },
  { message: '我的猫叫什么名字' },
  { message: '我住在哪里？' },
  { message: '你还记得我在哪里工作吗？' },
  { message: '我最喜欢吃什么？' },
  { message: '你还记得我上次去哪里旅行吗？', recentUserTexts: ['我好想出去玩'] },
  { message: '我最近在学什么？' },
  { message: '我妹妹今年多大了？' },
  { message: '为什么那天我们在成都聊到很晚？详细说说' },
  { message: 'hey, any plans for the weekend? I might try pottery' },
  { message: '今天好累啊，上班的时候一直在想火锅' },
];

// ---- measurement ----

export interface RecallSizeResult {
  size: number;
  /** Where the cold loads read from; 'memory' when storing this many was over the insert budget. */
  source: 'store' | 'memory';
  /** Seconds spent inserting this size's new memories; NaN when not stored. */
  insertS: number;
  /** Cold index loads (new IndexCache → first get) listing the scope (no snapshot), ms; empty when not stored. */
  coldLoadMs: number[];
  /** Cold index loads from the scope's snapshot (read by `_id`, no listing), ms; empty when not stored. */
  snapshotLoadMs: number[];
  /** Writing that snapshot (pack, compress, store) after a listed load, ms; NaN when not stored. */
  snapshotWriteMs: number;
  recallMs: number[];
  keywordOnlyMs: number[];
  /** Timed recalls that returned no memory, per mode. */
  empty: { recall: number; keywordOnly: number };
  /** Timed recalls that were not in the mode they measure (vector vs keyword-only). */
  wrongMode: number;
}

export interface RecallBenchResult {
  cfg: RecallBenchConfig;
  sizes: RecallSizeResult[];
  /** Why the largest sizes were not stored, if they were not. */
  skippedNote?: string;
}

type MemoriesPort = ConstructorParameters<typeof IndexCache>[0]['store']['memories'];

/** The generated memories held in this process: the index's store port when they are not stored. */
function inMemoryMemories(all: readonly MemoryEntry[]): MemoriesPort {
  return {
    list: (_scope, o) =>
      Promise.resolve(all.filter((e) => (!o?.status || e.status === o.status) && (!o?.since || e.updatedAt > o.since))),
    setEmbedding: () => Promise.resolve(),
    getMany: (ids) => Promise.resolve(all.filter((e) => ids.includes(e._id))),
  };
}

export async function benchRecall(o: {
  mongoUri: string;
  dbName: string;
  cfg: RecallBenchConfig;
  progress: (line: string) => void;
}): Promise<RecallBenchResult> {
  const { cfg, progress } = o;
  const embedder = new FusedVectors(new HashedNgramEmbedder(cfg.dims));
  const log = pino({ level: 'silent' });
  const scope = { ownerId: OWNER, subjectId: SUBJECT };
  const store = await Store.connect(o.mongoUri, o.dbName);
  const noStats = { memories: { noteRecalled: () => Promise.resolve() } }; // stats writes would measure the store, not recall
  const result: RecallBenchResult = { cfg, sizes: [] };
  // Keyword-only recall uses them once loaded: load them first, so every timed recall has them.
  const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const loadStarted = performance.now();
  if (!(await sharedWordVectors().ready()))
    progress(`recall: word vectors unavailable (${String(sharedWordVectors().error)})`);
  const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  progress(
    `recall: word vectors loaded in ${(performance.now() - loadStarted).toFixed(0)} ms (heap + buffers +${((heapAfter - heapBefore) / 1e6).toFixed(0)} MB)`,
  );
  try {
    let stored = 0;
    let insertRate = NaN; // memories per second, from the sizes stored so far
    const all: MemoryEntry[] = [];
    for (const size of cfg.sizes) {
      const previous = all.length;
      progress(`recall: generating ${size - all.length} memories (${size} in all)`);
      all.push(...(await generateMemories(all.length, size, embedder)));

      // Store unless the projected insert time is over budget (FerretDB inserts are slow).
      let insertS = NaN;
      const projectedS = (size - stored) / insertRate;
      if (stored === previous && !(projectedS > cfg.insertBudgetS)) {
        progress(
          `recall: inserting ${size - stored} memories into the store${Number.isFinite(projectedS) ? ` (~${projectedS.toFixed(0)} s projected)` : ''}`,
        );
        const t = performance.now();
        await store.memories.insertMany(all.slice(stored, size));
        insertS = (performance.now() - t) / 1000;
        insertRate = (size - stored) / insertS;
        stored = size;
      } else if (!result.skippedNote) {
        result.skippedNote = `${size} memories not stored: inserting ${size - stored} more would take ~${(projectedS / 60).toFixed(1)} min at the measured ${insertRate.toFixed(0)}/s (over BENCH_RECALL_INSERT_BUDGET_S=${cfg.insertBudgetS}); its recall was measured on the same index built from the generated entries in memory, and its cold load is not reported`;
        progress(`recall: ${result.skippedNote}`);
      }
      const source: RecallSizeResult['source'] = stored === size ? 'store' : 'memory';
      const memories: MemoriesPort = source === 'store' ? store.memories : inMemoryMemories(all);

      // Cold loads: a fresh cache each time, as a new worker process would have.
      const coldLoadMs: number[] = [];
      if (source === 'store') {
        const loads = size === cfg.sizes.at(-1) && size >= 50_000 ? 1 : cfg.loads;
        progress(`recall: ${loads} cold index load(s) of ${size} memories from the store`);
        for (let i = 0; i < loads; i++) {
          const cache = new IndexCache({ store: { memories }, embedder, versions: new LocalMemoryVersions(), log });
          const t = performance.now();
          const index = await cache.get(scope);
          coldLoadMs.push(performance.now() - t);
          if (index.size !== size) throw new Error(`cold load found ${index.size} active memories, expected ${size}`);
        }
      }

      const snap =
        source === 'store' ? await snapshotLoads(store, memories, scope, size, o.cfg, progress, embedder) : undefined;

      // Warm recalls on one cache (the steady state of a worker): one version check, then search.
      const cache = new IndexCache({ store: { memories }, embedder, versions: new LocalMemoryVersions(), log });
      const index = await cache.get(scope);
      if (index.size !== size) throw new Error(`index holds ${index.size} memories, expected ${size}`);
      const recall = new MemoryRecall({ store: noStats, embedder, cache, log });
      const keywordOnly = new MemoryRecall({ store: noStats, embedder: new DownEmbedder(embedder), cache, log });
      const empty = { recall: 0, keywordOnly: 0 };
      let wrongMode = 0;
      const ask = (mode: 'recall' | 'keywordOnly', counted: boolean) => async (i: number) => {
        const q = QUESTIONS[i % QUESTIONS.length]!;
        const res = await (mode === 'recall' ? recall : keywordOnly).recall({
          ownerId: OWNER,
          subjectId: SUBJECT,
          ...q,
          topK: 8,
          now: NOW,
          place: { dialogueId: PRIVATE_CHAT, private: true },
        });
        if (!counted) return;
        if (res.memories.length === 0) empty[mode]++;
        if ((res.degraded === 'keyword_only') !== (mode === 'keywordOnly')) wrongMode++;
      };
      progress(`recall: ${cfg.queries} recalls + ${cfg.queries} keyword-only recalls over ${size} memories`);
      await timed(cfg.warmup, ask('recall', false));
      const recallMs = await timed(cfg.queries, ask('recall', true));
      await timed(cfg.warmup, ask('keywordOnly', false));
      const keywordOnlyMs = await timed(cfg.queries, ask('keywordOnly', true));
      result.sizes.push({
        size,
        source,
        insertS,
        coldLoadMs,
        snapshotLoadMs: snap?.loadMs ?? [],
        snapshotWriteMs: snap?.writeMs ?? NaN,
        recallMs,
        keywordOnlyMs,
        empty,
        wrongMode,
      });
    }
    return result;
  } finally {
    await store.close();
  }
}

/**
 * The cold start with a snapshot (issue 34): one listed load writes the scope's snapshot (timed),
 * then each new IndexCache loads from it — the head and parts by `_id`, no listing (checked).
 */
async function snapshotLoads(
  store: Store,
  memories: MemoriesPort,
  scope: { ownerId: string; subjectId: string },
  size: number,
  cfg: RecallBenchConfig,
  progress: (line: string) => void,
  embedder: Embedder,
): Promise<{ loadMs: number[]; writeMs: number }> {
  const log = pino({ level: 'silent' });
  await store.memorySnapshots.invalidate(scope); // the previous size's
  const writer = new IndexCache({
    store: { memories, memorySnapshots: store.memorySnapshots },
    embedder,
    versions: new LocalMemoryVersions(),
    log,
  });
  await writer.get(scope);
  const t0 = performance.now();
  await writer.snapshotsWritten();
  const writeMs = performance.now() - t0;
  writer.forget(scope); // a cold process holds no other index of the scope
  const head = await store.memorySnapshots.head(scope);
  if (!head || head === 'corrupt' || head.count !== size) throw new Error(`snapshot of ${size} memories not written`);
  const loads = size === cfg.sizes.at(-1) && size >= 50_000 ? Math.min(3, cfg.loads) : cfg.loads;
  progress(
    `recall: snapshot of ${size} memories written in ${(writeMs / 1000).toFixed(1)} s (${head.parts.length} parts); ${loads} cold load(s) from it`,
  );
  const loadMs: number[] = [];
  for (let i = 0; i < loads; i++) {
    let lists = 0;
    const counted: MemoriesPort = { ...memories, list: (s, o) => (lists++, memories.list(s, o)) };
    const cache = new IndexCache({
      store: { memories: counted, memorySnapshots: store.memorySnapshots },
      embedder,
      versions: new LocalMemoryVersions(),
      log,
    });
    const cpu = process.cpuUsage();
    const t = performance.now();
    const index = await cache.get(scope);
    loadMs.push(performance.now() - t);
    if (lists > 0 || index.size !== size) throw new Error(`snapshot load listed ${lists} times, holds ${index.size}`);
    // On a shared machine the wall time says as much about the neighbours: this process's CPU beside it.
    const used = process.cpuUsage(cpu);
    progress(
      `recall: snapshot load of ${size}: ${loadMs.at(-1)!.toFixed(0)} ms, this process's CPU ${(used.user / 1000).toFixed(0)} ms user + ${(used.system / 1000).toFixed(0)} ms system`,
    );
  }
  return { loadMs, writeMs };
}
