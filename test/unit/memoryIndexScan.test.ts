import { describe, expect, it } from 'vitest';
import { MEMORY_KINDS, type MemoryKind } from '../../src/domain/model.js';
import { MemoryIndex } from '../../src/memory/memoryIndex.js';
import { nativeScanAvailable } from '../../src/memory/nativeScan.js';
import { TimeOrder } from '../../src/memory/timeOrder.js';
import { normalizeInPlace } from '../../src/memory/vectors.js';
import { mulberry32 } from '../support/prng.js';

const DIMS = 64;

const prng = mulberry32;

const unit = (rnd: () => number): Float32Array =>
  normalizeInPlace(Float32Array.from({ length: DIMS }, () => rnd() - 0.5));

/** Best k ids by exact dot product, as a plain scan would find them. */
function exactTop(
  vectors: Map<string, Float32Array>,
  q: Float32Array,
  k: number,
  keep: (id: string) => boolean,
): string[] {
  const dot = (a: Float32Array) => a.reduce((s, x, j) => s + x * q[j]!, 0);
  return [...vectors]
    .filter(([id]) => keep(id))
    .map(([id, v]) => ({ id, s: dot(v) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map((x) => x.id);
}

describe('vector search over many rows', () => {
  const rnd = prng(42);
  const index = new MemoryIndex(DIMS);
  const vectors = new Map<string, Float32Array>();
  const kindOf = new Map<string, MemoryKind>();
  const at = new Date(0);
  for (let i = 0; i < 12_000; i++) {
    const id = `m${i}`;
    const kind = MEMORY_KINDS[i % MEMORY_KINDS.length]!;
    const v = unit(rnd);
    vectors.set(id, v);
    kindOf.set(id, kind);
    index.upsert({ id, kind, text: `memory ${i}`, importance: 0.5, occurredAt: at, updatedAt: at }, v);
  }
  // Removed and replaced rows must never come back.
  for (let i = 0; i < 300; i++) {
    index.remove(`m${i * 7}`);
    vectors.delete(`m${i * 7}`);
  }

  it('uses the native SIMD scan on this platform', () => {
    expect(nativeScanAvailable).toBe(true);
  });

  it('finds exactly what a full float32 scan finds, several queries in one pass', () => {
    const queries = [unit(rnd), unit(rnd), unit(rnd)];
    const found = index.searchMany(queries, 10);
    queries.forEach((q, i) => {
      expect(found[i]!.map((h) => h.entry.id)).toEqual(exactTop(vectors, q, 10, () => true));
    });
  });

  it('filters by kind, falling back to a full scan when the candidates run short', () => {
    const q = unit(rnd);
    const only: MemoryKind[] = ['reflection'];
    // One row in six is a reflection: the over-fetched candidates hold fewer than 40 of them.
    const hits = index.search(q, 40, { kinds: only });
    expect(hits.map((h) => h.entry.id)).toEqual(exactTop(vectors, q, 40, (id) => kindOf.get(id) === 'reflection'));
  });

  it('keeps every vector through a compaction', () => {
    const small = new MemoryIndex(DIMS);
    const kept = new Map<string, Float32Array>();
    for (let i = 0; i < 1_000; i++) {
      const v = unit(rnd);
      small.upsert({ id: `s${i}`, kind: 'fact', text: `note ${i}`, importance: 0.5, occurredAt: at, updatedAt: at }, v);
      kept.set(`s${i}`, v);
    }
    // Three in four removed: the dead rows outnumber the living and are reclaimed.
    for (let i = 0; i < 1_000; i++) {
      if (i % 4 === 0) continue;
      small.remove(`s${i}`);
      kept.delete(`s${i}`);
    }
    expect(small.size).toBe(250);
    expect(small.idsWithoutVector()).toEqual([]);
    const q = unit(rnd);
    expect(small.search(q, 10).map((h) => h.entry.id)).toEqual(exactTop(kept, q, 10, () => true));
  });
});

describe('TimeOrder', () => {
  it('neighbours in time, ties in the order added, within the gap, after removals and late arrivals', () => {
    const order = new TimeOrder();
    order.insert(0, 1_000);
    order.insert(1, 2_000);
    order.insert(2, 2_000);
    order.insert(3, 9_000);
    expect(order.around(1, 2_000, 5_000)).toEqual({ before: 0, after: 2 });
    expect(order.around(2, 2_000, 5_000)).toEqual({ before: 1 });
    order.remove(1);
    order.insert(4, 1_500); // an older memory written later
    expect(order.around(2, 2_000, 5_000)).toEqual({ before: 4 });
    expect(order.around(0, 1_000, 5_000)).toEqual({ after: 4 });
    expect(order.around(3, 9_000, 10_000)).toEqual({ before: 2 });
    expect(order.around(1, 2_000, 5_000)).toEqual({});
  });
});

describe('keyword search after changes', () => {
  it('forgets removed and replaced texts, and their document frequency', () => {
    const index = new MemoryIndex(DIMS);
    const at = new Date(0);
    const add = (id: string, text: string) =>
      index.upsert({ id, kind: 'fact', text, importance: 0.5, occurredAt: at, updatedAt: at });
    add('a', 'User lives in Berlin');
    add('b', 'User likes Berlin techno');
    add('c', 'User has a cat');
    const berlinIdf = index.idf('berlin');
    add('b', 'User likes techno'); // replaced: no longer mentions Berlin
    expect(index.idf('berlin')).toBeGreaterThan(berlinIdf);
    expect(index.keywordSearch('berlin', 5).map((h) => h.entry.id)).toEqual(['a']);
    index.remove('a');
    expect(index.keywordSearch('berlin', 5)).toEqual([]);
    expect(index.idf('berlin')).toBe(0);
  });

  it('filters by when memories occurred', () => {
    const index = new MemoryIndex(DIMS);
    const add = (id: string, iso: string) =>
      index.upsert({
        id,
        kind: 'event',
        text: 'User went hiking',
        importance: 0.5,
        occurredAt: new Date(iso),
        updatedAt: new Date(iso),
      });
    add('march', '2023-03-10T00:00:00Z');
    add('may', '2023-05-10T00:00:00Z');
    const may = { from: new Date('2023-05-01T00:00:00Z'), to: new Date('2023-05-31T23:59:59Z') };
    expect(index.keywordSearch('hiking', 5, { occurred: may }).map((h) => h.entry.id)).toEqual(['may']);
  });
});
