// Active recall (SPEC §5, seed 003 §四.1 and Q1): every turn, before the reply, search the
// owner's memories about this human with 2–4 synthesised queries — BM25 keyword search per query
// with feedback, time and context (keywordRanking.ts), and vector search per query when the
// embedder understands meaning — merge the two retrievers by reciprocal rank fusion, each
// weighing the same, and nudge the order by recency and importance. The offline embedder's
// vectors only restate keyword overlap and are left out (Embedder.lexical); keyword-only recall
// gets its sense of meaning from English word vectors instead (Chinese has none: keywords alone),
// loaded once per process by its first recall (or prepare), which waits for them as it waits for
// the index. With an embeddings API they are never loaded unless the API fails. The query embedding
// runs in parallel with the index load; if embeddings are down or slow, recall answers from
// keywords alone rather than delaying or failing the reply, and an index still loading past
// RECALL_LOAD_WAIT_MS (a large scope's first use) gives that reply no memories.
import type { Logger } from 'pino';
import type { MemoryKind } from '../domain/model.js';
import type { RecallPlace } from '../domain/memoryOrigin.js';
import type { MemoryRepo } from '../store/memories.js';
import type { Embedder } from './embedder.js';
import type { IndexCache } from './indexCache.js';
import type { IndexEntry, MemoryIndex } from './memoryIndex.js';
import { calledNameIn } from '../domain/calledName.js';
import { scopeKey, type MemoryScope } from './versions.js';
import { PreparedChecks } from './preparedChecks.js';
import type { WordVectors } from './wordVectors.js';
import { fuseRetrievers } from './recallFusion.js';
import { synthesizeQueries, type SynthesizedQueries } from './recallQueries.js';
import { DEFAULT_BLEND, rankFused } from './rrf.js';
import { embedQueries, type EmbeddedQueries } from './queryEmbeddings.js';
import { sharedWordVectors, type WordVectorSource } from './wordVectorsLoader.js';
import type { Metrics } from '../metrics/metrics.js';

export interface RecalledMemory {
  id: string;
  kind: MemoryKind;
  text: string;
  occurredAt: Date;
  importance: number;
  score: number;
}

/**
 * What the persona card keeps from turn to turn (seed 003): the person's most important
 * preferences and concerns and the name they asked for — among the memories this chat may see,
 * not only this turn's hits, so the card changes only when they do.
 */
export interface StandingMemories {
  preferences: StandingMemory[];
  concerns: StandingMemory[];
  calledName?: string;
}

export type StandingMemory = Pick<RecalledMemory, 'id' | 'kind' | 'text' | 'importance'>;

export const STANDING_PREFERENCES = 5;
export const STANDING_CONCERNS = 6;

export interface RecallResult {
  memories: RecalledMemory[];
  /** Present when the scope's index was searched. */
  standing?: StandingMemories;
  queries: string[];
  deep: boolean;
  /**
   * keyword_only: the embeddings failed or were late; index_loading: the scope's index was not
   * loaded within the load budget, so nothing was searched (the load goes on for the next recall).
   */
  degraded?: 'keyword_only' | 'index_loading';
  timings: { embedMs: number; searchMs: number; totalMs: number };
}

export interface RecallRequest {
  ownerId: string;
  subjectId?: string;
  message: string;
  /** Earlier user messages, oldest first; the last one feeds the history query. */
  recentUserTexts?: string[];
  topK: number;
  now: Date;
  signal?: AbortSignal;
  /** Kinds searched; by default a turn's (plot only for "how / why / details" questions). */
  kinds?: readonly MemoryKind[];
  /** Counts in the memories' recall statistics (default); an operator's search does not. */
  countRecall?: boolean;
  /** Waits for the scope's index however long its load takes (an operator's search), not loadWaitMs. */
  waitForIndex?: boolean;
  /**
   * The chat the memories are recalled into: only memories that may reach it are searched
   * (SPEC §13). Absent only for an operator's search, which sees every memory.
   */
  place?: RecallPlace;
}

export interface RecallDeps {
  store: { memories: Pick<MemoryRepo, 'noteRecalled'> };
  embedder: Embedder;
  cache: IndexCache;
  log: Logger;
  /** RECALL_EMBED_TIMEOUT_MS: after this, keyword-only. */
  embedTimeoutMs?: number;
  /**
   * RECALL_LOAD_WAIT_MS: how long a recall waits for its scope's index (a cold load of a large
   * scope after a restart reads every memory); past it, no memories this time. Unset: no bound.
   */
  loadWaitMs?: number;
  /** Recency half-life of the ranking. */
  halfLifeDays?: number;
  /** Hits vs empty recalls (a reply's recall only: operators' searches are not counted). */
  metrics?: Metrics;
  /** English word vectors for keyword-only recall; by default the process's shared ones. */
  wordVectors?: WordVectorSource;
}

export const RECALL_KINDS: readonly MemoryKind[] = ['fact', 'event', 'preference', 'summary', 'reflection'];
/** Detailed plot memories are long and many; only "how / why / details" questions search them. */
export const DEEP_RECALL_KINDS: readonly MemoryKind[] = [...RECALL_KINDS, 'plot'];
const DEFAULT_EMBED_TIMEOUT_MS = 3_000;

/** The card's standing memories as `place` may see them (a reply's recall; an operator's search has no card). */
function standingIn(index: MemoryIndex, place: RecallPlace): StandingMemories {
  const pick = ({ id, kind, text, importance }: IndexEntry): StandingMemory => ({ id, kind, text, importance });
  const named = index.namingEntries({ place }).map((e) => calledNameIn(e.text));
  const calledName = named.filter((n): n is string => n !== undefined).at(-1);
  return {
    preferences: index.mostImportant(STANDING_PREFERENCES, { place, kinds: ['preference'] }).map(pick),
    concerns: index.mostImportant(STANDING_CONCERNS, { place, kinds: ['fact', 'event', 'summary'] }).map(pick),
    ...(calledName ? { calledName } : {}),
  };
}

/** A recall that searched nothing: no queries, or no index yet. */
function nothingRecalled(
  q: SynthesizedQueries,
  started: number,
  o: { degraded?: RecallResult['degraded']; embedMs?: number } = {},
): RecallResult {
  return {
    memories: [],
    queries: q.queries,
    deep: q.deep,
    ...(o.degraded ? { degraded: o.degraded } : {}),
    timings: { embedMs: o.embedMs ?? 0, searchMs: 0, totalMs: performance.now() - started },
  };
}

export class MemoryRecall {
  private embeddingsDown = false;
  private wordVectorsMissing = false;
  /** Scopes `prepare` checked: their recall skips a second version check. */
  private readonly prepared = new PreparedChecks();
  private readonly wordVectors: WordVectorSource;
  /** Scopes whose index load outlasted loadWaitMs and still runs. */
  private readonly slowLoads = new Set<string>();

  constructor(private readonly d: RecallDeps) {
    this.wordVectors = d.wordVectors ?? sharedWordVectors();
  }

  /**
   * Loads (or checks) the scope's index ahead of a recall, e.g. while a reply's history is read.
   * The recall that follows moments later (PreparedChecks) takes the index as checked here.
   */
  async prepare(scope: MemoryScope): Promise<void> {
    if (this.d.embedder.lexical) this.wordVectors.get(); // starts their load, if not yet

    await this.withinLoadBudget(this.d.cache.get(scope), scope)
      .then((index) => index && this.prepared.note(scopeKey(scope)))
      .catch((err: unknown) => this.d.log.debug({ err, scope }, 'memory index not prepared'));
  }

  async recall(r: RecallRequest): Promise<RecallResult> {
    const started = performance.now();
    const q = synthesizeQueries(r.message, { recentUserTexts: r.recentUserTexts });
    if (q.queries.length === 0 || r.topK <= 0) return nothingRecalled(q, started);
    const scope = r.subjectId === undefined ? { ownerId: r.ownerId } : { ownerId: r.ownerId, subjectId: r.subjectId };
    // All queries in one embed call, in parallel with the index (load or version check). Stored
    // memories still needing vectors (written while embeddings were down, or by another
    // embedder) get the same budget; past it they are searched by keywords only this time.
    const budgetMs = this.d.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
    const semantic = !this.d.embedder.lexical;
    // A scope known to hold nothing (a new person) is checked before embedding: no embeddings
    // call, and no wait for one, when there is nothing to search.
    const knownEmpty = this.d.cache.heldSize(scope) === 0;
    const justChecked = this.prepared.take(scopeKey(scope));
    const indexed = this.d.cache.get(scope, { vectorWaitMs: budgetMs, justChecked });
    const embed = async () =>
      semantic && !(knownEmpty && (await indexed).size === 0)
        ? embedQueries(this.d.embedder, q.queries, budgetMs, r.signal)
        : undefined;
    const [embedded, index, loadedWords] = await Promise.all([
      embed(),
      r.waitForIndex ? indexed : this.withinLoadBudget(indexed, scope),
      semantic ? undefined : this.wordVectors.ready(),
    ]);
    r.signal?.throwIfAborted();
    if (!index) {
      this.d.log.info({ scope }, 'memory index still loading; recalling nothing this time');
      return nothingRecalled(q, started, { degraded: 'index_loading', embedMs: embedded?.ms ?? 0 });
    }

    const searchStarted = performance.now();
    const vectors = embedded && 'vectors' in embedded ? embedded.vectors : undefined;
    if (embedded) this.noteEmbeddings(embedded, vectors);
    const filter = {
      kinds: r.kinds ?? (q.deep ? DEEP_RECALL_KINDS : RECALL_KINDS),
      ...(r.place ? { place: r.place } : {}),
    };
    // An API that failed this time: its word vectors only if already loaded (never a wait on top).
    const words = vectors ? undefined : (loadedWords ?? this.loadedWordVectors());
    const { relevance, candidates } = fuseRetrievers(index, {
      keywordQueries: q.keywordQueries,
      vectors,
      filter,
      message: r.message,
      now: r.now,
      ...(words ? { words } : {}),
    });
    const ranked = rankFused(relevance, candidates, {
      ...DEFAULT_BLEND,
      now: r.now,
      ...(this.d.halfLifeDays ? { halfLifeDays: this.d.halfLifeDays } : {}),
    });
    const memories = ranked.slice(0, r.topK).map(({ candidate: e, score }) => ({
      id: e.id,
      kind: e.kind,
      text: e.text,
      occurredAt: e.occurredAt,
      importance: e.importance,
      score,
    }));
    const searchMs = performance.now() - searchStarted;
    if (r.countRecall !== false) this.d.metrics?.recall(memories.length);

    if (memories.length > 0 && r.countRecall !== false) {
      // Statistics only: never on the reply's path, never fatal.
      this.d.store.memories
        .noteRecalled(
          memories.map((m) => m.id),
          r.now,
          scope,
        )
        .catch((err: unknown) => this.d.log.warn({ err }, 'memory recall stats not stored'));
    }
    return {
      memories,
      ...(r.place ? { standing: standingIn(index, r.place) } : {}),
      queries: q.queries,
      deep: q.deep,
      ...(embedded && !vectors ? { degraded: 'keyword_only' as const } : {}),
      timings: { embedMs: embedded?.ms ?? 0, searchMs, totalMs: performance.now() - started },
    };
  }

  /**
   * The index, or undefined when it is not there within loadWaitMs: a reply does not wait on a
   * cold load of a large scope (about 17 s for 100 000 memories on FerretDB). The load goes on and
   * the cache keeps it, so a later recall finds it. A load once waited out is not waited on again
   * while it runs (a reply's prepare and recall, or the next turns, would each wait the budget);
   * its failure, awaited by no one, is logged here.
   */
  private async withinLoadBudget(indexed: Promise<MemoryIndex>, scope: MemoryScope): Promise<MemoryIndex | undefined> {
    const budget = this.d.loadWaitMs;
    if (budget === undefined) return indexed;
    const key = scopeKey(scope);
    let timer: NodeJS.Timeout | undefined;
    const wait = this.slowLoads.has(key) ? 0 : budget;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), wait)));
    try {
      const index = await Promise.race([indexed, late]);
      if (!index && !this.slowLoads.has(key)) {
        this.slowLoads.add(key);
        indexed
          .catch((err: unknown) => this.d.log.warn({ err, scope }, 'memory index load failed'))
          .finally(() => this.slowLoads.delete(key));
      }
      return index;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The word vectors if loaded (else starts their load); a failed load is logged once. */
  private loadedWordVectors(): WordVectors | undefined {
    const words = this.wordVectors.get();
    if (!words && this.wordVectors.error !== undefined && !this.wordVectorsMissing) {
      this.wordVectorsMissing = true;
      this.d.log.warn({ err: this.wordVectors.error }, 'word vectors unavailable; keyword-only recall without them');
    }
    return words;
  }

  private noteEmbeddings(embedded: EmbeddedQueries, vectors: Float32Array[] | undefined): void {
    if (vectors) this.noteEmbeddingsUp();
    else this.noteEmbeddingsDown('error' in embedded ? embedded.error : undefined);
  }

  // Logged once per outage, not once per turn.
  private noteEmbeddingsDown(err: unknown): void {
    if (this.embeddingsDown) {
      this.d.log.debug({ err }, 'memory recall still keyword-only');
      return;
    }
    this.embeddingsDown = true;
    this.d.log.warn(
      { err, embedder: this.d.embedder.id },
      'query embeddings failed; memory recall is keyword-only until they work again',
    );
  }

  private noteEmbeddingsUp(): void {
    if (!this.embeddingsDown) return;
    this.embeddingsDown = false;
    this.d.log.info({ embedder: this.d.embedder.id }, 'query embeddings work again; memory recall uses vectors');
  }
}
