// Notes to one shared document are written in batches: one write per batch, each caller its own
// result in order, batches one at a time per key, a failed write failing only its batch.
import { describe, expect, it } from 'vitest';
import { Coalesced } from '../../src/store/coalesced.js';

describe('Coalesced', () => {
  it('writes the notes that arrive during a write as the next batch, each with its own count', async () => {
    let count = 0;
    const batches: string[][] = [];
    let release: () => void = () => {};
    const c = new Coalesced<string, number>(async (_key, notes) => {
      batches.push(notes);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      const before = count;
      count += notes.length;
      return notes.map((_, i) => before + i + 1);
    });
    const first = c.add('agent', 'a');
    await Promise.resolve();
    const rest = ['b', 'c', 'd'].map((n) => c.add('agent', n));
    release();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4]);
    // Two writes for four notes: the three that waited went together.
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('keeps keys apart and fails only the batch whose write failed', async () => {
    const c = new Coalesced<number, number>((key, notes) =>
      key === 'bad' ? Promise.reject(new Error('store down')) : Promise.resolve(notes.map((n) => n * 10)),
    );
    const good = c.add('good', 1);
    const bad = c.add('bad', 2);
    await expect(bad).rejects.toThrow('store down');
    expect(await good).toBe(10);
    // The key is usable again after a failure.
    expect(await c.add('good', 3)).toBe(30);
  });
});
