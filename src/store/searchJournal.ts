// The search index's journal: which messages were written (inserted, edited, finished) in each
// 2-second slot of wall time, one document per slot read and written by `_id` only. A message
// write adds its id here — one small write beside the insert, not the dozens of postings
// documents its terms touch — and is searchable at once: searches read the slots the indexer
// has not folded yet (src/store/searchIndexer.ts) and check those messages directly.
//
// FerretDB applies an update by rewriting the whole document, so two writers of one slot could
// lose each other's ids: a process sends its ids one batch at a time (the ids arriving while a
// batch is in flight go out together next), and each batch is written under the slot's guard.
// The indexer seals a slot (under the same guard) before it folds it; a writer finding its slot
// sealed — its clock behind the indexer's — writes to the next one. So nothing is lost however
// the processes' clocks differ, and a slot is folded as soon as it is over.
import type { Collections } from './collections.js';
import type { StateGuard } from './stateGuard.js';
import type { Message } from '../domain/model.js';
import { packJournalEntry, unpackJournalEntry, type JournalEntry } from '../search/postings.js';

export const JOURNAL_SLOT_MS = 2_000;

export interface JournalSlot {
  _id: string;
  /** Packed entries (src/search/postings.ts): createdAt, dialogue and id of each message written. */
  ids: string[];
  /** Folded (or being folded) by the indexer: no more writes. */
  sealed?: boolean;
}

export const slotOf = (ms: number) => Math.floor(ms / JOURNAL_SLOT_MS);
export const slotId = (slot: number) => `j:${slot}`;

export class SearchJournalRepo {
  private pending: string[] = [];
  private flushing: Promise<void> | undefined;
  private waiters: Array<{ ok: () => void; fail: (err: unknown) => void }> = [];

  constructor(
    private readonly c: Collections,
    private readonly guard: StateGuard,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Resolves once the message is noted in the current slot. */
  note(m: Pick<Message, '_id' | 'dialogueId' | 'createdAt'>): Promise<void> {
    this.pending.push(packJournalEntry({ at: m.createdAt.getTime(), id: m._id, dialogueId: m.dialogueId }));
    const done = new Promise<void>((ok, fail) => this.waiters.push({ ok, fail }));
    this.flushing ??= this.flushLoop();
    return done;
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      const ids = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        await this.write(ids);
        for (const w of waiters) w.ok();
      } catch (err) {
        for (const w of waiters) w.fail(err);
      }
    }
    this.flushing = undefined;
  }

  private async write(ids: string[]): Promise<void> {
    for (let slot = slotOf(this.clock()); ; slot++) {
      const id = slotId(slot);
      const written = await this.guard.run(`sjn:${id}`, async () => {
        if ((await this.c.searchJournal.findOne({ _id: id }))?.sealed) return false;
        await this.c.searchJournal.updateOne({ _id: id }, { $addToSet: { ids: { $each: ids } } }, { upsert: true });
        return true;
      });
      if (written) return;
    }
  }

  /** Closes slots [from, to] to writers (they move on to a later slot), one by one under each slot's guard. */
  async seal(from: number, to: number): Promise<void> {
    for (let s = from; s <= to; s++) {
      const id = slotId(s);
      await this.guard.run(`sjn:${id}`, () =>
        this.c.searchJournal.updateOne({ _id: id }, { $set: { sealed: true } }, { upsert: true }),
      );
    }
  }

  /** The entries journaled in slots [from, to], each slot by `_id`, each message once. */
  async entriesIn(from: number, to: number): Promise<JournalEntry[]> {
    const slots: Promise<JournalSlot | null>[] = [];
    for (let s = from; s <= to; s++) slots.push(this.c.searchJournal.findOne({ _id: slotId(s) }));
    const found = await Promise.all(slots);
    const byId = new Map<string, JournalEntry>();
    for (const raw of found.flatMap((d) => d?.ids ?? [])) {
      const e = unpackJournalEntry(raw);
      if (e) byId.set(e.id, e);
    }
    return [...byId.values()];
  }

  /** Drops folded slots (no writer adds to a slot this old). */
  async drop(from: number, to: number): Promise<void> {
    const ids: string[] = [];
    for (let s = from; s <= to; s++) ids.push(slotId(s));
    // In chunks well below FerretDB's 100 statements per command (src/store/archive.ts).
    for (let i = 0; i < ids.length; i += 50)
      await this.c.searchJournal.bulkWrite(
        ids.slice(i, i + 50).map((id) => ({ deleteOne: { filter: { _id: id } } })),
        { ordered: false },
      );
  }
}
