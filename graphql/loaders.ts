// Per-request batching (dataloader): every record fetched by id and every page of children
// (sessions of dialogues, turns of sessions, messages of turns) asked for while resolving one
// level of a query becomes one database round trip, however many parents there are.
import DataLoader from 'dataloader';
import type { Document, Filter } from 'mongodb';
import type { Store } from '../src/store/store.js';
import type { DocOf, Keyed, Listed, PageReader, PageSort } from '../src/store/pages.js';
import type { Agent, Dialogue, Human, MemoryEntry, Message, Session, Turn } from '../src/domain/model.js';
import type { Background, PlotState } from '../src/domain/story.js';

/** Sessions of at most this many of an agent's most recently active dialogues are listed. */
export const AGENT_SESSION_DIALOGUES = 10_000;

/** One page of one parent's children, as the keyset paginator asks for it. */
export interface ChildQuery {
  collection: 'dialogues' | 'sessions' | 'turns' | 'messages' | 'events';
  parentField: string;
  parentId: string;
  /** Filters and cursor bounds, the same for every parent that can share a round trip. */
  query: Filter<Document>;
  sort: PageSort;
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
  background: DataLoader<string, Background | null>;
  plot: DataLoader<string, PlotState | null>;
  children: DataLoader<ChildQuery, Keyed[], string>;
  /** An agent's most recently active dialogues (its sessions' scope), batched across agents. */
  agentDialogueIds: DataLoader<string, string[]>;
}

function byId<K extends Listed>(pages: PageReader, list: K): DataLoader<string, DocOf<K> | null> {
  return new DataLoader<string, DocOf<K> | null>(async (ids) => {
    const docs = await pages.byIds(list, [...ids]);
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
async function loadChildren(pages: PageReader, queries: readonly ChildQuery[]): Promise<Keyed[][]> {
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
      const byParent = new Map<string, Keyed[]>();
      if (ids.length === 1) {
        const filter = { $and: [first.query, { [first.parentField]: ids[0] }] };
        byParent.set(ids[0]!, await pages.of(first.collection)(filter, first.sort, first.limit));
      } else {
        const filter = { $and: [first.query, { [first.parentField]: { $in: ids } }] };
        const wanted = new Set(ids);
        const docs: Keyed[] = await pages.matching(first.collection, filter, first.sort);
        for (const doc of docs) {
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
  const pages = store.pages;
  return {
    dialogue: byId(pages, 'dialogues'),
    session: byId(pages, 'sessions'),
    turn: byId(pages, 'turns'),
    message: byId(pages, 'messages'),
    human: byId(pages, 'humans'),
    agent: byId(pages, 'agents'),
    memory: byId(pages, 'memories'),
    background: byId(pages, 'backgrounds'),
    plot: byId(pages, 'plots'),
    children: new DataLoader<ChildQuery, Keyed[], string>((qs) => loadChildren(pages, qs), {
      cacheKeyFn: (q) => JSON.stringify([groupKey(q), q.parentId]),
    }),
    agentDialogueIds: new DataLoader<string, string[]>(async (agentIds) => {
      const byAgent = await store.dialogues.recentIdsOfAgents(agentIds, AGENT_SESSION_DIALOGUES);
      return agentIds.map((a) => byAgent.get(a) ?? []);
    }),
  };
}
