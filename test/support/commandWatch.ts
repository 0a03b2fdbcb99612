// Watches every command the app's MongoDB driver sends (command monitoring) and sorts them by
// SPEC §3's access rule: a command on the hot path addresses exactly one document by `_id`.
import type { CommandStartedEvent, MongoClient } from 'mongodb';

/** What a command filters on, and whether that is exactly one `_id`. */
export interface CommandShape {
  collection: string;
  command: string;
  /** Sorted top-level keys of the filter(s); `[]` for commands without one (insert). */
  filterKeys: string[];
  byIdOnly: boolean;
}

/** Commands that carry no filter over documents: handshakes, cursors, sessions, index upkeep. */
const HOUSEKEEPING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'buildInfo', 'getMore', 'killCursors', 'endSessions', 'listIndexes', 'createIndexes', 'saslStart', 'saslContinue']);

const isIdOnly = (filter: unknown): boolean =>
  typeof filter === 'object' && filter !== null && Object.keys(filter).length === 1 && typeof (filter as { _id?: unknown })._id === 'string';

function filtersOf(name: string, cmd: Record<string, unknown>): unknown[] | 'none' | 'pipeline' {
  switch (name) {
    case 'insert':
      return 'none';
    case 'find':
      return [cmd.filter ?? {}];
    case 'update':
      return ((cmd.updates as Array<{ q: unknown }> | undefined) ?? []).map((u) => u.q);
    case 'delete':
      return ((cmd.deletes as Array<{ q: unknown }> | undefined) ?? []).map((d) => d.q);
    case 'findAndModify':
      return [cmd.query ?? {}];
    case 'count':
    case 'distinct':
      return [cmd.query ?? {}];
    default:
      return 'pipeline'; // aggregate and anything else that reads many documents
  }
}

export function shapeOf(e: Pick<CommandStartedEvent, 'commandName' | 'command'>): CommandShape | undefined {
  if (HOUSEKEEPING.has(e.commandName)) return undefined;
  const cmd = e.command as Record<string, unknown>;
  const target = cmd[e.commandName];
  const collection = typeof target === 'string' ? target : '';
  const filters = filtersOf(e.commandName, cmd);
  if (filters === 'none') return { collection, command: e.commandName, filterKeys: [], byIdOnly: true };
  if (filters === 'pipeline') return { collection, command: e.commandName, filterKeys: ['(pipeline)'], byIdOnly: false };
  const keys = [...new Set(filters.flatMap((f) => (typeof f === 'object' && f !== null ? Object.keys(f) : [])))].sort();
  return { collection, command: e.commandName, filterKeys: keys, byIdOnly: filters.length > 0 && filters.every(isIdOnly) };
}

export interface CommandWatch {
  /** Commands of the watched database since `start()`. */
  readonly shapes: CommandShape[];
  start(): void;
  stop(): void;
}

/** The client must have been created with `monitorCommands=true` (a URI option). */
export function watchCommands(client: MongoClient, dbName: string): CommandWatch {
  const shapes: CommandShape[] = [];
  let on = false;
  client.on('commandStarted', (e) => {
    if (!on || e.databaseName !== dbName) return;
    const shape = shapeOf(e);
    if (shape) shapes.push(shape);
  });
  return {
    shapes,
    start: () => (on = true),
    stop: () => (on = false),
  };
}

export const withCommandMonitoring = (uri: string): string => `${uri}${uri.includes('?') ? '&' : '?'}monitorCommands=true`;

export const describeShape = (s: CommandShape): string => `${s.collection}.${s.command} {${s.filterKeys.join(', ')}}`;
