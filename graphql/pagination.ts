// Keyset pagination for Relay connections: cursors encode (sort value, _id) so pages stay
// stable while new documents arrive, and every page is one indexed query (batched across
// parents by the children loader for nested connections).
import { resolveCursorConnection, type DefaultConnectionArguments, type PageInfoShape } from '@pothos/plugin-relay';
import type { Document, Filter } from 'mongodb';
import type { Keyed, PageSort, PageSource } from '../src/store/pages.js';
import { apiError } from './errors.js';
import type { ChildQuery, Loaders } from './loaders.js';

export interface Connection<T> {
  pageInfo: PageInfoShape;
  edges: Array<{ cursor: string; node: T }>;
}

export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;

export function encodeCursor(value: Date, id: string): string {
  return Buffer.from(JSON.stringify([value.toISOString(), id])).toString('base64url');
}

export function decodeCursor(cursor: string): [Date, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string'
    ) {
      const d = new Date(parsed[0]);
      if (!Number.isNaN(d.getTime())) return [d, parsed[1]];
    }
  } catch {
    // fall through to the error below
  }
  throw apiError('BAD_REQUEST', 'malformed cursor');
}

type Fetch = (query: Filter<Document>, sort: PageSort, limit: number) => Promise<Keyed[]>;

function paginate<T extends Keyed>(
  filter: Filter<Document>,
  field: string,
  direction: 1 | -1,
  args: DefaultConnectionArguments,
  fetch: Fetch,
): Promise<Connection<T>> {
  // Pothos hands nodes back as unknown; they are the documents fetched below.
  const toCursor = (doc: unknown) => {
    const node = doc as Keyed;
    const value: unknown = node[field];
    if (!(value instanceof Date)) throw new Error(`cursor field ${field} is not a date`);
    return encodeCursor(value, node._id);
  };
  for (const n of [args.first, args.last]) {
    if (n !== undefined && n !== null && (n < 0 || n > PAGE_MAX))
      throw apiError('BAD_REQUEST', `first/last must be between 0 and ${PAGE_MAX}`);
  }
  return resolveCursorConnection(
    { args, toCursor, defaultSize: PAGE_DEFAULT, maxSize: PAGE_MAX },
    async ({ after, before, limit, inverted }) => {
      const dir: 1 | -1 = inverted ? (direction === 1 ? -1 : 1) : direction;
      const bounds: Filter<Document>[] = [];
      const past = (cursor: string, forward: boolean): Filter<Document> => {
        const [v, id] = decodeCursor(cursor);
        const op = (forward ? direction : -direction) === 1 ? '$gt' : '$lt';
        return { $or: [{ [field]: { [op]: v } }, { [field]: v, _id: { [op]: id } }] };
      };
      if (after) bounds.push(past(after, true));
      if (before) bounds.push(past(before, false));
      const query = bounds.length ? { $and: [filter, ...bounds] } : filter;
      return fetch(query, { [field]: dir, _id: dir }, limit);
    },
  ) as Promise<Connection<T>>;
}

/** A top-level list: the documents of a store page source matching `filter`, ordered by `field` then _id. */
export function keysetConnection<T extends Keyed>(
  source: PageSource<T>,
  filter: Filter<T>,
  field: keyof T & string,
  direction: 1 | -1,
  args: DefaultConnectionArguments,
): Promise<Connection<T>> {
  return paginate<T>(filter as Filter<Document>, field, direction, args, source);
}

/** A parent's children (a dialogue's sessions, …), batched with its siblings' pages. */
export function childConnection<T extends Keyed>(
  loaders: Loaders,
  spec: {
    collection: ChildQuery['collection'];
    parentField: string;
    parentId: string;
    filter: Filter<T>;
    field: keyof T & string;
    direction: 1 | -1;
  },
  args: DefaultConnectionArguments,
): Promise<Connection<T>> {
  return paginate<T>(spec.filter as Filter<Document>, spec.field, spec.direction, args, (query, sort, limit) =>
    loaders.children.load({
      collection: spec.collection,
      parentField: spec.parentField,
      parentId: spec.parentId,
      query,
      sort,
      limit,
    }),
  );
}
