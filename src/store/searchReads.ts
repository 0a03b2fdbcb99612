// The message reads of search and its indexer: candidates by `_id` (one point read each, in
// parallel — FerretDB answers `{_id: {$in}}` by scanning), and the backfill's walk over the
// record in `_id` order (a one-off maintenance read, off the hot path).
import type { Collections } from './collections.js';
import type { Message } from '../domain/model.js';

export type SearchedCollection = 'messages' | 'archivedMessages';

/** Archived copies have the live shape plus archivedAt; one view of both serves search. */
const coll = (c: Collections, name: SearchedCollection) => c[name] as Collections['messages'];

export class SearchReadsRepo {
  constructor(private readonly c: Collections) {}

  messages(ids: readonly string[], archived: boolean): Promise<Message[]> {
    return readMessages(this.c, ids, archived);
  }

  after(name: SearchedCollection, afterId: string | undefined, limit: number): Promise<Message[]> {
    return messagesAfter(this.c, name, afterId, limit);
  }
}

/** The messages of these ids, live first; the archived copy of a missing one when `archived`. */
async function readMessages(c: Collections, ids: readonly string[], archived: boolean): Promise<Message[]> {
  const live = await Promise.all(ids.map((id) => c.messages.findOne({ _id: id })));
  const found = live.filter((m): m is Message => m !== null);
  if (!archived || found.length === ids.length) return found;
  const have = new Set(found.map((m) => m._id));
  const missing = ids.filter((id) => !have.has(id));
  const copies = await Promise.all(missing.map((id) => coll(c, 'archivedMessages').findOne({ _id: id })));
  return [...found, ...copies.filter((m): m is Message => m !== null)];
}

/** Up to `limit` messages after `afterId` in `_id` order (the index's backfill). */
function messagesAfter(
  c: Collections,
  name: SearchedCollection,
  afterId: string | undefined,
  limit: number,
): Promise<Message[]> {
  return coll(c, name)
    .find(afterId ? { _id: { $gt: afterId } } : {})
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
}
