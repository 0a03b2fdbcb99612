// The search index's postings (src/search/postings.ts): terms hash into BUCKETS bucket
// documents (src/search/indexTerms.ts), each holding, per term, its packed postings. A bucket
// grows in generations: `p2:<bucket>:<gen>`; only the newest (the head) is rewritten, and once
// it passes HEAD_BYTES the next fold starts a new one, so a fold rewrites small documents
// only. Everything is read and written by `_id`; the one writer is the indexer under its lock.
// A generation below the bucket's head is never written again, so each process keeps the sealed
// ones it read (LRU, bounded in bytes): a search then reads only the heads of its terms' buckets.
import type { Collections } from './collections.js';

/** A head past this many packed bytes is sealed: the next postings of its bucket start a new generation. */
export const HEAD_BYTES = 16_000;

export interface PostingsDoc {
  _id: string;
  /** Per term, the packed postings of this generation, sorted by (at, id). */
  terms: Array<{ t: string; p: string }>;
  bytes: number;
}

/** `p2:`: the postings' format 2 (src/store/searchIndexState.ts). */
export const postingsId = (bucket: number, gen: number) => `p2:${bucket}:${gen}`;

/** Bytes of sealed generations a process keeps. */
export const SEALED_CACHE_BYTES = 64 * 1024 * 1024;

/** Sealed generations by `_id`, least recently used first out. */
class SealedCache {
  private readonly docs = new Map<string, PostingsDoc>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  get(id: string): PostingsDoc | undefined {
    const doc = this.docs.get(id);
    if (doc) {
      this.docs.delete(id);
      this.docs.set(id, doc);
    }
    return doc;
  }

  put(doc: PostingsDoc): void {
    if (this.docs.has(doc._id)) return;
    this.docs.set(doc._id, doc);
    this.bytes += doc.bytes;
    for (const [id, old] of this.docs) {
      if (this.bytes <= this.budget) break;
      this.docs.delete(id);
      this.bytes -= old.bytes;
    }
  }
}

export class SearchPostingsRepo {
  private readonly sealed: SealedCache;

  constructor(
    private readonly c: Collections,
    cacheBytes = SEALED_CACHE_BYTES,
  ) {
    this.sealed = new SealedCache(cacheBytes);
  }

  /** The documents of one bucket, generations 0..head (missing ones skipped); sealed ones from the cache when kept. */
  async bucket(bucket: number, head: number): Promise<PostingsDoc[]> {
    const reads: Promise<PostingsDoc | null>[] = [];
    for (let g = 0; g <= head; g++) {
      const id = postingsId(bucket, g);
      const kept = g < head ? this.sealed.get(id) : undefined;
      reads.push(kept ? Promise.resolve(kept) : this.get(id));
    }
    const docs = (await Promise.all(reads)).filter((d): d is PostingsDoc => d !== null);
    for (const d of docs) if (d._id !== postingsId(bucket, head)) this.sealed.put(d);
    return docs;
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
