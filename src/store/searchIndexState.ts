// The search index's one state document (`_id: STATE_ID`): each bucket's head generation, the
// journal slot folded up to (the watermark) and the backfill's progress. Written by the indexer
// alone, under its lock; read by every search (one read by `_id`). The id names the postings'
// format (src/search/postings.ts): a release that changes it starts a new index, backfilled
// from the record, beside the old one (whose documents are then unused).
import type { Collections } from './collections.js';
import { BUCKETS } from '../search/indexTerms.js';
import { slotOf } from './searchJournal.js';
import { dropSearchFormat1 } from './searchFormat1.js';

export type BackfillPhase = 'messages' | 'archivedMessages' | 'done';

/** Format 2: postings packed newest first (format 1, `state`, packed them oldest first). */
export const STATE_ID = 'state:v2';

export interface SearchIndexState {
  _id: typeof STATE_ID;
  /** Head generation per bucket. */
  gens: number[];
  /** Every journal slot up to this one is folded into the postings. */
  foldedSlot: number;
  backfill: { phase: BackfillPhase; afterId?: string; folded: number };
  updatedAt: Date;
}

/** Journal slots a fresh index treats as unfolded: messages written just before it existed. */
const FRESH_LOOKBACK_SLOTS = 60;

export function freshIndexState(now: number): SearchIndexState {
  return {
    _id: STATE_ID,
    gens: new Array<number>(BUCKETS).fill(0),
    foldedSlot: slotOf(now) - FRESH_LOOKBACK_SLOTS,
    backfill: { phase: 'messages', folded: 0 },
    updatedAt: new Date(now),
  };
}

export class SearchIndexStateRepo {
  constructor(private readonly c: Collections) {}

  /** The stored state, or a fresh one (not stored until the indexer first writes it). */
  async read(now: number): Promise<SearchIndexState> {
    return (await this.c.searchIndexState.findOne({ _id: STATE_ID })) ?? freshIndexState(now);
  }

  /** Deletes the first format's documents (src/store/searchFormat1.ts); how many postings documents it named. */
  dropFormat1(): Promise<number> {
    return dropSearchFormat1(this.c);
  }

  async write(state: SearchIndexState): Promise<void> {
    await this.c.searchIndexState.replaceOne({ _id: STATE_ID }, state, { upsert: true });
  }
}
