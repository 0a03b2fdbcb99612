// Sorts the commands the app's MongoDB driver sends (command monitoring) by SPEC §3's access rule:
// a lookup by a single string `_id` (cheap on any server) or anything else (a scan on FerretDB
// unless an index serves it). Shared by the access-rule test and the growth benchmark.
import type { CommandStartedEvent, Document, MongoClient } from 'mongodb';

/** Plumbing the driver sends on its own (cursors, handshakes, index checks): counted apart. */
const IGNORED = new Set([
  'getMore',
  'killCursors',
  'endSessions',
  'hello',
  'ismaster',
  'isMaster',
  'ping',
  'buildInfo',
  'listIndexes',
  'createIndexes',
  'dropIndexes',
  'explain', // the store's probe of which indexes the server reads (startup)
]);

export type CommandClass = 'idOnly' | 'other' | 'ignored';

export interface Classified {
  cls: CommandClass;
  /** Collection, command and filter keys, e.g. `messages find {sessionId} sort(createdAt,_id)`. */
  shape: string;
}

const isPlainObject = (v: unknown): v is Document =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof Date) &&
  !(v instanceof Map) &&
  !('_bsontype' in v);

/** `{_id: "<string>"}` and nothing else. */
const isIdOnly = (filter: unknown): boolean =>
  isPlainObject(filter) && Object.keys(filter).length === 1 && typeof filter._id === 'string';

/** Sorted top-level keys, with the operators applied to each (`_id:$in`) and $or/$and branches spelled out. */
export function filterKeys(filter: unknown): string {
  if (!isPlainObject(filter)) return '';
  return Object.keys(filter)
    .sort()
    .map((k) => {
      const v: unknown = filter[k];
      if (['$or', '$and', '$nor'].includes(k) && Array.isArray(v))
        return `${k}(${v.map((b) => `{${filterKeys(b)}}`).join(',')})`;
      const ops = isPlainObject(v)
        ? Object.keys(v)
            .filter((o) => o.startsWith('$'))
            .sort()
        : [];
      return ops.length > 0 ? `${k}:${ops.join(',')}` : k;
    })
    .join(',');
}

/** Keys of a sort spec, which the driver has turned into a Map by the time it is sent. */
const keysOf = (d: unknown): string =>
  d instanceof Map
    ? [...(d as Map<string, unknown>).keys()].join(',')
    : isPlainObject(d)
      ? Object.keys(d).join(',')
      : '';
const statements = (list: unknown, field: 'q'): unknown[] =>
  Array.isArray(list) ? (list as unknown[]).map((s): unknown => (isPlainObject(s) ? s[field] : undefined)) : [];

/** The filters of a command (several for a multi-statement update or delete); undefined for commands without one. */
function filtersOf(name: string, cmd: Document): unknown[] | undefined {
  const filter: unknown = cmd.filter;
  const query: unknown = cmd.query;
  switch (name) {
    case 'find':
      return [filter ?? {}];
    case 'update':
      return statements(cmd.updates, 'q');
    case 'delete':
      return statements(cmd.deletes, 'q');
    case 'findAndModify':
    case 'count':
    case 'distinct':
      return [query ?? {}];
    default:
      return undefined;
  }
}

/** Stages of a pipeline, with the keys of each $match. */
function pipelineShape(pipeline: unknown): string {
  if (!Array.isArray(pipeline)) return '';
  return pipeline
    .map((stage) => {
      const name = isPlainObject(stage) ? (Object.keys(stage)[0] ?? '?') : '?';
      return name === '$match' && isPlainObject(stage) ? `$match{${filterKeys(stage.$match)}}` : name;
    })
    .join(' ');
}

export function classify(e: Pick<CommandStartedEvent, 'commandName' | 'command'>): Classified {
  const name = e.commandName;
  const cmd = e.command;
  const target: unknown = cmd[name];
  const coll = typeof target === 'string' ? target : '(db)';
  if (IGNORED.has(name)) return { cls: 'ignored', shape: `${coll} ${name}` };
  if (name === 'insert') return { cls: 'idOnly', shape: `${coll} insert` };
  if (name === 'aggregate') return { cls: 'other', shape: `${coll} aggregate [${pipelineShape(cmd.pipeline)}]` };
  const filters = filtersOf(name, cmd);
  if (!filters) return { cls: 'other', shape: `${coll} ${name}` };
  const keys = [...new Set(filters.map((f) => `{${filterKeys(f)}}`))].join(' | ');
  // Sort and upsert say which index would serve it and whether a miss writes.
  const sort = cmd.sort instanceof Map || isPlainObject(cmd.sort) ? ` sort(${keysOf(cmd.sort)})` : '';
  const upsert =
    Array.isArray(cmd.updates) && cmd.updates.some((u) => isPlainObject(u) && u.upsert === true) ? ' upsert' : '';
  const distinctKey = name === 'distinct' && typeof cmd.key === 'string' ? ` key ${cmd.key}` : '';
  const shape = `${coll} ${name} ${keys}${sort}${upsert}${distinctKey}`;
  return { cls: filters.length > 0 && filters.every(isIdOnly) ? 'idOnly' : 'other', shape };
}

export interface CommandWatch {
  /** Commands of the watched database since `start()` (driver plumbing left out). */
  readonly seen: Classified[];
  start(): void;
  stop(): void;
}

/** The client must have been created with command monitoring on (`withCommandMonitoring`). */
export function watchCommands(client: MongoClient, dbName: string): CommandWatch {
  const seen: Classified[] = [];
  let on = false;
  client.on('commandStarted', (e) => {
    if (!on || e.databaseName !== dbName) return;
    const c = classify(e);
    if (c.cls !== 'ignored') seen.push(c);
  });
  return { seen, start: () => void (on = true), stop: () => void (on = false) };
}

/** The URI with command monitoring switched on (a driver URI option; options follow a `/` after the hosts). */
export function withCommandMonitoring(uri: string): string {
  if (uri.includes('?')) return `${uri}&monitorCommands=true`;
  const hasPath = uri.slice(uri.indexOf('://') + 3).includes('/');
  return `${uri}${hasPath ? '' : '/'}?monitorCommands=true`;
}
