// Database commands the app sends, from the driver's command monitoring (`monitorCommands=true`),
// split into lookups by a single string `_id` (cheap on any server) and everything else (a scan
// on FerretDB unless an index serves it). The "other" shapes say which queries those are.
import type { CommandStartedEvent, Document, MongoClient } from 'mongodb';

/** Plumbing the driver sends on its own (cursors, handshakes, index checks): counted apart. */
const IGNORED = new Set(['getMore', 'killCursors', 'endSessions', 'hello', 'ismaster', 'isMaster', 'ping', 'buildInfo', 'listIndexes', 'createIndexes']);

export type CommandClass = 'idOnly' | 'other' | 'ignored';

export interface Classified {
  cls: CommandClass;
  /** Collection, command and filter keys, e.g. `messages find {sessionId} sort(createdAt,_id)`. */
  shape: string;
}

const isPlainObject = (v: unknown): v is Document =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof Map) && !('_bsontype' in v);

/** `{_id: "<string>"}` and nothing else. */
const isIdOnly = (filter: unknown): boolean => isPlainObject(filter) && Object.keys(filter).length === 1 && typeof filter._id === 'string';

/** Sorted top-level keys, with the operators applied to each (`_id:$in`) and $or/$and branches spelled out. */
export function filterKeys(filter: unknown): string {
  if (!isPlainObject(filter)) return '';
  return Object.keys(filter)
    .sort()
    .map((k) => {
      const v: unknown = filter[k];
      if (['$or', '$and', '$nor'].includes(k) && Array.isArray(v)) return `${k}(${v.map((b) => `{${filterKeys(b)}}`).join(',')})`;
      const ops = isPlainObject(v) ? Object.keys(v).filter((o) => o.startsWith('$')).sort() : [];
      return ops.length > 0 ? `${k}:${ops.join(',')}` : k;
    })
    .join(',');
}

/** Keys of a sort spec, which the driver has turned into a Map by the time it is sent. */
const keysOf = (d: unknown): string => (d instanceof Map ? [...(d as Map<string, unknown>).keys()].join(',') : isPlainObject(d) ? Object.keys(d).join(',') : '');
const statements = (list: unknown, field: 'q'): unknown[] => (Array.isArray(list) ? (list as unknown[]).map((s): unknown => (isPlainObject(s) ? s[field] : undefined)) : []);

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
  const upsert = Array.isArray(cmd.updates) && cmd.updates.some((u) => isPlainObject(u) && u.upsert === true) ? ' upsert' : '';
  const distinctKey = name === 'distinct' && typeof cmd.key === 'string' ? ` key ${cmd.key}` : '';
  const shape = `${coll} ${name} ${keys}${sort}${upsert}${distinctKey}`;
  return { cls: filters.length > 0 && filters.every(isIdOnly) ? 'idOnly' : 'other', shape };
}

export interface TallyCounts {
  /** Commands by name, per class. */
  byKind: Record<CommandClass, Map<string, number>>;
  /** "Other" commands by shape. */
  otherShapes: Map<string, number>;
}

const emptyCounts = (): TallyCounts => ({ byKind: { idOnly: new Map(), other: new Map(), ignored: new Map() }, otherShapes: new Map() });
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** Counts the commands `client` starts while switched on. The client must have command monitoring on. */
export class CommandTally {
  private counting = false;
  private counts = emptyCounts();

  constructor(client: MongoClient) {
    client.on('commandStarted', (e) => {
      if (!this.counting) return;
      const c = classify(e);
      bump(this.counts.byKind[c.cls], e.commandName);
      if (c.cls === 'other') bump(this.counts.otherShapes, c.shape);
    });
  }

  /** Starts a fresh count. */
  start(): void {
    this.counts = emptyCounts();
    this.counting = true;
  }

  /** Stops counting and returns what was counted since start(). */
  stop(): TallyCounts {
    this.counting = false;
    return this.counts;
  }
}

/** The URI with command monitoring switched on (a driver URI option; options follow a `/` after the hosts). */
export function withCommandMonitoring(uri: string): string {
  if (uri.includes('?')) return `${uri}&monitorCommands=true`;
  const hasPath = uri.slice(uri.indexOf('://') + 3).includes('/');
  return `${uri}${hasPath ? '' : '/'}?monitorCommands=true`;
}
