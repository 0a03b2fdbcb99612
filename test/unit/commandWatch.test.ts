// The access-rule classifier used by hotPathAccess.test.ts: only a filter that is exactly one
// string `_id` counts as a point read; everything else (another field beside `_id`, `$in`,
// aggregates) is flagged.
import { describe, expect, it } from 'vitest';
import { shapeOf } from '../support/commandWatch.js';

const shape = (commandName: string, command: Record<string, unknown>) => shapeOf({ commandName, command });

describe('command classifier', () => {
  it('accepts point reads and writes by _id and inserts', () => {
    expect(shape('find', { find: 'turns', filter: { _id: 'trn_1' } })?.byIdOnly).toBe(true);
    expect(shape('update', { update: 'turns', updates: [{ q: { _id: 'trn_1' }, u: {} }] })?.byIdOnly).toBe(true);
    expect(shape('findAndModify', { findAndModify: 'humans', query: { _id: 'hum_1' } })?.byIdOnly).toBe(true);
    expect(shape('insert', { insert: 'messages', documents: [{}] })?.byIdOnly).toBe(true);
  });

  it('flags every other filter, as FerretDB scans for it', () => {
    expect(shape('update', { update: 'turns', updates: [{ q: { _id: 'trn_1', status: 'pending' }, u: {} }] })).toMatchObject({ byIdOnly: false, filterKeys: ['_id', 'status'] });
    expect(shape('find', { find: 'memories', filter: { _id: { $in: ['a', 'b'] } } })?.byIdOnly).toBe(false);
    expect(shape('find', { find: 'messages', filter: { sessionId: 's' } })?.byIdOnly).toBe(false);
    expect(shape('find', { find: 'messages', filter: {} })?.byIdOnly).toBe(false);
    expect(shape('aggregate', { aggregate: 'memories', pipeline: [] })?.byIdOnly).toBe(false);
    expect(shape('count', { count: 'turns', query: { dialogueId: 'd' } })?.byIdOnly).toBe(false);
  });

  it('ignores handshakes and cursor upkeep', () => {
    expect(shape('getMore', { getMore: 1, collection: 'messages' })).toBeUndefined();
    expect(shape('hello', { hello: 1 })).toBeUndefined();
  });
});
