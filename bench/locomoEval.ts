// Asks every LoCoMo question (categories 1–4) of one memory form through six retrievers over
// the same warm per-owner index (the real IndexCache and MemoryIndex, offline embedder):
// - recall: MemoryRecall.recall, the reply's own path with the offline default (query synthesis,
//   the keyword retriever with word-vector expansion and meaning rerank; the offline vectors are
//   left out, Embedder.lexical), the word vectors loaded before the first question;
// - recall, no word vectors: the same without them (as before they were used, and as a process
//   runs until they are loaded);
// - recall, offline vectors fused: the same path fusing the offline vectors as it fuses an
//   embeddings API's — the evidence for leaving them out;
// - recall, keyword-only: the same with the embeddings API down (degraded: 'keyword_only');
// - BM25 alone: the index's keyword search with the question as it is;
// - vectors alone: the index's vector search with the question's embedding.
import pino from 'pino';
import type { Embedder } from '../src/memory/embedder.js';
import { IndexCache } from '../src/memory/indexCache.js';
import { MemoryRecall, RECALL_KINDS } from '../src/memory/recall.js';
import { LocalMemoryVersions } from '../src/memory/versions.js';
import type { LocomoConversation, LocomoForm } from './locomoData.js';
import type { ScoredQuestion } from './locomoScore.js';
import { DownEmbedder, FusedVectors, NO_WORD_VECTORS } from './benchEmbedders.js';
import { sharedWordVectors, type WordVectorSource } from '../src/memory/wordVectorsLoader.js';

export const LOCOMO_RETRIEVERS = [
  'recall',
  'recall, no word vectors',
  'recall, offline vectors fused',
  'recall, keyword-only',
  'BM25 alone',
  'vectors alone',
] as const;
export type LocomoRetriever = (typeof LOCOMO_RETRIEVERS)[number];

export type MemoriesPort = ConstructorParameters<typeof IndexCache>[0]['store']['memories'];

/** Memories stored for a conversation's form: the owner they were stored under and each id's dia_ids. */
export interface StoredForm {
  ownerId: string;
  evidenceOf: ReadonlyMap<string, readonly string[]>;
}

export const TOP_K = 10;

export interface FormRun {
  form: LocomoForm;
  memories: number;
  questions: Record<LocomoRetriever, ScoredQuestion[]>;
  /** Mean time per question and retriever, ms. */
  msPerQuestion: Record<LocomoRetriever, number>;
}

/** Every question of every conversation in one form, through the retrievers. */
export async function evaluateForm(o: {
  form: LocomoForm;
  conversations: readonly LocomoConversation[];
  stored: ReadonlyMap<string, StoredForm>;
  memories: MemoriesPort;
  embedder: Embedder;
  /** By default the process's shared ones, loaded before the first question. */
  wordVectors?: WordVectorSource;
}): Promise<FormRun> {
  const wordVectors = o.wordVectors ?? sharedWordVectors();
  if (!(await wordVectors.ready())) throw new Error(`word vectors unavailable: ${String(wordVectors.error)}`);
  const log = pino({ level: 'silent' });
  const cache = new IndexCache({
    store: { memories: o.memories },
    embedder: o.embedder,
    versions: new LocalMemoryVersions(),
    log,
  });
  const noStats = { memories: { noteRecalled: () => Promise.resolve() } };
  const recall = new MemoryRecall({ store: noStats, embedder: o.embedder, cache, log, wordVectors });
  const noWords = new MemoryRecall({ store: noStats, embedder: o.embedder, cache, log, wordVectors: NO_WORD_VECTORS });
  const fused = new MemoryRecall({ store: noStats, embedder: new FusedVectors(o.embedder), cache, log, wordVectors });
  const keywordOnly = new MemoryRecall({
    store: noStats,
    embedder: new DownEmbedder(o.embedder),
    cache,
    log,
    wordVectors,
  });
  const questions = Object.fromEntries(
    LOCOMO_RETRIEVERS.map((r) => [r, [] as ScoredQuestion[]]),
  ) as FormRun['questions'];
  const spent = Object.fromEntries(LOCOMO_RETRIEVERS.map((r) => [r, 0])) as Record<LocomoRetriever, number>;
  let memories = 0;
  let asked = 0;
  for (const conv of o.conversations) {
    const stored = o.stored.get(conv.id)!;
    const index = await cache.get({ ownerId: stored.ownerId });
    memories += index.size;
    const filter = { kinds: RECALL_KINDS };
    const ask: Record<LocomoRetriever, (q: string) => Promise<string[]>> = {
      recall: async (q) => ids(await recall.recall(request(stored.ownerId, q, conv.askedAt))),
      'recall, no word vectors': async (q) => ids(await noWords.recall(request(stored.ownerId, q, conv.askedAt))),
      'recall, offline vectors fused': async (q) => ids(await fused.recall(request(stored.ownerId, q, conv.askedAt))),
      'recall, keyword-only': async (q) => ids(await keywordOnly.recall(request(stored.ownerId, q, conv.askedAt))),
      'BM25 alone': (q) => Promise.resolve(index.keywordSearch(q, TOP_K, filter).map((h) => h.entry.id)),
      'vectors alone': async (q) => {
        const [v] = await o.embedder.embed([q]);
        return index.search(v!, TOP_K, filter).map((h) => h.entry.id);
      },
    };
    for (const q of conv.questions) {
      asked++;
      for (const r of LOCOMO_RETRIEVERS) {
        const t = performance.now();
        const top = await ask[r](q.question);
        spent[r] += performance.now() - t;
        questions[r].push({
          conversation: conv.id,
          question: q.question,
          category: q.category,
          evidence: q.evidence,
          ranked: top.map((id) => stored.evidenceOf.get(id) ?? []),
        });
      }
    }
  }
  const msPerQuestion = Object.fromEntries(
    LOCOMO_RETRIEVERS.map((r) => [r, asked === 0 ? NaN : spent[r] / asked]),
  ) as Record<LocomoRetriever, number>;
  return { form: o.form, memories, questions, msPerQuestion };
}

const request = (ownerId: string, message: string, now: Date) => ({
  ownerId,
  message,
  topK: TOP_K,
  now,
  countRecall: false, // an evaluation, not a reply: no recall statistics
});

const ids = (r: { memories: Array<{ id: string }> }): string[] => r.memories.map((m) => m.id);
