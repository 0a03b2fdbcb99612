// The documents of the search index's first format (postings packed oldest first, state `state`,
// postings `p:<bucket>:<gen>`), which format 2 (src/store/searchIndexState.ts) replaced: once,
// at the indexer's start, every one of them is deleted by `_id` (the old state names them all).
import type { Collection } from 'mongodb';
import type { Collections } from './collections.js';

interface Format1State {
  _id: string;
  gens?: unknown;
}

/** Deletes per bulk write (FerretDB 1.24 hangs on ~100 matched documents in one command). */
const CHUNK = 50;

/** Deletes the first format's documents; how many postings documents it found to delete. */
export async function dropSearchFormat1(c: Collections): Promise<number> {
  const states = c.searchIndexState as unknown as Collection<Format1State>; // the old `_id` is not the new literal
  const old = await states.findOne({ _id: 'state' });
  if (!old) return 0;
  const gens = Array.isArray(old.gens) ? old.gens : [];
  const ids: string[] = [];
  gens.forEach((head, bucket) => {
    if (typeof head !== 'number' || !Number.isInteger(head) || head < 0) return;
    for (let g = 0; g <= head; g++) ids.push(`p:${bucket}:${g}`);
  });
  const postings = c.searchPostings as unknown as Collection<{ _id: string }>;
  for (let i = 0; i < ids.length; i += CHUNK)
    await postings.bulkWrite(
      ids.slice(i, i + CHUNK).map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
  await states.deleteOne({ _id: 'state' });
  return ids.length;
}
