// The access-rule classifier shared by hotPathAccess.test.ts and the growth benchmark: only a
// filter that is exactly one string `_id` counts as a point read; everything else (another
// field beside `_id`, `$in`, aggregates) is "other".
import { describe, expect, it } from 'vitest';
import { classify } from '../support/commandWatch.js';

const cls = (commandName: string, command: Record<string, unknown>) => classify({ commandName, command });

describe('command classifier', () => {
  it('accepts point reads and writes by _id and inserts', () => {
    expect(cls('find', { find: 'turns', filter: { _id: 'trn_1' } }).cls).toBe('idOnly');
    expect(cls('update', { update: 'turns', updates: [{ q: { _id: 'trn_1' }, u: {} }] }).cls).toBe('idOnly');
    expect(cls('findAndModify', { findAndModify: 'humans', query: { _id: 'hum_1' } }).cls).toBe('idOnly');
    expect(cls('insert', { insert: 'messages', documents: [{}] }).cls).toBe('idOnly');
  });

  it('flags every other filter, as FerretDB scans for it, and names its shape', () => {
    expect(cls('update', { update: 'turns', updates: [{ q: { _id: 'trn_1', status: 'pending' }, u: {} }] })).toEqual({
      cls: 'other',
      shape: 'turns update {_id,status}',
    });
    expect(cls('find', { find: 'memories', filter: { _id: { $in: ['a', 'b'] } } })).toEqual({
      cls: 'other',
      shape: 'memories find {_id:$in}',
    });
    expect(cls('find', { find: 'messages', filter: { sessionId: 's' }, sort: { createdAt: 1 } })).toEqual({
      cls: 'other',
      shape: 'messages find {sessionId} sort(createdAt)',
    });
    expect(cls('find', { find: 'messages', filter: {} }).cls).toBe('other');
    expect(cls('aggregate', { aggregate: 'memories', pipeline: [{ $match: { ownerId: 'a' } }] })).toEqual({
      cls: 'other',
      shape: 'memories aggregate [$match{ownerId}]',
    });
    expect(cls('count', { count: 'turns', query: { dialogueId: 'd' } }).cls).toBe('other');
  });

  it("sets the driver's plumbing apart", () => {
    expect(cls('getMore', { getMore: 1, collection: 'messages' }).cls).toBe('ignored');
    expect(cls('hello', { hello: 1 }).cls).toBe('ignored');
  });
});
