// Knowledge retrieval (src/knowledge) over one agent's 10 000 chunks: the production
// KnowledgeRetrieval over a warm KnowledgeCache (vector + BM25 per synthesised query, fused),
// the same with the embeddings API down (keywords only), an agent without documents (what every
// turn of such an agent pays), and the cold load of the agent's index from the MongoDB-wire
// server (two queries, stored vectors decoded, postings built). Passages are generated
// deterministically from handbook-like sentence templates in English and Chinese sharing
// vocabulary, in documents of 100 chunks, so keyword postings grow long as real ones do.
import pino from 'pino';
import { Store } from '../src/store/store.js';
import { HashedNgramEmbedder } from '../src/memory/hashedNgramEmbedder.js';
import { LocalMemoryVersions } from '../src/memory/versions.js';
import { toMemoryEmbedding } from '../src/memory/vectors.js';
import { KnowledgeCache } from '../src/knowledge/knowledgeCache.js';
import { KnowledgeRetrieval } from '../src/knowledge/retrieval.js';
import { chunkSearchText } from '../src/knowledge/knowledgeIndex.js';
import { chunkIdOf } from '../src/knowledge/chunking.js';
import type { KnowledgeChunk, KnowledgeDocument } from '../src/domain/knowledge.js';
import { intFromEnv } from './config.js';
import { fmt, table } from './report.js';
import { percentile, timed } from './stats.js';
import { mulberry32 } from '../test/support/prng.js';
import { DownEmbedder } from './benchEmbedders.js';

export interface KnowledgeBenchConfig {
  chunks: number;
  queries: number;
  warmup: number;
  dims: number;
  topK: number;
  loads: number;
}

export function loadKnowledgeBenchConfig(): KnowledgeBenchConfig {
  return {
    chunks: intFromEnv('BENCH_KNOWLEDGE_CHUNKS', 10_000),
    queries: intFromEnv('BENCH_KNOWLEDGE_QUERIES', 200),
    warmup: intFromEnv('BENCH_KNOWLEDGE_WARMUP', 20, 0),
    dims: intFromEnv('BENCH_KNOWLEDGE_DIMS', 256, 8),
    topK: intFromEnv('BENCH_KNOWLEDGE_TOP_K', 5),
    loads: intFromEnv('BENCH_KNOWLEDGE_LOADS', 3),
  };
}

const prng = mulberry32;

const PRODUCT = [
  'router',
  'printer',
  'laptop',
  'headset',
  'camera',
  'monitor',
  'keyboard',
  'tablet',
  'speaker',
  'charger',
];
const TOPIC = ['refund', 'warranty', 'shipping', 'installation', 'reset', 'firmware update', 'battery', 'pairing'];
const DAYS = ['14', '30', '60', '90'];
const ZH_PRODUCT = ['路由器', '打印机', '笔记本', '耳机', '相机', '显示器', '键盘', '平板', '音箱', '充电器'];
const ZH_TOPIC = ['退款', '保修', '配送', '安装', '重置', '固件升级', '电池', '配对'];
const EN_SENTENCES: Array<(p: (xs: readonly string[]) => string) => string> = [
  (p) => `The ${p(PRODUCT)} ${p(TOPIC)} policy allows claims within ${p(DAYS)} days of purchase.`,
  (p) => `To start a ${p(TOPIC)} for your ${p(PRODUCT)}, open the support page and enter the serial number.`,
  (p) => `Hold the power button of the ${p(PRODUCT)} for ten seconds before any ${p(TOPIC)}.`,
  (p) => `A ${p(TOPIC)} request for a ${p(PRODUCT)} bought abroad is handled by the local reseller.`,
  (p) => `Keep the receipt: without it the ${p(TOPIC)} of a ${p(PRODUCT)} is store credit only.`,
];
const ZH_SENTENCES: Array<(p: (xs: readonly string[]) => string) => string> = [
  (p) => `${p(ZH_PRODUCT)}的${p(ZH_TOPIC)}政策：购买后${p(DAYS)}天内可以申请。`,
  (p) => `申请${p(ZH_PRODUCT)}${p(ZH_TOPIC)}时，请在支持页面填写序列号。`,
  (p) => `进行${p(ZH_TOPIC)}之前，请长按${p(ZH_PRODUCT)}电源键十秒。`,
];

/** The i-th passage: 3–6 sentences, one in four Chinese. */
export function passageText(i: number): string {
  const rnd = prng(0x51ed27 ^ i);
  const p = (xs: readonly string[]) => xs[Math.floor(rnd() * xs.length)]!;
  const zh = rnd() < 0.25;
  const sentences = zh ? ZH_SENTENCES : EN_SENTENCES;
  const n = 3 + Math.floor(rnd() * 4);
  return Array.from({ length: n }, () => sentences[Math.floor(rnd() * sentences.length)]!(p)).join(zh ? '' : ' ');
}

const QUESTIONS = [
  'What is the refund policy for the router?',
  'How do I reset my printer?',
  'Is the laptop battery under warranty after 60 days?',
  'Can I get a refund without a receipt?',
  'How long does shipping of a monitor take?',
  'headset pairing',
  '路由器怎么重置？',
  '耳机的保修政策是什么？',
  'hi, how are you today?',
  'My camera firmware update failed, what now?',
];

const AGENT = 'agt_bench_knowledge';
const DOC_CHUNKS = 100;
const AT = new Date('2025-01-01T00:00:00Z');

export interface KnowledgeBenchResult {
  cfg: KnowledgeBenchConfig;
  insertS: number;
  coldLoadMs: number[];
  retrievalMs: number[];
  keywordOnlyMs: number[];
  noDocumentsMs: number[];
  /** Timed retrievals that returned no passage (small talk should). */
  empty: { retrieval: number; keywordOnly: number };
}

export async function benchKnowledge(o: {
  mongoUri: string;
  dbName: string;
  cfg: KnowledgeBenchConfig;
  progress: (line: string) => void;
}): Promise<KnowledgeBenchResult> {
  const { cfg, progress } = o;
  const embedder = new HashedNgramEmbedder(cfg.dims);
  const log = pino({ level: 'silent' });
  const store = await Store.connect(o.mongoUri, o.dbName);
  try {
    progress(`knowledge: generating ${cfg.chunks} chunks in ${Math.ceil(cfg.chunks / DOC_CHUNKS)} documents`);
    const docs: KnowledgeDocument[] = [];
    const chunks: KnowledgeChunk[] = [];
    for (let i = 0; i < cfg.chunks; i++) {
      const d = Math.floor(i / DOC_CHUNKS);
      if (!docs[d])
        docs[d] = {
          _id: `doc_bench_${String(d).padStart(4, '0')}`,
          agentId: AGENT,
          name: `manual-${d}.pdf`,
          type: 'pdf',
          size: 0,
          chars: 0,
          chunkCount: 0,
          sha256: '',
          status: 'ready',
          createdAt: AT,
          updatedAt: AT,
        };
      const doc = docs[d];
      const content = passageText(i);
      doc.chunkCount++;
      doc.chars += content.length;
      chunks.push({
        _id: chunkIdOf(doc._id, i % DOC_CHUNKS),
        documentId: doc._id,
        agentId: AGENT,
        index: i % DOC_CHUNKS,
        content,
        embedding: toMemoryEmbedding(
          embedder.id,
          embedder.embedOne(chunkSearchText({ documentName: doc.name, content })),
        ),
        createdAt: AT,
      });
    }
    progress(`knowledge: inserting ${chunks.length} chunks`);
    const t = performance.now();
    await store.knowledge.mark(AGENT, AT);
    await store.c.knowledgeDocuments.insertMany(docs);
    for (let i = 0; i < chunks.length; i += 1_000) await store.c.knowledgeChunks.insertMany(chunks.slice(i, i + 1_000));
    const insertS = (performance.now() - t) / 1000;

    const cacheOf = () => new KnowledgeCache({ store, embedder, versions: new LocalMemoryVersions(), log });
    progress(`knowledge: ${cfg.loads} cold loads of the agent's index`);
    const coldLoadMs = await timed(cfg.loads, async () => {
      const index = await cacheOf().get(AGENT);
      if (index.size !== cfg.chunks) throw new Error(`loaded ${index.size} chunks, expected ${cfg.chunks}`);
    });

    const cache = cacheOf();
    await cache.get(AGENT);
    const retrieval = new KnowledgeRetrieval({ cache, embedder, log });
    const keywordOnly = new KnowledgeRetrieval({ cache, embedder: new DownEmbedder(embedder), log });
    const empty = { retrieval: 0, keywordOnly: 0 };
    const ask = (mode: 'retrieval' | 'keywordOnly', counted: boolean) => async (i: number) => {
      const res = await (mode === 'retrieval' ? retrieval : keywordOnly).retrieve({
        agentId: AGENT,
        message: QUESTIONS[i % QUESTIONS.length]!,
        topK: cfg.topK,
      });
      if (counted && res.sources.length === 0) empty[mode]++;
    };
    progress(`knowledge: ${cfg.queries} retrievals + ${cfg.queries} keyword-only over ${cfg.chunks} chunks`);
    await timed(cfg.warmup, ask('retrieval', false));
    const retrievalMs = await timed(cfg.queries, ask('retrieval', true));
    await timed(cfg.warmup, ask('keywordOnly', false));
    const keywordOnlyMs = await timed(cfg.queries, ask('keywordOnly', true));
    // An agent without documents, after its first turn: the cached empty index, no embedding.
    await retrieval.retrieve({ agentId: 'agt_bench_none', message: QUESTIONS[0]!, topK: cfg.topK });
    const noDocumentsMs = await timed(cfg.queries, async (i) => {
      await retrieval.retrieve({
        agentId: 'agt_bench_none',
        message: QUESTIONS[i % QUESTIONS.length]!,
        topK: cfg.topK,
      });
    });
    return { cfg, insertS, coldLoadMs, retrievalMs, keywordOnlyMs, noDocumentsMs, empty };
  } finally {
    await store.close();
  }
}

export function knowledgeTable(r: KnowledgeBenchResult): string {
  const p = (xs: readonly number[], q: number) => fmt(percentile(xs, q));
  return table(
    ['measure', 'p50 (ms)', 'p99 (ms)'],
    [
      [
        `retrieval, ${r.cfg.chunks.toLocaleString('en-US')} chunks (vector + keyword, fused)`,
        p(r.retrievalMs, 50),
        p(r.retrievalMs, 99),
      ],
      ['keyword-only (embeddings down)', p(r.keywordOnlyMs, 50), p(r.keywordOnlyMs, 99)],
      ['agent without documents', p(r.noDocumentsMs, 50), p(r.noDocumentsMs, 99)],
      [`cold index load (n=${r.coldLoadMs.length})`, p(r.coldLoadMs, 50), p(r.coldLoadMs, 99)],
    ],
  );
}

export function knowledgeNotes(r: KnowledgeBenchResult): string[] {
  const { cfg } = r;
  return [
    `Retrieval: KnowledgeRetrieval over a warm KnowledgeCache, offline hashed n-gram embedder (${cfg.dims} dims, as EMBEDDING_DIMS), ${cfg.queries} timed retrievals after ${cfg.warmup} untimed, topK ${cfg.topK}, mixed zh/en questions and small talk (2–3 queries each: vector + BM25 per query, fused). The query embedding is local here; with the OpenAI API its round trip adds to every retrieval (bounded by RECALL_EMBED_TIMEOUT_MS). The per-use Redis version GET is not included (LocalMemoryVersions).`,
    `Keyword-only: every embed call fails at once. Agent without documents: the cached empty index (no query, no embedding). Cold load: a new cache's first use of the agent — the mark by _id, ready documents and all chunks (two queries), vectors decoded, postings built. Insert: ${fmt(r.insertS)} s for ${cfg.chunks} chunks with insertMany.`,
    `Empty results: ${r.empty.retrieval} of ${cfg.queries} retrievals and ${r.empty.keywordOnly} keyword-only ones returned no passage (the small-talk question is meant to).`,
  ];
}
