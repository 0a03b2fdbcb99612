// Keyset pagination for Relay connections: cursors encode (sort value, _id) so pages stay
// stable while new documents arrive, and every page is one indexed query.
import { resolveCursorConnection, type DefaultConnectionArguments, type PageInfoShape } from '@pothos/plugin-relay';
import type { Collection, Document, Filter, SortDirection } from 'mongodb';
import { apiError } from './errors.js';

type Keyed = { _id: string } & Document;

export interface Connection<T> {
  pageInfo: PageInfoShape;
  edges: Array<{ cursor: string; node: T }>;
}

export function encodeCursor(value: Date, id: string): string {
  return Buffer.from(JSON.stringify([value.toISOString(), id])).toString('base64url');
}

function decodeCursor(cursor: string): [Date, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      const d = new Date(parsed[0]);
      if (!Number.isNaN(d.getTime())) return [d, parsed[1]];
    }
  } catch {
    // fall through to the error below
  }
  throw apiError('BAD_REQUEST', 'malformed cursor');
}

/** Documents of `collection` matching `filter`, ordered by `field` then _id in `direction`. */
export function keysetConnection<T extends Keyed>(
  collection: Collection<T>,
  filter: Filter<T>,
  field: keyof T & string,
  direction: 1 | -1,
  args: DefaultConnectionArguments,
): Promise<Connection<T>> {
  // Pothos hands nodes back as unknown; they are the documents returned below.
  const toCursor = (doc: unknown) => {
    const node = doc as T;
    const value: unknown = node[field];
    if (!(value instanceof Date)) throw new Error(`cursor field ${field} is not a date`);
    return encodeCursor(value, node._id);
  };
  return resolveCursorConnection({ args, toCursor, defaultSize: 20, maxSize: 100 }, async ({ after, before, limit, inverted }) => {
    const dir: 1 | -1 = inverted ? (direction === 1 ? -1 : 1) : direction;
    const bounds: Filter<T>[] = [];
    const past = (cursor: string, forward: boolean): Filter<T> => {
      const [v, id] = decodeCursor(cursor);
      const op = (forward ? direction : -direction) === 1 ? '$gt' : '$lt';
      return { $or: [{ [field]: { [op]: v } }, { [field]: v, _id: { [op]: id } }] } as Filter<T>;
    };
    if (after) bounds.push(past(after, true));
    if (before) bounds.push(past(before, false));
    const query = (bounds.length ? { $and: [filter, ...bounds] } : filter) as Filter<T>;
    const sort: Record<string, SortDirection> = { [field]: dir, _id: dir };
    return (await collection.find(query).sort(sort).limit(limit).toArray()) as T[];
  }) as Promise<Connection<T>>;
}
