// The search index's postings (src/search/postings.ts): terms hash into BUCKETS bucket
// documents (src/search/indexTerms.ts), each holding, per term, its packed postings. A bucket
// grows in generations: `p:<bucket>:<gen>`; only the newest (the head) is rewritten, and once
// it passes HEAD_BYTES the next fold starts a new one, so a fold rewrites small documents
// only. Everything is read and written by `_id`; the one writer is the indexer under its lock.
import type { Collections } from './collections.js';

/** A head past this many packed bytes is sealed: the next postings of its bucket start a new generation. */
export const HEAD_BYTES = 16_000;

export interface PostingsDoc {
  _id: string;
  /** Per term, the packed postings of this generation, sorted by (at, id). */
  terms: Array<{ t: string; p: string }>;
  bytes: number;
}

export const postingsId = (bucket: number, gen: number) => `p:${bucket}:${gen}`;

export class SearchPostingsRepo {
  constructor(private readonly c: Collections) {}

  /** The documents of one bucket, generations 0..lastGen (missing ones skipped). */
  async bucket(bucket: number, lastGen: number): Promise<PostingsDoc[]> {
    const reads: Promise<PostingsDoc | null>[] = [];
    for (let g = 0; g <= lastGen; g++) reads.push(this.c.searchPostings.findOne({ _id: postingsId(bucket, g) }));
    return (await Promise.all(reads)).filter((d): d is PostingsDoc => d !== null);
  }

  get(id: string): Promise<PostingsDoc | null> {
    return this.c.searchPostings.findOne({ _id: id });
  }

  /** Writes whole documents by `_id` (one command). */
  async putAll(docs: readonly PostingsDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.c.searchPostings.bulkWrite(
      docs.map((d) => ({ replaceOne: { filter: { _id: d._id }, replacement: d, upsert: true } })),
      { ordered: false },
    );
  }
}
