// Per-request batching (dataloader): every record fetched by id and every page of children
// (sessions of dialogues, turns of sessions, messages of turns) asked for while resolving one
// level of a query becomes one database round trip, however many parents there are.
import DataLoader from 'dataloader';
import type { Document, Filter, Sort } from 'mongodb';
import type { Store } from '../src/store/store.js';
import type { Collections } from '../src/store/collections.js';
import type { Agent, Dialogue, Human, MemoryEntry, Message, Session, Turn } from '../src/domain/model.js';

type Keyed = { _id: string } & Document;

/** One page of one parent's children, as the keyset paginator asks for it. */
export interface ChildQuery {
  collection: 'dialogues' | 'sessions' | 'turns' | 'messages' | 'events';
  parentField: string;
  parentId: string;
  /** Filters and cursor bounds, the same for every parent that can share a round trip. */
  query: Filter<Document>;
  sort: Record<string, 1 | -1>;
  limit: number;
}

export interface Loaders {
  dialogue: DataLoader<string, Dialogue | null>;
  session: DataLoader<string, Session | null>;
  turn: DataLoader<string, Turn | null>;
  message: DataLoader<string, Message | null>;
  human: DataLoader<string, Human | null>;
  agent: DataLoader<string, Agent | null>;
  memory: DataLoader<string, MemoryEntry | null>;
  children: DataLoader<ChildQuery, Keyed[], string>;
}

function byId<T extends Keyed>(collection: Collections[keyof Collections]): DataLoader<string, T | null> {
  // Every collection is keyed by string ids; one view of them serves every loader.
  const c = collection as unknown as Collections['messages'];
  return new DataLoader<string, T | null>(async (ids) => {
    const docs = (await c.find({ _id: { $in: [...ids] } }).toArray()) as unknown as T[];
    const found = new Map(docs.map((d) => [d._id, d]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

const groupKey = (q: ChildQuery) => JSON.stringify([q.collection, q.parentField, q.query, q.sort, q.limit]);

/**
 * Parents asking for the same page shape share one query over `$in` of their ids, sorted so each
 * parent's children keep their order; each parent then keeps its first `limit`. A lone parent
 * (or one paging with its own cursor) gets the exact limited query.
 */
async function loadChildren(c: Collections, queries: readonly ChildQuery[]): Promise<Keyed[][]> {
  const groups = new Map<string, ChildQuery[]>();
  for (const q of queries) {
    const key = groupKey(q);
    groups.set(key, [...(groups.get(key) ?? []), q]);
  }
  const results = new Map<string, Map<string, Keyed[]>>();
  await Promise.all(
    [...groups].map(async ([key, group]) => {
      const first = group[0]!;
      const ids = [...new Set(group.map((q) => q.parentId))];
      const collection = c[first.collection] as unknown as Collections['messages'];
      const byParent = new Map<string, Keyed[]>();
      const sort = first.sort as Sort;
      if (ids.length === 1) {
        const filter = { $and: [first.query, { [first.parentField]: ids[0] }] } as Filter<Message>;
        byParent.set(ids[0]!, await collection.find(filter).sort(sort).limit(first.limit).toArray());
      } else {
        const filter = { $and: [first.query, { [first.parentField]: { $in: ids } }] } as Filter<Message>;
        // A large first batch: the children of a whole level usually arrive in one round trip.
        const wanted = new Set(ids);
        for (const doc of (await collection.find(filter).sort(sort).batchSize(5_000).toArray()) as unknown as Keyed[]) {
          // An array parent field (a dialogue's humanIds) puts the child under each listed parent.
          const value: unknown = doc[first.parentField];
          const parents = Array.isArray(value) ? value.map(String).filter((p) => wanted.has(p)) : [String(value)];
          for (const parent of parents) {
            const list = byParent.get(parent) ?? [];
            if (list.length < first.limit) list.push(doc);
            byParent.set(parent, list);
          }
        }
      }
      results.set(key, byParent);
    }),
  );
  return queries.map((q) => results.get(groupKey(q))?.get(q.parentId) ?? []);
}

export function createLoaders(store: Store): Loaders {
  const c = store.c;
  return {
    dialogue: byId<Dialogue>(c.dialogues),
    session: byId<Session>(c.sessions),
    turn: byId<Turn>(c.turns),
    message: byId<Message>(c.messages),
    human: byId<Human>(c.humans),
    agent: byId<Agent>(c.agents),
    memory: byId<MemoryEntry>(c.memories),
    children: new DataLoader<ChildQuery, Keyed[], string>((qs) => loadChildren(c, qs), {
      cacheKeyFn: (q) => JSON.stringify([groupKey(q), q.parentId]),
    }),
  };
}
