// Per-process LRU of memory indexes, one per (owner, subject) scope. A scope is loaded from the
// store once (a scope that never had an entry — a new human — without any query: its mark in
// `memoryScopes` is absent); afterwards each use costs one Redis GET of its version, and a
// changed version re-reads by `_id` exactly the entries the writers logged with their bumps
// (retired or deleted ones leave the index). A bump without ids, or a change log that no longer
// reaches back, reloads the scope. Stored vectors from another embedder (or none) are recomputed
// and written back.
// A cold process reads a scope's snapshot by `_id` (indexSnapshot.ts) and catches up from its
// version through the change log; without a usable one it lists the scope, and then writes a
// fresh snapshot in the background — as it does after any reload, and once the scope has moved
// SNAPSHOT_REFRESH_BUMPS versions past its snapshot (well within the change log's reach).
import type { Logger } from 'pino';
import type { MemoryEntry } from '../domain/model.js';
import type { MemoryRepo } from '../store/memories.js';
import type { Embedder } from './embedder.js';
import { MemoryIndex, type IndexEntry } from './memoryIndex.js';
import { fromMemoryEmbedding, toMemoryEmbedding } from './vectors.js';
import { touchLru } from './lru.js';
import { scopeKey, type MemoryScope, type MemoryVersions } from './versions.js';
import type { MemoryScopeRepo } from '../store/memoryScopes.js';
import { capture, packCaptured, readSnapshot, whyUnusable, type SnapshotPort } from './indexSnapshot.js';
import { SNAPSHOT_FORMAT } from './snapshotPacking.js';

export interface IndexCacheDeps {
  store: {
    memories: Pick<MemoryRepo, 'list' | 'setEmbedding' | 'getMany'>;
    memoryScopes?: Pick<MemoryScopeRepo, 'mayHaveEntries'>;
    /** Absent: every cold load lists the scope (and nothing is snapshotted). */
    memorySnapshots?: SnapshotPort;
  };
  embedder: Embedder;
  versions: MemoryVersions;
  log: Logger;
  /** Scopes kept in memory (MEMORY_CACHE_SCOPES). */
  maxScopes?: number;
  /** Texts per embed call when (re)computing stored vectors. */
  embedBatch?: number;
  /** Limit of one embed call while loading; a slow API must not hold a scope forever. */
  embedTimeoutMs?: number;
  /** Scopes smaller than this are not snapshotted (listing them is quick). */
  snapshotMinEntries?: number;
}

interface Cached {
  index: MemoryIndex;
  /** Version read before the entries were listed; unknown when Redis could not be read. */
  version: string | undefined;
  lastVectorRetry: number;
  /** The embedder whose vectors it holds: another one's (the embeddings fell back) means a reload. */
  embedderId: string;
  /** Vectors being computed for entries that lack one; runs are chained, one at a time. */
  embedding?: Promise<void>;
  /** Version of the stored snapshot this index knows of; undefined: none usable (write one). */
  snapshotVersion?: string;
  /** When a snapshot write was last tried (at most one a minute per scope). */
  snapshotTriedAt?: number;
  /** The stored snapshot could not serve this process's load: replace it whatever its version. */
  snapshotRefused?: boolean;
}

const VECTOR_RETRY_MS = 60_000;
/** Versions a scope may move past its snapshot before it is written again (the log keeps CHANGE_LOG_KEEP). */
export const SNAPSHOT_REFRESH_BUMPS = 64;
const SNAPSHOT_RETRY_MS = 60_000;

export const toIndexEntry = (e: MemoryEntry): IndexEntry => ({
  id: e._id,
  kind: e.kind,
  text: e.text,
  importance: e.importance,
  occurredAt: e.occurredAt,
  updatedAt: e.updatedAt,
  ...(e.origin ? { origin: e.origin } : {}),
  ...(e.visibility ? { visibility: e.visibility } : {}),
});

export class IndexCache {
  private readonly lru = new Map<string, Cached>();
  private readonly tails = new Map<string, Promise<void>>();
  private readonly maxScopes: number;
  private readonly batch: number;
  private readonly embedTimeoutMs: number;
  private readonly snapshotMin: number;
  /** Snapshot writes in flight, per scope key. */
  private readonly snapshotting = new Map<string, Promise<void>>();

  constructor(private readonly d: IndexCacheDeps) {
    this.snapshotMin = Math.max(1, d.snapshotMinEntries ?? 200);
    this.maxScopes = Math.max(1, d.maxScopes ?? 500);
    this.batch = Math.max(1, d.embedBatch ?? 64);
    this.embedTimeoutMs = d.embedTimeoutMs ?? 30_000;
  }

  get embedder(): Embedder {
    return this.d.embedder;
  }

  /** Scopes currently held. */
  get size(): number {
    return this.lru.size;
  }

  /**
   * The scope's index, loaded or brought up to date with the other processes' writes.
   * Entries without a usable stored vector are embedded in the background (and written back);
   * by default this waits for them. `vectorWaitMs` bounds that wait (recall has a latency
   * budget): entries still without a vector are then found by keywords only, and get their
   * vectors once the embedding finishes.
   */
  async get(scope: MemoryScope, o: { vectorWaitMs?: number; justChecked?: boolean } = {}): Promise<MemoryIndex> {
    const key = scopeKey(scope);
    // `justChecked`: the caller's own prepare read the version moments ago (PreparedChecks); a
    // second GET would only add a round trip. A scope evicted since is refreshed as usual.
    const held = o.justChecked ? this.held(key) : undefined;
    const c = held ?? (await this.serial(key, () => this.refresh(scope, key)));
    this.touch(key, c);
    this.retryMissingVectors(c);
    this.maybeSnapshot(scope, key, c);
    await this.vectorsReady(c, o.vectorWaitMs);
    return c.index;
  }

  /** Resolves once the snapshot writes started so far have finished (tests, benchmarks, shutdown). */
  async snapshotsWritten(): Promise<void> {
    while (this.snapshotting.size > 0) await Promise.all(this.snapshotting.values());
  }

  /** Loads the scope, or brings it up to the version in Redis. */
  private async refresh(scope: MemoryScope, key: string): Promise<Cached> {
    const version = await this.d.versions.get(scope).catch((err: unknown) => {
      this.d.log.warn({ err, scope }, 'memory version unreadable; refreshing the index from the store');
      return undefined;
    });
    let c = this.held(key);
    if (!c) {
      c = await this.loadCold(scope, version);
    } else if (version === undefined || c.version !== version) {
      await this.catchUp(scope, c, version);
    }
    return c;
  }

  /**
   * Call after writing memories of a scope: bumps its version for the other processes and
   * updates this process's index at once, so the writer sees its own writes immediately.
   */
  async noteWritten(scope: MemoryScope, ids?: readonly string[]): Promise<void> {
    const key = scopeKey(scope);
    const version = await this.d.versions.bump(scope, ids);
    const c = await this.serial(key, async () => {
      const c = this.held(key);
      if (!c) return undefined;
      // Other processes' writes may be behind this version too: catch up on all of them.
      await this.catchUp(scope, c, version);
      return c;
    });
    if (c) {
      // A bulk change (the nightly consolidation's) reloaded it: its snapshot is rewritten now.
      this.maybeSnapshot(scope, key, c);
      await this.vectorsReady(c);
    }
    // An owner-wide index of this process also holds the scope's entries.
    if (scope.subjectId !== undefined && this.lru.has(scopeKey({ ownerId: scope.ownerId }))) {
      await this.get({ ownerId: scope.ownerId });
    }
  }

  /** How many entries this process holds for the scope, as last brought up to date (undefined: none held). */
  heldSize(scope: MemoryScope): number | undefined {
    return this.lru.get(scopeKey(scope))?.index.size;
  }

  /**
   * The scope as held, unless it holds another embedder's vectors (the embeddings fell back to
   * the offline embedder): then it is dropped, and loaded again with this one's.
   */
  private held(key: string): Cached | undefined {
    const c = this.lru.get(key);
    if (c && c.embedderId !== this.d.embedder.id) {
      this.lru.delete(key);
      return undefined;
    }
    return c;
  }

  forget(scope: MemoryScope): void {
    this.lru.delete(scopeKey(scope));
  }

  /** A scope this process does not hold: from its snapshot and the change log, else from the store. */
  private async loadCold(scope: MemoryScope, version: string | undefined): Promise<Cached> {
    const embedderId = this.d.embedder.id;
    const mayHave = (await this.d.store.memoryScopes?.mayHaveEntries(scope)) ?? true;
    const fromSnapshot = mayHave && version !== undefined ? await this.fromSnapshot(scope, version) : undefined;
    if (fromSnapshot) return fromSnapshot;
    const { index, missing } = await this.load(scope, mayHave);
    const c: Cached = { index, version, lastVectorRetry: Date.now(), snapshotRefused: true, embedderId };
    this.embedInBackground(c, missing);
    return c;
  }

  /** The scope from its snapshot, caught up to `version` by `_id`; undefined when that cannot be done. */
  private async fromSnapshot(scope: MemoryScope, version: string): Promise<Cached | undefined> {
    const port = this.d.store.memorySnapshots;
    if (!port) return undefined;
    const embedderId = this.d.embedder.id;
    const fallback = (reason: string, err?: unknown) => {
      this.d.log.info({ scope, reason, err }, 'memory index listed from the store (its snapshot is not usable)');
      return undefined;
    };
    const read = await readSnapshot(port, scope, this.d.embedder).catch((err: unknown) => ({
      fallback: 'read failed',
      err,
    }));
    if ('fallback' in read) return fallback(read.fallback, 'err' in read ? read.err : undefined);
    // Behind the snapshot: the counter restarted (Redis lost its data), so the log cannot be trusted.
    if (Number(read.version) > Number(version)) return fallback(`snapshot at ${read.version}, scope at ${version}`);
    const changes = read.version === version ? [] : await this.d.versions.changes(scope, read.version, version);
    if (changes === 'reload') return fallback('the change log no longer reaches back to the snapshot');
    const c: Cached = {
      index: read.index,
      version,
      snapshotVersion: read.version,
      lastVectorRetry: Date.now(),
      embedderId,
    };
    await this.applyChanges(c, changes);
    const lacking = read.index.idsWithoutVector().map((id) => ({ _id: id, text: read.index.get(id)!.text }));
    this.embedInBackground(c, lacking);
    return c;
  }

  private async load(
    scope: MemoryScope,
    knownMayHave?: boolean,
  ): Promise<{ index: MemoryIndex; missing: MemoryEntry[] }> {
    const mayHave = knownMayHave ?? (await this.d.store.memoryScopes?.mayHaveEntries(scope)) ?? true;
    const entries = mayHave ? await this.d.store.memories.list(scope, { status: 'active' }) : [];
    const index = new MemoryIndex(this.d.embedder.dims, entries.length + 16);
    return { index, missing: this.apply(index, entries) };
  }

  /**
   * Brings a loaded scope up to `version`: re-reads the entries logged since its own version by
   * `_id`, or reloads it when that cannot be told (unknown versions, a trimmed log, a bulk change).
   */
  private async catchUp(scope: MemoryScope, c: Cached, version: string | undefined): Promise<void> {
    const changes =
      version !== undefined && c.version !== undefined
        ? await this.d.versions.changes(scope, c.version, version)
        : 'reload';
    if (changes === 'reload') {
      this.d.log.debug({ scope }, 'memory index reloaded (changes since its version unknown)');
      const embedderId = this.d.embedder.id;
      const { index, missing } = await this.load(scope);
      c.index = index;
      c.embedderId = embedderId;
      c.snapshotVersion = undefined; // the log says the snapshot is behind a bulk change: write a new one
      this.embedInBackground(c, missing);
    } else {
      await this.applyChanges(c, changes);
    }
    c.version = version;
  }

  /** Re-reads these entries by `_id` into the index, oldest change first (the order a listing adds them). */
  private async applyChanges(c: Cached, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const entries = await this.d.store.memories.getMany(ids);
    entries.sort(
      (a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0),
    );
    const found = new Set(entries.map((e) => e._id));
    for (const id of ids) if (!found.has(id)) c.index.remove(id); // deleted (BR-006)
    this.embedInBackground(c, this.apply(c.index, entries));
  }

  /** Starts a background snapshot write when the scope has none usable, or has moved well past it. */
  private maybeSnapshot(scope: MemoryScope, key: string, c: Cached): void {
    if (!this.d.store.memorySnapshots || c.version === undefined || this.snapshotting.has(key)) return;
    if (c.index.size < this.snapshotMin) return;
    const behind =
      c.snapshotVersion === undefined || Number(c.version) - Number(c.snapshotVersion) >= SNAPSHOT_REFRESH_BUMPS;
    if (!behind || Date.now() - (c.snapshotTriedAt ?? 0) < SNAPSHOT_RETRY_MS) return;
    c.snapshotTriedAt = Date.now();
    const run = this.writeSnapshot(scope, c)
      .catch((err: unknown) => this.d.log.warn({ err, scope }, 'memory index snapshot not written'))
      .finally(() => this.snapshotting.delete(key));
    this.snapshotting.set(key, run);
  }

  /**
   * Writes the index as it is now, unless a snapshot at least as new (and not ahead of the
   * counter) is already stored: that decision is a read of the head by `_id` before any write.
   */
  private async writeSnapshot(scope: MemoryScope, c: Cached): Promise<void> {
    const port = this.d.store.memorySnapshots!;
    if (c.embedding) await c.embedding; // vectors being computed belong in it
    const [head, latest] = await Promise.all([port.head(scope), this.d.versions.get(scope)]);
    const ours = c.version!;
    if (!c.snapshotRefused && head && head !== 'corrupt' && !whyUnusable(head, this.d.embedder)) {
      const v = Number(head.version);
      if (v >= Number(ours) && v <= Number(latest)) {
        c.snapshotVersion = head.version;
        return;
      }
    }
    // Taken together, synchronously: the content is current at least as of this version.
    const version = c.version!;
    const captured = capture(c.index);
    const parts = await packCaptured(captured);
    const { embedder } = this.d;
    await port.write(
      scope,
      {
        format: SNAPSHOT_FORMAT,
        version,
        embedderId: embedder.id,
        dims: embedder.dims,
        count: captured.rows.length,
        writtenAt: new Date(),
      },
      parts,
    );
    c.snapshotVersion = version;
    c.snapshotRefused = false;
    this.d.log.debug(
      { scope, version, entries: captured.rows.length, parts: parts.length },
      'memory index snapshot written',
    );
  }

  /** Queues the embedding of these entries after any already running for the scope (one at a time). */
  private embedInBackground(c: Cached, entries: Array<{ _id: string; text: string }>): void {
    if (entries.length === 0) return;
    const run: Promise<void> = (c.embedding ?? Promise.resolve())
      .then(() => this.embedMissing(c.index, entries))
      .then(
        () => undefined,
        (err: unknown) => this.d.log.warn({ err }, 'memory embeddings failed'),
      )
      .finally(() => {
        if (c.embedding === run) c.embedding = undefined;
      });
    c.embedding = run;
  }

  /** Waits for the scope's background embedding, at most `waitMs` when given. */
  private async vectorsReady(c: Cached, waitMs?: number): Promise<void> {
    const running = c.embedding;
    if (!running) return;
    if (waitMs === undefined) return running;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, waitMs))))]);
    clearTimeout(timer);
  }

  /** Puts entries into the index (non-active ones out); returns those still needing a vector. */
  private apply(index: MemoryIndex, entries: MemoryEntry[]): MemoryEntry[] {
    const missing: MemoryEntry[] = [];
    let newest = index.lastUpdatedAt;
    for (const e of entries) {
      if (e.updatedAt > newest) newest = e.updatedAt;
      if (e.status !== 'active') {
        index.remove(e._id);
        continue;
      }
      const current = index.get(e._id);
      if (
        current &&
        current.updatedAt.getTime() === e.updatedAt.getTime() &&
        current.text === e.text &&
        index.hasVectorFor(e._id)
      )
        continue;
      const vector = e.embedding?.model === this.d.embedder.id ? fromMemoryEmbedding(e.embedding) : undefined;
      if (vector && vector.length === index.dims) {
        index.upsert(toIndexEntry(e), vector);
      } else {
        index.upsert(toIndexEntry(e));
        missing.push(e);
      }
    }
    index.lastUpdatedAt = newest;
    return missing;
  }

  /** Embeds in batches and writes the vectors back; on failure the rest stay keyword-only. */
  private async embedMissing(index: MemoryIndex, entries: Array<{ _id: string; text: string }>): Promise<boolean> {
    const { embedder } = this.d;
    for (let i = 0; i < entries.length; i += this.batch) {
      const batch = entries.slice(i, i + this.batch);
      let vectors: Float32Array[];
      try {
        vectors = await embedder.embed(
          batch.map((e) => e.text),
          AbortSignal.timeout(this.embedTimeoutMs),
        );
      } catch (err) {
        this.d.log.warn(
          { err, missing: entries.length - i },
          'memory embeddings unavailable; those entries are found by keywords only',
        );
        return false;
      }
      const writes: Array<Promise<void>> = [];
      batch.forEach((e, j) => {
        const v = vectors[j];
        if (!v || v.length !== index.dims) return;
        // The entry may have changed meanwhile (a refresh replaced its text or retired it): only
        // fill, and store, a still-matching one — a vector of the old text must not overwrite
        // the one stored with the new text.
        if (index.get(e._id)?.text !== e.text) return;
        index.setVector(e._id, v);
        writes.push(this.d.store.memories.setEmbedding(e._id, toMemoryEmbedding(embedder.id, v)));
      });
      const failed = (await Promise.allSettled(writes)).filter((r) => r.status === 'rejected');
      if (failed.length > 0)
        this.d.log.warn(
          { err: (failed[0] as PromiseRejectedResult).reason, failed: failed.length },
          'memory embeddings not stored',
        );
    }
    return true;
  }

  /** Entries loaded while embeddings were down get their vectors later, in the background. */
  private retryMissingVectors(c: Cached): void {
    if (c.embedding || Date.now() - c.lastVectorRetry < VECTOR_RETRY_MS) return;
    const ids = c.index.idsWithoutVector();
    c.lastVectorRetry = Date.now();
    if (ids.length === 0) return;
    const entries = ids.flatMap((id) => {
      const e = c.index.get(id);
      return e ? [{ _id: id, text: e.text }] : [];
    });
    this.embedInBackground(c, entries);
  }

  private touch(key: string, c: Cached): void {
    touchLru(this.lru, key, c, this.maxScopes);
  }

  /** Runs loads and refreshes of one scope one at a time (concurrent recalls share one load). */
  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}
