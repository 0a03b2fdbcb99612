// A message search over the index (src/store/searchIndexer.ts), by `_id` only: the state document,
// the bucket documents of the query's terms, the journal slots not yet folded, then the
// candidates themselves, newest (or oldest) first, each checked against the plan
// (src/search/messageSearch.ts) until the page is full. A newest-first search decodes its lists
// in time windows going back (candidateWindows), so a common term costs its newest page only.
// Messages not yet folded are candidates through the journal (by dialogue and time), so a
// message is searchable as soon as its insert returned.
import type { Message } from '../domain/model.js';
import type { Store } from './store.js';
import { slotOf } from './searchJournal.js';
import type { SearchIndexState } from './searchIndexState.js';
import { bucketOf } from '../search/indexTerms.js';
import { matchesPlan, type MessageSearchPlan } from '../search/messageSearch.js';
import { comparePostings, withinWindow, type Posting } from '../search/postings.js';
import { TermCursor } from '../search/termCursor.js';

export type SearchStore = Pick<Store, 'searchJournal' | 'searchPostings' | 'searchState' | 'searchReads'>;

/** Unfolded journal slots read per search at most (10 minutes); beyond that the result says it is incomplete. */
export const PENDING_SLOTS_MAX = 300;
/** Candidates read in the first round while filling a page; each further round reads twice as many, up to CHUNK_MAX. */
const CHUNK_MIN = 40;
const CHUNK_MAX = 320;

export interface SearchCursor {
  at: number;
  id: string;
}

export interface SearchPage {
  messages: Message[];
  /** More results follow the last one. */
  hasMore: boolean;
  /** False while the backfill of older messages runs, or when the indexer lags more than an hour. */
  complete: boolean;
}

/** Each term's packed postings, one string per generation of its bucket (decoded only as far as used). */
async function termParts(store: SearchStore, state: SearchIndexState, terms: readonly string[]) {
  const buckets = [...new Set(terms.map((t) => bucketOf(t)))];
  const docs = await Promise.all(buckets.map((b) => store.searchPostings.bucket(b, state.gens[b] ?? 0)));
  const byBucket = new Map(buckets.map((b, i) => [b, docs[i]!]));
  return terms.map((term) => {
    const parts: string[] = [];
    for (const doc of byBucket.get(bucketOf(term)) ?? []) {
      const entry = doc.terms.find((e) => e.t === term);
      if (entry) parts.push(entry.p);
    }
    return parts;
  });
}

/** The lists every candidate is in, shortest first: each allOf term, and the anyOf terms as one list. */
async function candidateLists(store: SearchStore, state: SearchIndexState, plan: MessageSearchPlan) {
  const parts = await termParts(store, state, [...plan.allOf, ...plan.anyOf]);
  const lists = parts.slice(0, plan.allOf.length).map((p) => new TermCursor(p));
  if (plan.anyOf.length > 0) lists.push(new TermCursor(parts.slice(plan.allOf.length).flat()));
  return lists.sort((a, b) => a.packedLength - b.packedLength);
}

/** Candidates this few need no further list: the text check on each is cheaper than decoding a long list. */
const FEW_CANDIDATES = 64;
/** Postings of the shortest list in the first window of a newest-first search; each next window takes 4× more. */
const FIRST_WINDOW = 128;

/**
 * The candidates in time windows, each complete for its range and in the search's order: a
 * newest-first search walks back from the newest posting in windows sized by the shortest list,
 * until the page is full, so a common term costs what its newest page costs; an oldest-first
 * search takes one window of everything. In a window the lists are intersected shortest first,
 * and once the candidates are few the longer lists are left undecoded: every candidate is
 * checked on its text and fields anyway, so skipping a list adds candidates, never results.
 * Messages not folded yet (`pending`) join the window of their time.
 */
export function* candidateWindows(
  lists: readonly TermCursor[],
  pending: readonly Posting[],
  bounds: { lowest: number; top: number; newest: boolean },
): Generator<Posting[]> {
  const [lead, ...rest] = lists;
  let size = FIRST_WINDOW;
  for (let hi = bounds.top; hi > bounds.lowest; size *= 4) {
    const floor = lead && bounds.newest ? lead.floorFor(size, hi) : -Infinity;
    const lo = Math.max(bounds.lowest, floor);
    let kept = lead ? lead.take(lo, hi) : [];
    for (const list of rest) {
      if (kept.length <= FEW_CANDIDATES) break;
      const ids = new Set(list.take(lo, hi).map((p) => p.id));
      kept = kept.filter((p) => ids.has(p.id));
    }
    const seen = new Set(kept.map((p) => p.id));
    const late = pending.filter((p) => p.at >= lo && p.at < hi && !seen.has(p.id));
    yield [...kept, ...late].sort((a, b) => (bounds.newest ? comparePostings(b, a) : comparePostings(a, b)));
    hi = lo;
  }
}

/**
 * Messages journaled but not folded yet: candidates by their dialogue and time alone (the
 * journal entry carries both), checked like the others when their turn in the order comes.
 */
async function pendingCandidates(store: SearchStore, state: SearchIndexState, plan: MessageSearchPlan, now: number) {
  const newest = slotOf(now) + 3; // a writer's clock a little ahead
  const from = Math.max(state.foldedSlot + 1, newest - PENDING_SLOTS_MAX + 1);
  const entries = await store.searchJournal.entriesIn(from, newest);
  const mine = entries.filter((e) => !plan.dialogueId || e.dialogueId === plan.dialogueId);
  return {
    postings: withinWindow(mine, plan.since, plan.until).map((e): Posting => ({ at: e.at, id: e.id })),
    capped: from > state.foldedSlot + 1,
  };
}

/** Whether `p` comes after `q` in the search's order. */
const ahead = (p: Posting, q: Posting, newest: boolean) => {
  const c = comparePostings(p, q);
  return newest ? c < 0 : c > 0;
};

export async function searchMessages(
  store: SearchStore,
  plan: MessageSearchPlan,
  o: { limit: number; after?: SearchCursor; before?: SearchCursor; now?: number },
): Promise<SearchPage> {
  const now = o.now ?? Date.now();
  const state = await store.searchState.read(now);
  const [lists, pending] = await Promise.all([
    candidateLists(store, state, plan),
    pendingCandidates(store, state, plan, now),
  ]);
  const newest = plan.order === 'newest';
  const { after, before } = o;
  const inPage = (p: Posting) => (!after || ahead(p, after, newest)) && (!before || ahead(before, p, newest));
  const bounds = {
    newest,
    // A newest-first page after a cursor starts at the cursor's time (ties included, then filtered).
    top: Math.min(plan.until ?? Infinity, newest && after ? after.at + 1 : Infinity),
    lowest: Math.max(plan.since ?? -Infinity, newest && before ? before.at : -Infinity),
  };
  const want = o.limit + 1;
  const found: Message[] = [];
  for (const window of candidateWindows(lists, pending.postings, bounds)) {
    await fillPage(store, plan, window.filter(inPage), want, found);
    if (found.length >= want) break;
  }
  return {
    messages: found.slice(0, o.limit),
    hasMore: found.length > o.limit,
    complete: state.backfill.phase === 'done' && !pending.capped,
  };
}

/** Reads the candidates in order, a chunk at a time, adding matches to `found` until it holds `want`. */
async function fillPage(
  store: SearchStore,
  plan: MessageSearchPlan,
  queue: readonly Posting[],
  want: number,
  found: Message[],
): Promise<void> {
  let chunk = Math.max(CHUNK_MIN, want - found.length);
  for (let i = 0; i < queue.length && found.length < want; i += chunk, chunk = Math.min(chunk * 2, CHUNK_MAX)) {
    const slice = queue.slice(i, i + chunk);
    const ids = slice.map((p) => p.id);
    const read = new Map((await store.searchReads.messages(ids, plan.includeArchived)).map((m) => [m._id, m]));
    for (const p of slice) {
      const m = read.get(p.id);
      // The stored createdAt decides: a posting's time is the message's own.
      if (m && matchesPlan(plan, m) && found.length < want) found.push(m);
    }
  }
}
