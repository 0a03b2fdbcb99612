// A message search over the index (src/search/indexer.ts), by `_id` only: the state document,
// the bucket documents of the query's terms, the journal slots not yet folded, then the
// candidates themselves in pages, newest (or oldest) first, each checked against the plan
// (src/search/messageSearch.ts) until the page is full. Messages not yet folded are candidates
// through the journal (by dialogue and time), so a message is searchable as soon as its insert
// returned.
import type { Message } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { slotOf } from '../store/searchJournal.js';
import type { SearchIndexState } from '../store/searchIndexState.js';
import { bucketOf } from './indexTerms.js';
import { matchesPlan, type MessageSearchPlan } from './messageSearch.js';
import {
  comparePostings,
  intersectPostings,
  unionPostings,
  unpackPostings,
  withinWindow,
  type Posting,
} from './postings.js';

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

/** Each term's packed postings, one string per generation of its bucket (decoded only when used). */
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

const decode = (parts: readonly string[]) => unionPostings(parts.map(unpackPostings));
const packedLength = (parts: readonly string[]) => parts.reduce((n, p) => n + p.length, 0);

/** Candidates this few need no further list: the text check on each is cheaper than decoding a long list. */
const FEW_CANDIDATES = 64;

/**
 * The candidates the index names: in every allOf list, and in one of the anyOf lists when
 * given. Lists are intersected shortest first (their packed length is known before decoding),
 * and once the candidates are few the longest lists are left undecoded: every candidate is
 * checked on its text and fields anyway, so skipping a list adds candidates, never results.
 */
async function indexedCandidates(store: SearchStore, state: SearchIndexState, plan: MessageSearchPlan) {
  const parts = await termParts(store, state, [...plan.allOf, ...plan.anyOf]);
  const all = parts.slice(0, plan.allOf.length).sort((a, b) => packedLength(a) - packedLength(b));
  const any = parts.slice(plan.allOf.length);
  let kept: Posting[] | undefined = any.length > 0 ? decode(any.flat()) : undefined;
  for (const list of all) {
    if (kept && kept.length <= FEW_CANDIDATES) break;
    kept = kept ? intersectPostings([kept, decode(list)]) : decode(list);
  }
  return withinWindow(kept ?? [], plan.since, plan.until);
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
  const [indexed, pending] = await Promise.all([
    indexedCandidates(store, state, plan),
    pendingCandidates(store, state, plan, now),
  ]);
  const seen = new Set(indexed.map((p) => p.id));
  const candidates = [...indexed, ...pending.postings.filter((p) => !seen.has(p.id))];
  const newest = plan.order === 'newest';
  candidates.sort((a, b) => (newest ? comparePostings(b, a) : comparePostings(a, b)));
  const { after, before } = o;
  const queue = candidates.filter((p) => (!after || ahead(p, after, newest)) && (!before || ahead(before, p, newest)));
  const found = await fillPage(store, plan, queue, o.limit + 1);
  return {
    messages: found.slice(0, o.limit),
    hasMore: found.length > o.limit,
    complete: state.backfill.phase === 'done' && !pending.capped,
  };
}

/** Reads the candidates in order, a chunk at a time, until `want` match. */
async function fillPage(
  store: SearchStore,
  plan: MessageSearchPlan,
  queue: readonly Posting[],
  want: number,
): Promise<Message[]> {
  const found: Message[] = [];
  let chunk = Math.max(CHUNK_MIN, want);
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
  return found;
}
