// Knowledge retrieval (seed 004 FR-004): the passages of the agent's documents that may answer
// the turn. Hybrid, like memory recall: the same synthesised queries (the message, its keywords,
// a history cue's query; src/memory/recallQueries.ts), each searched by vector and by BM25 keywords
// in the agent's in-process index, fused by reciprocal rank (src/memory/rrf.ts). A vector hit
// below `minSimilarity` is not a candidate (every chunk has some cosine with anything; small talk
// must not pull in passages). The relevance score is the fused score over the best a passage
// could have had — first in every list searched — so 1 means "top by every query, both ways".
// An agent without documents costs no embedding and no database read (knowledgeCache.ts).
// Embeddings down or slow → keywords alone.
import type { Logger } from 'pino';
import type { Embedder } from '../memory/embedder.js';
import { synthesizeQueries } from '../memory/recallQueries.js';
import { rankFused, reciprocalRankFusion, RRF_K } from '../memory/rrf.js';
import { embedQueries } from '../memory/queryEmbeddings.js';
import { PreparedChecks } from '../memory/preparedChecks.js';
import type { NumberedSource } from '../domain/citations.js';
import type { KnowledgeCache } from './knowledgeCache.js';
import type { ChunkHit, IndexedChunk, KnowledgeIndex } from './knowledgeIndex.js';

export interface RetrievalDeps {
  cache: Pick<KnowledgeCache, 'get'>;
  embedder: Embedder;
  log: Logger;
  /** Query embeddings are awaited this long, then keywords alone answer (RECALL_EMBED_TIMEOUT_MS). */
  embedTimeoutMs?: number;
  /** Cosine below which a vector hit is no candidate (KNOWLEDGE_MIN_SIMILARITY). */
  minSimilarity?: number;
}

export interface RetrievalRequest {
  agentId: string;
  message: string;
  topK: number;
  signal?: AbortSignal;
}

export interface RetrievalResult {
  /** Best first, numbered 1..k as the prompt shows them. */
  sources: NumberedSource[];
  queries: string[];
  degraded?: 'keyword_only';
  /** Chunks the agent has (0: nothing was searched). */
  searched: number;
  timings: { indexMs: number; embedMs: number; searchMs: number; totalMs: number };
}

const PER_LIST = 20;
export const DEFAULT_MIN_SIMILARITY = 0.3;
const DEFAULT_EMBED_TIMEOUT_MS = 3_000;

export class KnowledgeRetrieval {
  private embeddingsDown = false;
  /** Agents `prepare` checked: their retrieval skips a second version check. */
  private readonly prepared = new PreparedChecks();

  constructor(private readonly d: RetrievalDeps) {}

  /** Loads (or checks) the agent's index ahead of a retrieval, e.g. while a reply's history is read. */
  async prepare(agentId: string): Promise<void> {
    await this.d.cache
      .get(agentId)
      .then(() => this.prepared.note(agentId))
      .catch((err: unknown) => this.d.log.debug({ err, agentId }, 'knowledge index not prepared'));
  }

  async retrieve(r: RetrievalRequest): Promise<RetrievalResult> {
    const started = performance.now();
    // Prepared for this reply moments ago: taken as checked then (one Redis round trip less).
    const index = await this.d.cache.get(r.agentId, { justChecked: this.prepared.take(r.agentId) });
    const indexMs = performance.now() - started;
    const queries = synthesizeQueries(r.message).queries;
    const none = (embedMs = 0, searchMs = 0): RetrievalResult => ({
      sources: [],
      queries,
      searched: index.size,
      timings: { indexMs, embedMs, searchMs, totalMs: performance.now() - started },
    });
    if (index.size === 0 || queries.length === 0 || r.topK <= 0) return none();

    const embedded = await embedQueries(
      this.d.embedder,
      queries,
      this.d.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS,
      r.signal,
    );
    r.signal?.throwIfAborted();
    const vectors = 'vectors' in embedded ? embedded.vectors : undefined;
    this.noteEmbeddings(vectors ? undefined : 'error' in embedded ? embedded.error : undefined, !vectors);

    const searchStarted = performance.now();
    const ranked = this.rank(index, queries, vectors, r.topK);
    const sources = ranked.map(({ chunk, score }, i) => ({
      n: i + 1,
      chunkId: chunk.id,
      documentId: chunk.documentId,
      documentName: chunk.documentName,
      ...(chunk.heading ? { heading: chunk.heading } : {}),
      content: chunk.content,
      score,
    }));
    return {
      ...none(embedded.ms, performance.now() - searchStarted),
      sources,
      ...(vectors ? {} : { degraded: 'keyword_only' as const }),
    };
  }

  /** The top k chunks by fused rank, each with its relevance in 0..1. */
  private rank(
    index: KnowledgeIndex,
    queries: string[],
    vectors: Float32Array[] | undefined,
    k: number,
  ): Array<{ chunk: IndexedChunk; score: number }> {
    const minSimilarity = this.d.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
    const lists: ChunkHit[][] = [];
    queries.forEach((query, i) => {
      const v = vectors?.[i];
      if (v) lists.push(index.search(v, PER_LIST, minSimilarity));
      lists.push(index.keywordSearch(query, PER_LIST));
    });
    const best = lists.length / (RRF_K + 1); // first in every list searched
    const candidates = new Map<string, IndexedChunk & { occurredAt: Date; importance: number }>();
    for (const list of lists)
      for (const h of list) candidates.set(h.chunk.id, { ...h.chunk, occurredAt: h.chunk.addedAt, importance: 0 });
    const fused = reciprocalRankFusion(lists.map((l) => l.map((h) => h.chunk.id)));
    // Relevance alone orders passages: recency and importance mean nothing for a document.
    return rankFused(fused, candidates, { now: new Date(0), recencyWeight: 0, importanceWeight: 0 })
      .slice(0, k)
      .map(({ candidate, score }) => ({
        chunk: candidate,
        score: Math.min(1, Math.round((score / best) * 1000) / 1000),
      }));
  }

  // Logged once per outage, not once per turn.
  private noteEmbeddings(err: unknown, down: boolean): void {
    if (down === this.embeddingsDown) return;
    this.embeddingsDown = down;
    if (down)
      this.d.log.warn({ err, embedder: this.d.embedder.id }, 'query embeddings failed; knowledge is keyword-only');
    else this.d.log.info({ embedder: this.d.embedder.id }, 'query embeddings work again; knowledge uses vectors');
  }
}
