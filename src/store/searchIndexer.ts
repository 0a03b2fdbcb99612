// The search indexer: folds written messages into the postings (src/store/searchPostings.ts).
// One at a time across processes (the state guard's `search-indexer` lease); each tick
//   1. seals the journal slots that are over (src/store/searchJournal.ts: a late writer moves
//      on to the next slot) and folds them,
//   2. folds one batch of the backfill: messages stored before the index, walked in `_id` order,
//      live then archived (resumable: the state keeps the last id folded),
// then stores the state and drops the folded slots. Every write is by `_id`, and the postings
// are written before the state: a tick that dies is simply folded again (postings are a set).
//
// Why this shape: the embedded FerretDB serves only `{_id}` from an index (a point read costs
// ~1.5 ms, `{_id: {$in}}` scans) and reads about 10 MB/s, so a search must touch few, small
// documents. Terms hash into 2048 buckets (a term's list is in one known document, no term
// dictionary to read); a bucket grows in generations so the fold rewrites only a small head,
// and sealed generations never change, so processes cache them. Postings carry createdAt, so
// order and time windows come from the lists, and the candidates are read newest first only
// until the page is full. Sender role is checked on the candidates, not indexed (its lists would
// be half the record). The journal keeps the message write at one extra small write.
import type { Message } from '../domain/model.js';
import type { Logger } from '../log.js';
import type { Store } from './store.js';
import { slotOf, JOURNAL_SLOT_MS } from './searchJournal.js';
import { HEAD_BYTES, postingsId, type PostingsDoc } from './searchPostings.js';
import type { SearchIndexState } from './searchIndexState.js';
import { bucketOf, messageTerms } from '../search/indexTerms.js';
import { comparePostings, mergePostings, packPostings, unpackPostings, type Posting } from '../search/postings.js';

export type IndexerStore = Pick<Store, 'searchJournal' | 'searchPostings' | 'searchState' | 'searchReads' | 'guard'>;

/** Journal slots folded per tick at most (after downtime the rest follow on the next ticks). */
const SLOTS_PER_TICK = 120;
export const BACKFILL_BATCH = 2_000;
/** Folded slots kept (sealed) this many slots (5 minutes) before they are dropped. */
const SEALED_KEPT_SLOTS = 150;
/**
 * Documents per bulkWrite: FerretDB 1.24 (SQLite) holds a pooled connection per matched
 * replacement within one command and hangs at 100 (src/store/archive.ts).
 */
const WRITE_CHUNK = 50;

/** Each touched bucket's new postings, by term. */
function postingsByBucket(messages: readonly Message[]): Map<number, Map<string, Posting[]>> {
  const out = new Map<number, Map<string, Posting[]>>();
  for (const m of messages) {
    // A deleted message is never a result; an edit after the delete cannot happen.
    if (m.deleted) continue;
    const posting = { at: m.createdAt.getTime(), id: m._id };
    for (const term of messageTerms(m)) {
      const b = bucketOf(term);
      const terms = out.get(b) ?? new Map<string, Posting[]>();
      out.set(b, terms);
      const list = terms.get(term) ?? [];
      terms.set(term, list);
      list.push(posting);
    }
  }
  return out;
}

/** The head with the new postings merged in (or a new generation when the head is full). */
function mergeHead(head: PostingsDoc, added: Map<string, Posting[]>): PostingsDoc {
  const terms = new Map(head.terms.map((e) => [e.t, e.p]));
  for (const [term, list] of added) {
    const sorted = [...list].sort(comparePostings);
    const old = terms.get(term);
    terms.set(term, packPostings(old ? mergePostings(unpackPostings(old), sorted) : mergePostings([], sorted)));
  }
  const entries = [...terms].map(([t, p]) => ({ t, p }));
  return { _id: head._id, terms: entries, bytes: entries.reduce((n, e) => n + e.p.length + e.t.length, 0) };
}

/** Folds messages into the postings: one read and one write per touched bucket head. */
export async function foldMessages(store: IndexerStore, state: SearchIndexState, messages: readonly Message[]) {
  const byBucket = postingsByBucket(messages);
  const buckets = [...byBucket.keys()];
  const heads = await Promise.all(buckets.map((b) => store.searchPostings.get(postingsId(b, state.gens[b] ?? 0))));
  const docs = buckets.map((b, i) => {
    const gen = state.gens[b] ?? 0;
    let head = heads[i] ?? { _id: postingsId(b, gen), terms: [], bytes: 0 };
    if (head.bytes >= HEAD_BYTES) {
      state.gens[b] = gen + 1;
      head = { _id: postingsId(b, gen + 1), terms: [], bytes: 0 };
    }
    return mergeHead(head, byBucket.get(b) ?? new Map<string, Posting[]>());
  });
  for (let i = 0; i < docs.length; i += WRITE_CHUNK) await store.searchPostings.putAll(docs.slice(i, i + WRITE_CHUNK));
}

/** The last slot a tick may fold at `now`: every slot that is over. */
export const foldableUpTo = (now: number) => slotOf(now) - 1;

async function foldJournal(store: IndexerStore, state: SearchIndexState, now: number) {
  const last = Math.min(foldableUpTo(now), state.foldedSlot + SLOTS_PER_TICK);
  if (last <= state.foldedSlot) return 0;
  const from = state.foldedSlot + 1;
  await store.searchJournal.seal(from, last);
  const ids = (await store.searchJournal.entriesIn(from, last)).map((e) => e.id);
  // Moved to the archive meanwhile: the archived copy is indexed (it keeps the id).
  const messages = await store.searchReads.messages(ids, true);
  await foldMessages(store, state, messages);
  state.foldedSlot = last;
  return messages.length;
}

async function backfillBatch(store: IndexerStore, state: SearchIndexState): Promise<number> {
  const { phase, afterId } = state.backfill;
  if (phase === 'done') return 0;
  const docs = await store.searchReads.after(phase, afterId, BACKFILL_BATCH);
  await foldMessages(store, state, docs);
  const folded = state.backfill.folded + docs.length;
  if (docs.length < BACKFILL_BATCH)
    state.backfill = { phase: phase === 'messages' ? 'archivedMessages' : 'done', folded };
  else state.backfill = { phase, afterId: docs[docs.length - 1]!._id, folded };
  return docs.length;
}

export interface TickResult {
  journaled: number;
  backfilled: number;
  backfill: SearchIndexState['backfill'];
}

/** One tick under the indexer's lease. */
export function indexerTick(store: IndexerStore, now = Date.now()): Promise<TickResult> {
  return store.guard.run('search-indexer', async () => {
    const state = await store.searchState.read(now);
    const before = state.foldedSlot;
    const journaled = await foldJournal(store, state, now);
    const backfilled = await backfillBatch(store, state);
    state.updatedAt = new Date(now);
    await store.searchState.write(state);
    // Sealed slots stay a while, so a writer whose clock lags finds them sealed, not gone.
    if (state.foldedSlot > before)
      await store.searchJournal.drop(before + 1 - SEALED_KEPT_SLOTS, state.foldedSlot - SEALED_KEPT_SLOTS);
    return { journaled, backfilled, backfill: state.backfill };
  });
}

/** Ticks until nothing is left to fold now (tests, the bench). */
export async function indexUntilCaughtUp(store: IndexerStore): Promise<void> {
  for (;;) {
    const r = await indexerTick(store);
    const state = await store.searchState.read(Date.now());
    if (r.backfill.phase === 'done' && state.foldedSlot >= foldableUpTo(Date.now())) return;
  }
}

/** The indexer's loop in a process (api role): a tick every `everyMs`, progress logged. */
export function startSearchIndexer(o: { store: IndexerStore; log: Logger; everyMs?: number }): {
  stop(): Promise<void>;
} {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastLogged = -1;
  const tick = async () => {
    try {
      const r = await indexerTick(o.store);
      if (r.backfill.phase !== 'done' || (r.backfilled > 0 && r.backfill.folded !== lastLogged)) {
        // Until the backfill is done, older messages may be missing from results: say so.
        o.log.info({ backfill: r.backfill }, 'search index backfill in progress');
        lastLogged = r.backfill.folded;
      }
    } catch (err) {
      o.log.warn({ err }, 'search indexer tick failed');
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), o.everyMs ?? JOURNAL_SLOT_MS / 2);
  };
  running = tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
