// The operator API's list reads (off the hot path), so nothing outside the store holds a
// collection: a page of a list (documents matching a query, in sort order, at most a limit),
// the same over live and archived messages, every match (a batch of parents' children, cut per
// parent by the caller) and records by id. Cursors and connection shapes stay with the caller
// (graphql/pagination.ts, graphql/loaders.ts).
import type { Collection, Document, Filter } from 'mongodb';
import type { Collections } from './collections.js';
import type { Agent, Dialogue, EventLog, Human, MemoryEntry, Message, Session, Turn } from '../domain/model.js';
import type { Background, PlotState } from '../domain/story.js';

export type Keyed = { _id: string } & Document;
export type PageSort = Record<string, 1 | -1>;
/** One page: documents matching `query` in `sort` order, at most `limit`. */
export type PageSource<T extends Keyed> = (query: Filter<Document>, sort: PageSort, limit: number) => Promise<T[]>;

/** The lists the API pages through or batches by id, and their documents. */
interface ListDocs {
  dialogues: Dialogue;
  sessions: Session;
  turns: Turn;
  messages: Message;
  events: EventLog;
  humans: Human;
  agents: Agent;
  memories: MemoryEntry;
  backgrounds: Background;
  plots: PlotState;
}
export type Listed = keyof ListDocs;
export type DocOf<K extends Listed> = ListDocs[K];

/** A large first batch: the children of a whole API level usually arrive in one round trip. */
const CHILDREN_BATCH = 5_000;

export class PageReader {
  constructor(private readonly c: Collections) {}

  // Every collection here is keyed by string ids; one untyped view serves them all.
  private find(name: Listed | 'archivedMessages', query: Filter<Document> | Filter<Keyed>) {
    return (this.c[name] as unknown as Collection<Keyed>).find(query as Filter<Keyed>);
  }

  /** The page source of one list. */
  of<K extends Listed>(list: K): PageSource<DocOf<K>> {
    return async (query, sort, limit) => {
      const docs = await this.find(list, query).sort(sort).limit(limit).toArray();
      return docs as unknown as DocOf<K>[];
    };
  }

  /** Every document of a list matching `query`, in `sort` order (unbounded: the caller cuts it). */
  async matching<K extends Listed>(list: K, query: Filter<Document>, sort: PageSort): Promise<DocOf<K>[]> {
    return (await this.find(list, query).sort(sort).batchSize(CHILDREN_BATCH).toArray()) as unknown as DocOf<K>[];
  }

  /** Documents of a list by id, in no particular order; missing ones are left out. */
  async byIds<K extends Listed>(list: K, ids: string[]): Promise<DocOf<K>[]> {
    return (await this.find(list, { _id: { $in: ids } }).toArray()) as unknown as DocOf<K>[];
  }

  /**
   * Live and archived messages as one list: each gives its page under the same query, and the
   * pages merge in sort order. An archived message is a copy of the live one (same _id, keys
   * included) plus `archivedAt`, read-only here.
   */
  readonly liveAndArchivedMessages: PageSource<Message> = async (query, sort, limit) => {
    const pages = await Promise.all(
      (['messages', 'archivedMessages'] as const).map((k) => this.find(k, query).sort(sort).limit(limit).toArray()),
    );
    const merged = pages
      .flat()
      .sort((a, b) => compareBy(sort, a, b))
      .slice(0, limit);
    return merged as unknown as Message[];
  };
}

/** Orders documents as `sort` does (dates by time, then ids), for pages merged in memory. */
function compareBy(sort: PageSort, a: Document, b: Document): number {
  for (const [field, dir] of Object.entries(sort)) {
    const av: unknown = a[field];
    const bv: unknown = b[field];
    const x = av instanceof Date ? av.getTime() : (av as string | number);
    const y = bv instanceof Date ? bv.getTime() : (bv as string | number);
    if (x !== y) return (x < y ? -1 : 1) * dir;
  }
  return 0;
}
