// The in-process index of one (owner, subject) scope: its active memories, their vectors
// (vectorRows.ts: float32 + an int8 copy scanned with SIMD, fast enough for 100k entries with no
// external vector store), an inverted index for BM25 keyword search (keywordPostings.ts) and
// the memories in time order (timeOrder.ts).
// Rows are append-only; a removed or replaced entry leaves a dead row that is skipped and
// reclaimed by compaction, so updates never shift the matrix.
import { MEMORY_KINDS, type MemoryKind, type MemoryOrigin, type MemoryVisibility } from '../domain/model.js';
import { homeOf, PRIVATE_HOME, recallableIn, type RecallPlace } from '../domain/memoryOrigin.js';
import { ImportanceOrder } from './importanceOrder.js';
import { KeywordPostings, type KeywordSearch } from './keywordPostings.js';
import type { UnpackedPart } from './snapshotPacking.js';
import { keywordTokens } from './textFeatures.js';
import { TimeOrder } from './timeOrder.js';
import { calledNameIn } from '../domain/calledName.js';
import { TopK } from './topK.js';
import { VectorRows } from './vectorRows.js';

export interface IndexEntry {
  id: string;
  kind: MemoryKind;
  text: string;
  importance: number;
  occurredAt: Date;
  updatedAt: Date;
  origin?: MemoryOrigin;
  visibility?: MemoryVisibility;
}

export interface IndexHit {
  entry: IndexEntry;
  score: number;
}

export interface SearchFilter {
  kinds?: readonly MemoryKind[];
  /** Only memories that occurred in this range (inclusive). */
  occurred?: { from: Date; to: Date };
  /** Only memories that may be recalled in this chat (src/domain/memoryOrigin.ts). */
  place?: RecallPlace;
  /** Only memories of this home (`homeOf`): the write path compares within one place. */
  home?: string;
}

/** The importance order's key of an entry: its place (or `shared`) and its kind. */
const orderKey = (e: IndexEntry): string => `${e.visibility === 'shared' ? SHARED : homeOf(e.origin)}|${e.kind}`;
const SHARED = 'shared';

/** Whether an entry passes the filter's origin conditions (an entry at a time; rows use their codes). */
export function placeAccepts(filter: SearchFilter | undefined, e: IndexEntry): boolean {
  if (filter?.place && !recallableIn(e, filter.place)) return false;
  return filter?.home === undefined || homeOf(e.origin) === filter.home;
}

const KIND_CODE = new Map<MemoryKind, number>(MEMORY_KINDS.map((k, i) => [k, i]));

export class MemoryIndex {
  private readonly vectors: VectorRows;
  private keywords: KeywordPostings;
  private timeOrder = new TimeOrder();
  private kindCodes: Uint8Array;
  private entries: Array<IndexEntry | undefined> = [];
  private rowOf = new Map<string, number>();
  private rows = 0;
  /** Rows whose text says what their person asked to be called (few: the persona card scans them). */
  private naming = new Set<number>();
  /**
   * Each row's home (`homeOf`, as a small code) and whether an operator shared it: the origin
   * filter compares numbers per row instead of calling the rule (same outcome as `recallableIn`).
   */
  private homeCodes: Int32Array;
  private shared: Uint8Array;
  private readonly homes = new Map<string, number>();
  private importance = new ImportanceOrder();
  /** Newest updatedAt seen: incremental refreshes ask the store for entries changed after it. */
  lastUpdatedAt = new Date(0);

  constructor(
    readonly dims: number,
    capacity = 64,
  ) {
    const cap = Math.max(1, capacity);
    this.vectors = new VectorRows(dims, cap);
    this.keywords = new KeywordPostings(cap);
    this.kindCodes = new Uint8Array(cap);
    this.homeCodes = new Int32Array(cap);
    this.shared = new Uint8Array(cap);
  }

  get size(): number {
    return this.rowOf.size;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  get(id: string): IndexEntry | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.entries[row];
  }

  hasVectorFor(id: string): boolean {
    const row = this.rowOf.get(id);
    return row !== undefined && this.vectors.has(row);
  }

  /** Ids whose vector is missing (embeddings were down when they were loaded). */
  idsWithoutVector(): string[] {
    const out: string[] = [];
    for (const [id, row] of this.rowOf) if (!this.vectors.has(row)) out.push(id);
    return out;
  }

  /** Adds or replaces an entry; `vector` must be unit length with `dims` values, or absent. */
  upsert(entry: IndexEntry, vector?: Float32Array): void {
    if (vector && vector.length !== this.dims)
      throw new RangeError(`vector has ${vector.length} dims, index has ${this.dims}`);
    this.remove(entry.id);
    if (this.rows === this.vectors.capacity) this.grow();
    const row = this.rows++;
    this.place(row, entry);
    if (vector) this.vectors.set(row, vector);
    else this.vectors.clear(row);
    this.keywords.add(row, keywordTokens(entry.text));
    if (calledNameIn(entry.text)) this.naming.add(row);
  }

  /** A new row's entry and everything kept per row but its vector, tokens and naming. */
  private place(row: number, entry: IndexEntry): void {
    this.entries[row] = entry;
    this.rowOf.set(entry.id, row);
    this.kindCodes[row] = KIND_CODE.get(entry.kind) ?? 0;
    this.homeCodes[row] = this.homeCode(homeOf(entry.origin));
    this.shared[row] = entry.visibility === 'shared' ? 1 : 0;
    this.importance.add(orderKey(entry), row, entry.importance);
    this.timeOrder.insert(row, entry.occurredAt.getTime());
    if (entry.updatedAt > this.lastUpdatedAt) this.lastUpdatedAt = entry.updatedAt;
  }

  /**
   * Appends a snapshot's part (src/memory/indexSnapshot.ts): the same rows `upsert` would make of
   * its entries, with the keyword tokens as counted when it was written and the vectors copied
   * as one block. Entries already held are replaced.
   */
  appendPart(part: UnpackedPart): void {
    const n = part.entries.length;
    if (this.rowOf.size > 0) for (const e of part.entries) this.remove(e.id);
    while (this.rows + n > this.vectors.capacity) this.grow();
    const first = this.rows;
    for (let i = 0; i < n; i++) {
      this.place(first + i, part.entries[i]!);
      if (part.naming[i] === 1) this.naming.add(first + i);
    }
    this.keywords.addCounted(first, part.docLen, part.terms, {
      start: part.termStart,
      ids: part.termIds,
      tfs: part.termTfs,
    });
    this.vectors.setPacked(first, part.hasVector, part.vectors);
    this.rows = first + n;
  }

  /** The living entries with their vectors (copies), oldest row first: what a snapshot keeps. */
  livingRows(): Array<{ entry: IndexEntry; vector?: Float32Array }> {
    return [...this.rowOf.values()]
      .sort((a, b) => a - b)
      .map((row) => {
        const vector = this.vectors.vectorOf(row);
        return { entry: this.entries[row]!, ...(vector ? { vector } : {}) };
      });
  }

  /** Sets the vector of an entry already in the index (embedded after it was loaded). */
  setVector(id: string, vector: Float32Array): void {
    const row = this.rowOf.get(id);
    if (row === undefined || vector.length !== this.dims) return;
    this.vectors.set(row, vector);
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    const entry = row === undefined ? undefined : this.entries[row];
    if (row === undefined || !entry) return false;
    this.rowOf.delete(id);
    this.naming.delete(row);
    this.importance.remove(orderKey(entry), row, entry.importance);
    this.entries[row] = undefined;
    this.vectors.clear(row);
    this.keywords.remove(row, keywordTokens(entry.text));
    this.timeOrder.remove(row);
    // Dead rows are skipped by every search; reclaim them once they outnumber the living.
    if (this.rows - this.rowOf.size > Math.max(256, this.rowOf.size)) this.compact();
    return true;
  }

  /** The k most important entries the filter accepts, most important first (ties: the earlier stored). */
  mostImportant(k: number, filter: SearchFilter & { place: RecallPlace; kinds: readonly MemoryKind[] }): IndexEntry[] {
    const accept = this.acceptor(filter);
    const home = filter.place.private ? PRIVATE_HOME : `group:${filter.place.dialogueId}`;
    const keys = filter.kinds.flatMap((kind) => [`${home}|${kind}`, `${SHARED}|${kind}`]);
    return this.importance
      .top(keys, k, (row) => this.entries[row]?.importance ?? 0)
      .filter(accept)
      .map((row) => this.entries[row]!);
  }

  /** The entries the filter accepts that name what their person asked to be called, newest last. */
  namingEntries(filter?: SearchFilter): IndexEntry[] {
    const accept = this.acceptor(filter);
    return [...this.naming]
      .filter(accept)
      .map((row) => this.entries[row]!)
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  }

  /** The k entries whose vectors have the highest dot product (= cosine) with `query`. */
  search(query: Float32Array, k: number, filter?: SearchFilter): IndexHit[] {
    return this.searchMany([query], k, filter)[0] ?? [];
  }

  /** `search` for several queries in one pass over the vectors. */
  searchMany(queries: readonly Float32Array[], k: number, filter?: SearchFilter): IndexHit[][] {
    const usable = queries.map((q) => q.length === this.dims);
    const accept = this.acceptor(filter);
    const found = this.vectors.search(
      queries.filter((_, i) => usable[i]),
      k,
      this.rows,
      accept,
    );
    let next = 0;
    return usable.map((ok) => (ok ? this.hits(found[next++]!) : []));
  }

  /** BM25 over keyword tokens (CJK bigrams, Latin stems); entries sharing no token never match. */
  keywordSearch(text: string, k: number, filter?: SearchFilter): IndexHit[] {
    return this.weightedKeywordSearch(queryTerms(text), k, filter);
  }

  /** BM25 with a weight per query token (1 for the query's own words, less for expansions). */
  weightedKeywordSearch(terms: ReadonlyMap<string, number>, k: number, filter?: SearchFilter): IndexHit[] {
    return this.feedbackKeywordSearch(terms, k, filter).hits;
  }

  /**
   * BM25 of `terms`, then of `terms` plus what `feedback` adds after seeing their hits, in one
   * pass over the query's postings (pseudo-relevance feedback, queryExpansion.ts).
   */
  feedbackKeywordSearch(
    terms: ReadonlyMap<string, number>,
    k: number,
    filter?: SearchFilter,
    feedback?: (hits: IndexHit[]) => ReadonlyMap<string, number>,
  ): { hits: IndexHit[]; terms: ReadonlyMap<string, number> } {
    if (this.rowOf.size === 0 || k <= 0) return { hits: [], terms };
    const accept = this.acceptor(filter);
    const search = this.keywords.begin();
    try {
      search.add(terms);
      let hits = this.topOf(search, k, accept);
      const added = feedback?.(hits);
      if (!added || added.size === 0) return { hits, terms };
      search.add(added);
      hits = this.topOf(search, k, accept);
      return { hits, terms: new Map([...terms, ...added]) };
    } finally {
      search.end();
    }
  }

  /** How rare a keyword token is among the living entries (0: absent). */
  idf(token: string): number {
    return this.keywords.idf(token);
  }

  /** The memories that occurred right before and after this one, when no more than `maxGapMs` apart. */
  around(id: string, maxGapMs: number): { before?: IndexEntry; after?: IndexEntry } {
    const row = this.rowOf.get(id);
    const entry = row === undefined ? undefined : this.entries[row];
    if (row === undefined || !entry) return {};
    const { before, after } = this.timeOrder.around(row, entry.occurredAt.getTime(), maxGapMs);
    return {
      ...(before !== undefined && this.entries[before] ? { before: this.entries[before] } : {}),
      ...(after !== undefined && this.entries[after] ? { after: this.entries[after] } : {}),
    };
  }

  private acceptor(filter?: SearchFilter): (row: number) => boolean {
    const mask = kindMask(filter);
    const from = filter?.occurred?.from.getTime() ?? -Infinity;
    const to = filter?.occurred?.to.getTime() ?? Infinity;
    const timed = filter?.occurred !== undefined;
    // -1: a home no entry has (only shared entries pass a place filter then).
    const place = filter?.place
      ? (this.homes.get(filter.place.private ? PRIVATE_HOME : `group:${filter.place.dialogueId}`) ?? -1)
      : undefined;
    const home = filter?.home !== undefined ? (this.homes.get(filter.home) ?? -1) : undefined;
    return (row) => {
      const e = this.entries[row];
      if (!e || (mask & (1 << this.kindCodes[row]!)) === 0) return false;
      if (place !== undefined && this.homeCodes[row] !== place && this.shared[row] === 0) return false;
      if (home !== undefined && this.homeCodes[row] !== home) return false;
      if (!timed) return true;
      const t = e.occurredAt.getTime();
      return t >= from && t <= to;
    };
  }

  private homeCode(home: string): number {
    let code = this.homes.get(home);
    if (code === undefined) this.homes.set(home, (code = this.homes.size));
    return code;
  }

  private topOf(search: KeywordSearch, k: number, accept: (row: number) => boolean): IndexHit[] {
    const top = new TopK(k);
    search.forEach(accept, (row, s) => {
      if (s > top.floor) top.push(s, row);
    });
    return this.hits(top.drain());
  }

  private hits(found: ReadonlyArray<{ score: number; row: number }>): IndexHit[] {
    return found.map(({ score, row }) => ({ entry: this.entries[row]!, score }));
  }

  private grow(): void {
    const cap = this.vectors.capacity * 2;
    this.vectors.grow(cap);
    this.keywords.grow(cap);
    const kinds = new Uint8Array(cap);
    kinds.set(this.kindCodes);
    this.kindCodes = kinds;
    const homes = new Int32Array(cap);
    homes.set(this.homeCodes);
    this.homeCodes = homes;
    const shared = new Uint8Array(cap);
    shared.set(this.shared);
    this.shared = shared;
  }

  /** Rebuilds rows, postings and the time order from the living entries. */
  private compact(): void {
    const living = [...this.rowOf.values()]
      .sort((a, b) => a - b)
      .map((row) => ({ entry: this.entries[row]!, vector: this.vectors.vectorOf(row) }));
    const last = this.lastUpdatedAt;
    this.entries = [];
    this.rowOf = new Map();
    this.keywords = new KeywordPostings(this.vectors.capacity);
    this.timeOrder = new TimeOrder();
    this.naming = new Set();
    this.importance = new ImportanceOrder();
    for (let row = 0; row < this.rows; row++) this.vectors.clear(row);
    this.rows = 0;
    for (const l of living) this.upsert(l.entry, l.vector);
    this.lastUpdatedAt = last;
  }
}

/** A query's keyword tokens, each weighted 1 (repeats count once). */
export function queryTerms(text: string): Map<string, number> {
  return new Map(keywordTokens(text).map((t) => [t, 1]));
}

function kindMask(filter?: SearchFilter): number {
  if (!filter?.kinds) return 0xff;
  let m = 0;
  for (const k of filter.kinds) m |= 1 << (KIND_CODE.get(k) ?? 0);
  return m;
}
