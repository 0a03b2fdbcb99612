// Search keys for messages stored before they existed (src/search/searchKeys.ts). Started by the
// api role: batches of 50 in _id order, each a bulkWrite conditional on the message being
// unchanged since it was read (an edit meanwhile writes its own keys). Resumable: a restart
// simply continues with whatever still lacks keys. It writes only `searchKeys`, never the text.
import type { AnyBulkWriteOperation } from 'mongodb';
import type { Message } from '../domain/model.js';
import type { Logger } from '../log.js';
import type { Collections } from './collections.js';
import { messageSearchKeys } from '../search/searchKeys.js';

export const BACKFILL_BATCH = 50;

/** Live messages first, then the archived copies (searched with includeArchived). */
const SEARCHED = ['messages', 'archivedMessages'] as const;
type SearchedCollection = (typeof SEARCHED)[number];

/** One batch after `afterId`; returns the last id seen (undefined when nothing is left) and how many were written. */
export async function backfillSearchKeysBatch(
  c: Collections,
  afterId: string | undefined,
  batch = BACKFILL_BATCH,
  collection: SearchedCollection = 'messages',
): Promise<{ lastId?: string; written: number }> {
  // Archived copies have the live shape plus archivedAt; one view of both serves the backfill.
  const coll = c[collection] as Collections['messages'];
  const docs = await coll
    .find({ ...(afterId ? { _id: { $gt: afterId } } : {}), searchKeys: { $exists: false } })
    .project<Pick<Message, '_id' | 'content' | 'contentMeta' | 'updatedAt'>>({
      content: 1,
      'contentMeta.caption': 1,
      'contentMeta.transcription': 1,
      updatedAt: 1,
    })
    .sort({ _id: 1 })
    .limit(batch)
    .toArray();
  if (docs.length === 0) return { written: 0 };
  const ops: AnyBulkWriteOperation<Message>[] = docs.map((d) => ({
    updateOne: {
      filter: { _id: d._id, updatedAt: d.updatedAt, searchKeys: { $exists: false } },
      update: { $set: { searchKeys: messageSearchKeys(d) } },
    },
  }));
  const r = await coll.bulkWrite(ops, { ordered: false });
  return { lastId: docs[docs.length - 1]!._id, written: r.modifiedCount };
}

/** Runs batches until none is left or stop() is called; yields to other work between batches. */
export function startSearchKeysBackfill(o: { store: { readonly c: Collections }; log: Logger; pauseMs?: number }): {
  stop(): Promise<void>;
  done: Promise<number>;
} {
  let stopped = false;
  const run = async (): Promise<number> => {
    let total = 0;
    for (const collection of SEARCHED) {
      let after: string | undefined;
      for (;;) {
        if (stopped) return total;
        const r = await backfillSearchKeysBatch(o.store.c, after, BACKFILL_BATCH, collection);
        if (r.lastId === undefined) break;
        total += r.written;
        after = r.lastId;
        await new Promise((res) => setTimeout(res, o.pauseMs ?? 10));
      }
    }
    if (total > 0) o.log.info({ messages: total }, 'search keys backfilled');
    return total;
  };
  const done = run().catch((err: unknown) => {
    // Search still works for every message written since; the next start resumes.
    if (!stopped) o.log.warn({ err }, 'search keys backfill stopped');
    return 0;
  });
  return {
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
