// Memory entries (SPEC §3). Entries are never deleted by memory maintenance: a contradicted
// one is `superseded`, a consolidated one `merged`, a low-value one `pruned` — only BR-006
// (deleting the dialogue they came from, or the person they are about) removes them.
import type { Collection, Filter } from 'mongodb';
import type { MemoryEmbedding, MemoryEntry, MemoryStatus, MemoryVisibility } from '../domain/model.js';
import { isDuplicateKey } from './collections.js';
import { derivedId, newId } from '../domain/ids.js';
import { memoryScopeIdOf, type MemoryScopeRepo } from './memoryScopes.js';
import { LocalStateGuard, guardKeys, type StateGuard } from './stateGuard.js';
import type { MemorySnapshotRepo } from './memorySnapshots.js';

/** A memory's id derives from its dedupe key, so finding a stated fact is a point read. */
export const memoryIdOf = (dedupeKey: string) => derivedId('mem', dedupeKey);

export interface OwnerScope {
  ownerId: string;
  subjectId?: string;
}

// Writers of one scope's entries hold its state guard (src/store/stateGuard.ts), so the
// read-check-write steps below need no conditional filters.
export class MemoryRepo {
  constructor(
    private readonly c: Collection<MemoryEntry>,
    private readonly scopes?: MemoryScopeRepo,
    private readonly guard: StateGuard = new LocalStateGuard(),
    private readonly snapshots?: Pick<MemorySnapshotRepo, 'invalidate'>,
  ) {}

  /** Runs `fn` holding the scope's state guard: one writer of a scope's entries at a time. */
  guarded<T>(s: OwnerScope, fn: () => Promise<T>): Promise<T> {
    return this.guard.run(guardKeys.memoryScope(memoryScopeIdOf(s)), fn);
  }

  get(id: string): Promise<MemoryEntry | null> {
    return this.c.findOne({ _id: id });
  }

  /** Entries by id (point reads); missing ones are left out. */
  async getMany(ids: string[]): Promise<MemoryEntry[]> {
    const found = await Promise.all([...new Set(ids)].map((id) => this.get(id)));
    return found.filter((e): e is MemoryEntry => e !== null);
  }

  private scope(s: OwnerScope): Filter<MemoryEntry> {
    return s.subjectId === undefined ? { ownerId: s.ownerId } : { ownerId: s.ownerId, subjectId: s.subjectId };
  }

  /**
   * Every entry of an owner (about one subject when given), any status, oldest first. Sorted here,
   * not by the server: FerretDB's sort cost a cold load of 100 000 memories about 7 s of its 24
   * (bench/recall.ts); Node sorts them in under 0.1 s.
   */
  async list(s: OwnerScope, o: { status?: MemoryStatus; since?: Date } = {}): Promise<MemoryEntry[]> {
    const entries = await this.c
      .find({
        ...this.scope(s),
        ...(o.status ? { status: o.status } : {}),
        ...(o.since ? { updatedAt: { $gt: o.since } } : {}),
      })
      .toArray();
    return entries.sort(
      (a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0),
    );
  }

  countActive(s: OwnerScope): Promise<number> {
    return this.c.countDocuments({ ...this.scope(s), status: 'active' });
  }

  /** Ids of the entries extracted from a turn, oldest first (the turn's trace). */
  async idsFromTurn(turnId: string): Promise<string[]> {
    const docs = await this.c
      .find({ 'sources.turnIds': turnId }, { projection: { _id: 1 } })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
    return docs.map((d) => d._id);
  }

  /** An agent's most important active entries about one human (the operator's persona card). */
  mostImportant(s: { ownerId: string; subjectId: string }, limit: number): Promise<MemoryEntry[]> {
    return this.c
      .find({ ownerId: s.ownerId, subjectId: s.subjectId, status: 'active' })
      .sort({ importance: -1, _id: 1 })
      .limit(limit)
      .toArray();
  }

  /** The distinct scopes of the entries learnt in a dialogue (BR-006 tells their indexes after deleting them). */
  async scopesOfDialogue(dialogueId: string): Promise<OwnerScope[]> {
    const docs = await this.c
      .find({ 'sources.dialogueId': dialogueId }, { projection: { _id: 0, ownerId: 1, subjectId: 1 } })
      .toArray();
    const scopes = new Map<string, OwnerScope>();
    for (const d of docs) {
      const s: OwnerScope =
        typeof d.subjectId === 'string' ? { ownerId: d.ownerId, subjectId: d.subjectId } : { ownerId: d.ownerId };
      scopes.set(`${s.ownerId}\u001f${s.subjectId ?? ''}`, s);
    }
    return [...scopes.values()];
  }

  /** The agents holding entries about a person, any status (BR-006 of a person deletes them scope by scope). */
  async ownersAbout(subjectId: string): Promise<string[]> {
    const docs = await this.c.find({ subjectId }, { projection: { _id: 0, ownerId: 1 } }).toArray();
    return [...new Set(docs.map((d) => d.ownerId))];
  }

  /**
   * BR-006 of a person: every entry of one (owner, person) scope, any status, deleted for good;
   * returns their ids. Callers hold the scope's guard and bump its version with the ids.
   */
  async deleteScope(s: { ownerId: string; subjectId: string }): Promise<string[]> {
    const filter = { ownerId: s.ownerId, subjectId: s.subjectId };
    const ids = (await this.c.find(filter, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
    if (ids.length > 0) await this.c.deleteMany(filter);
    if (ids.length > 0) await this.forgetSnapshots([s]);
    return ids;
  }

  /**
   * After a deletion (BR-006): the scopes' index snapshots, and their owners', are dropped, so a
   * cold process never loads a deleted entry from one — even if the version bump that also tells
   * it is lost. The next load lists the scope and writes a fresh snapshot.
   */
  async forgetSnapshots(scopes: readonly OwnerScope[]): Promise<void> {
    if (!this.snapshots) return;
    const all = new Map<string, OwnerScope>();
    for (const s of scopes) {
      all.set(memoryScopeIdOf(s), s);
      all.set(memoryScopeIdOf({ ownerId: s.ownerId }), { ownerId: s.ownerId });
    }
    for (const s of all.values()) await this.snapshots.invalidate(s);
  }

  /** Where an operator lets the entry be recalled (SPEC §13); `updatedAt` moves, so warm indexes re-read it. */
  async setVisibility(id: string, visibility: MemoryVisibility, at: Date): Promise<void> {
    await this.c.updateOne({ _id: id }, { $set: { visibility, updatedAt: at } });
  }

  /**
   * Inserts unless an entry with the same dedupe key exists; returns the stored one either way.
   * The id derives from the key; an entry whose text was rewritten since keeps the id of its
   * first text, so a new fact equal to that old text is stored under a fresh id.
   */
  async insertOnce(
    entry: Omit<MemoryEntry, '_id'> & { _id?: string },
  ): Promise<{ inserted: boolean; entry: MemoryEntry }> {
    await this.scopes?.mark(
      entry.subjectId === undefined
        ? { ownerId: entry.ownerId }
        : { ownerId: entry.ownerId, subjectId: entry.subjectId },
      entry.createdAt,
    );
    const doc: MemoryEntry = { ...entry, _id: entry._id ?? memoryIdOf(entry.dedupeKey) };
    try {
      await this.c.insertOne(doc);
      return { inserted: true, entry: doc };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const byId = await this.get(doc._id);
      if (byId?.dedupeKey === doc.dedupeKey) return { inserted: false, entry: byId };
      if (byId) return this.insertOnce({ ...entry, _id: newId('mem', entry.createdAt) });
      // Stored by an earlier version under a random id: found by its unique key (rare, once per fact).
      const existing = await this.c.findOne({ dedupeKey: doc.dedupeKey });
      if (!existing) throw err;
      return { inserted: false, entry: existing };
    }
  }

  /** Bulk insert for imports and benchmarks (no dedupe check beyond the unique index). */
  async insertMany(entries: MemoryEntry[]): Promise<void> {
    const scopes = new Map(entries.map((e) => [`${e.ownerId}\u001f${e.subjectId ?? ''}`, e]));
    for (const e of scopes.values())
      await this.scopes?.mark(
        e.subjectId === undefined ? { ownerId: e.ownerId } : { ownerId: e.ownerId, subjectId: e.subjectId },
        e.createdAt,
      );
    for (let i = 0; i < entries.length; i += 500)
      await this.c.insertMany(entries.slice(i, i + 500), { ordered: false });
  }

  async setEmbedding(id: string, embedding: MemoryEmbedding): Promise<void> {
    await this.c.updateOne({ _id: id }, { $set: { embedding } });
  }

  async updateText(
    id: string,
    patch: { text: string; dedupeKey: string; embedding?: MemoryEmbedding; importance?: number; occurredAt?: Date },
    at: Date,
  ): Promise<boolean> {
    try {
      if ((await this.get(id))?.status !== 'active') return false;
      await this.c.updateOne({ _id: id }, { $set: { ...patch, updatedAt: at } });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false; // the new text already exists as another entry
      throw err;
    }
  }

  /** Marks entries as no longer current; they stay stored with the reason. */
  async retire(
    ids: string[],
    status: Exclude<MemoryStatus, 'active'>,
    at: Date,
    link?: { supersededBy?: string; mergedInto?: string },
  ): Promise<number> {
    const active = (await this.getMany(ids)).filter((e) => e.status === 'active');
    const set = { status, updatedAt: at, ...(status === 'superseded' ? { supersededAt: at } : {}), ...(link ?? {}) };
    await Promise.all(active.map((e) => this.c.updateOne({ _id: e._id }, { $set: set })));
    return active.length;
  }

  /** A superseded or pruned fact stated again becomes current again. */
  async reactivate(id: string, at: Date): Promise<boolean> {
    const e = await this.get(id);
    if (!e || e.status === 'active') return false;
    await this.c.updateOne(
      { _id: id },
      { $set: { status: 'active', updatedAt: at }, $unset: { supersededBy: '', supersededAt: '', mergedInto: '' } },
    );
    return true;
  }

  /**
   * Stored entries (any status) with one of these dedupe keys: exact duplicates of new memories.
   * Point reads of the ids the keys derive; an entry stored under another id (an earlier version,
   * or a rewritten text) is found by the insert's unique-key fallback instead.
   */
  async findByDedupeKeys(keys: string[]): Promise<MemoryEntry[]> {
    const found = await this.getMany(keys.map(memoryIdOf));
    const wanted = new Set(keys);
    return found.filter((e) => wanted.has(e.dedupeKey));
  }

  /** Active entries of exactly this scope (no subject means the agent's own entries only), oldest first. */
  activeInScope(s: OwnerScope): Promise<MemoryEntry[]> {
    return this.c
      .find({
        ownerId: s.ownerId,
        subjectId: s.subjectId === undefined ? { $exists: false } : s.subjectId,
        status: 'active',
      })
      .sort({ createdAt: 1, _id: 1 })
      .toArray();
  }

  /** Active entries about one person, whoever remembers them (linking identities moves them). */
  activeAbout(subjectId: string): Promise<MemoryEntry[]> {
    return this.c.find({ subjectId, status: 'active' }).sort({ createdAt: 1, _id: 1 }).toArray();
  }

  /** Every (owner, subject) pair that has active entries, for the nightly consolidation. */
  async activeScopes(): Promise<OwnerScope[]> {
    const rows = await this.c
      .aggregate<{ _id: { ownerId: string; subjectId?: string | null } }>([
        { $match: { status: 'active' } },
        { $group: { _id: { ownerId: '$ownerId', subjectId: '$subjectId' } } },
        { $sort: { '_id.ownerId': 1, '_id.subjectId': 1 } },
      ])
      .toArray();
    return rows.map((r) => ({
      ownerId: r._id.ownerId,
      ...(typeof r._id.subjectId === 'string' ? { subjectId: r._id.subjectId } : {}),
    }));
  }

  /** A refined entry also comes from this turn: its provenance grows, nothing is replaced. */
  async appendSources(id: string, add: { turnIds?: string[]; messageIds?: string[] }, at: Date): Promise<void> {
    const each = Object.fromEntries(
      Object.entries(add)
        .filter(([, v]) => v && v.length > 0)
        .map(([k, v]) => [`sources.${k}`, { $each: v }]),
    );
    if (Object.keys(each).length === 0) return;
    await this.c.updateOne({ _id: id }, { $addToSet: each, $set: { updatedAt: at } });
  }

  /**
   * Consolidation folded `absorbed` entries into this existing one (same text): their provenance
   * and recall statistics join it and its importance is raised to at least `importance`. Once
   * per absorbed set: a rerun that finds them already listed changes nothing.
   */
  async absorb(id: string, absorbed: MemoryEntry[], importance: number, at: Date): Promise<boolean> {
    const ids = absorbed.map((e) => e._id).filter((x) => x !== id);
    if (ids.length === 0) return false;
    const union = (pick: (s: MemoryEntry['sources']) => string[] | undefined): string[] => [
      ...new Set(absorbed.flatMap((e) => pick(e.sources) ?? [])),
    ];
    const each = Object.entries({
      turnIds: union((s) => s.turnIds),
      messageIds: union((s) => s.messageIds),
      memoryIds: ids,
    })
      .filter(([, v]) => v.length > 0)
      .map(([k, v]) => [`sources.${k}`, { $each: v }] as const);
    const lastAt = absorbed.reduce<Date | undefined>(
      (max, e) => (e.recall.lastAt && (!max || e.recall.lastAt > max) ? e.recall.lastAt : max),
      undefined,
    );
    const r = await this.c.updateOne(
      { _id: id, 'sources.memoryIds': { $nin: ids } },
      {
        $addToSet: Object.fromEntries(each),
        $max: { importance, ...(lastAt ? { 'recall.lastAt': lastAt } : {}) },
        $inc: { 'recall.count': absorbed.filter((e) => e._id !== id).reduce((n, e) => n + e.recall.count, 0) },
        $set: { updatedAt: at },
      },
    );
    return r.modifiedCount === 1;
  }

  /** Recall statistics; best effort, never on the reply's critical path. */
  async noteRecalled(ids: string[], at: Date, scope?: OwnerScope): Promise<void> {
    const write = () =>
      Promise.all(
        ids.map((id) => this.c.updateOne({ _id: id }, { $inc: { 'recall.count': 1 }, $set: { 'recall.lastAt': at } })),
      );
    // Under the scope's guard: on FerretDB an unguarded stats write could put back a status or
    // text that a memory write changed meanwhile (it rewrites the whole document).
    await (scope ? this.guarded(scope, write) : write());
  }
}
