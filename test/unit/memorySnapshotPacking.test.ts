// The packed form of memory index snapshots (src/memory/snapshotPacking.ts) and the index rebuilt
// from it (src/memory/indexSnapshot.ts): a round trip keeps every field, token and vector; a
// damaged, truncated or older part is refused; an index rebuilt from parts searches exactly like
// one built entry by entry.
import { describe, expect, it } from 'vitest';
import type { IndexEntry } from '../../src/memory/memoryIndex.js';
import { MemoryIndex } from '../../src/memory/memoryIndex.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { capture, indexFromParts, packCaptured } from '../../src/memory/indexSnapshot.js';
import {
  compressPart,
  decompressPart,
  packPart,
  SnapshotFormatError,
  splitIntoParts,
  unpackPart,
  type PackEntry,
} from '../../src/memory/snapshotPacking.js';
import { keywordTokens } from '../../src/memory/textFeatures.js';

const DIMS = 8;
const at = (d: number) => new Date(Date.UTC(2025, 0, d));

function entry(i: number, over: Partial<IndexEntry> = {}): IndexEntry {
  return {
    id: `mem_${i}`,
    kind: 'fact',
    text: `User has a cat named Mochi number ${i}`,
    importance: 0.25 + i / 100,
    occurredAt: at(i + 1),
    updatedAt: at(i + 2),
    ...over,
  };
}

const dense = (seed: number) => Float32Array.from({ length: DIMS }, (_, j) => Math.sin(seed + j));
const sparse = (seed: number) => Float32Array.from({ length: DIMS }, (_, j) => (j === seed % DIMS ? 1 : 0));

const packEntries = (): PackEntry[] => [
  { entry: entry(1), tokens: keywordTokens(entry(1).text), naming: false, vector: dense(1) },
  {
    entry: entry(2, {
      kind: 'event',
      text: '用户去年夏天和姐姐去了成都旅行 ✈️',
      origin: { dialogueId: 'dlg_g', scope: 'group' },
      visibility: 'shared',
    }),
    tokens: keywordTokens('用户去年夏天和姐姐去了成都旅行 ✈️'),
    naming: false,
    vector: sparse(2),
  },
  {
    entry: entry(3, { text: 'Call me Bea', origin: { dialogueId: 'dlg_p', scope: 'private' }, visibility: 'origin' }),
    tokens: keywordTokens('Call me Bea'),
    naming: true,
  },
];

describe('snapshot packing', () => {
  it('round-trips entries, origins, visibility, tokens and vectors', async () => {
    const input = packEntries();
    const stored = await compressPart(packPart(input, DIMS));
    const part = unpackPart(await decompressPart(stored), DIMS);
    expect(part.entries).toEqual(input.map((e) => e.entry));
    expect([...part.naming]).toEqual([0, 0, 1]);
    expect([...part.hasVector]).toEqual([1, 1, 0]);
    input.forEach((e, i) => {
      const got = new Map<string, number>();
      for (let j = part.termStart[i]!; j < part.termStart[i + 1]!; j++)
        got.set(part.terms[part.termIds[j]!]!, part.termTfs[j]!);
      const want = new Map<string, number>();
      for (const t of e.tokens) want.set(t, (want.get(t) ?? 0) + 1);
      expect(got).toEqual(want);
      expect(part.docLen[i]).toBe(e.tokens.length);
    });
    // The dense vector is stored whole, the sparse one as its single non-zero component.
    expect([...part.vectors.counts]).toEqual([DIMS, 1]);
    expect([...part.vectors.values.subarray(0, DIMS)]).toEqual([...dense(1)]);
    expect([...part.vectors.positions]).toEqual([2]);
    expect(part.vectors.values[DIMS]).toBe(1);
  });

  it('refuses a damaged part, a truncated one and anything that is not a part', async () => {
    const packed = packPart(packEntries(), DIMS);
    const stored = await compressPart(packed);
    const flipped = Uint8Array.from(stored);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    await expect(decompressPart(flipped)).rejects.toBeInstanceOf(SnapshotFormatError);
    await expect(decompressPart(stored.subarray(0, stored.length - 3))).rejects.toBeInstanceOf(SnapshotFormatError);
    for (const cut of [10, packed.length >> 1, packed.length - 1])
      expect(() => unpackPart(packed.subarray(0, cut), DIMS)).toThrow(SnapshotFormatError);
    expect(() => unpackPart(new TextEncoder().encode('not a snapshot at all'), DIMS)).toThrow(SnapshotFormatError);
    const extra = new Uint8Array(packed.length + 4);
    extra.set(packed);
    expect(() => unpackPart(extra, DIMS)).toThrow(SnapshotFormatError);
  });

  it('refuses a part of another format or vector size', () => {
    const packed = packPart(packEntries(), DIMS);
    const older = Uint8Array.from(packed);
    new DataView(older.buffer).setUint16(4, 0, true); // the format field
    expect(() => unpackPart(older, DIMS)).toThrow(/format 0/);
    expect(() => unpackPart(packed, DIMS * 2)).toThrow(SnapshotFormatError);
  });

  it('refuses an origin of another shape and a code out of range', () => {
    const bad = packEntries();
    bad[1]!.entry.origin = { dialogueId: '', scope: 'group' };
    expect(() => unpackPart(packPart(bad, DIMS), DIMS)).toThrow(/origin/);
  });

  it('splits entries into parts under the size limit, in order', () => {
    const many: PackEntry[] = Array.from({ length: 50 }, (_, i) => ({
      entry: entry(i),
      tokens: keywordTokens(entry(i).text),
      naming: false,
      vector: dense(i),
    }));
    const parts = splitIntoParts(many, DIMS, 2_000);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.flat().map((e) => e.entry.id)).toEqual(many.map((e) => e.entry.id));
    for (const p of parts) expect(packPart(p, DIMS).length).toBeLessThanOrEqual(2_000);
  });
});

describe('an index rebuilt from its snapshot', () => {
  it('is refused when a part is missing', async () => {
    const index = new MemoryIndex(8);
    index.upsert(entry(1), dense(1));
    const parts = await packCaptured(capture(index));
    expect(
      await indexFromParts(8, 1, [...parts.map((p) => Promise.resolve([p])), Promise.resolve(undefined)]),
    ).toBeUndefined();
  });

  const texts = [
    'User lives in Berlin with their sister',
    'User has a dog named Biscuit',
    '用户最喜欢吃火锅，不喜欢香菜',
    'Please call me Dee from now on',
    'User is learning the guitar on weekends',
    '用户在市医院当护士',
  ];

  it('searches exactly like the index it was taken from', async () => {
    const embedder = new HashedNgramEmbedder(64);
    const vectors = await embedder.embed(texts);
    const original = new MemoryIndex(64);
    texts.forEach((text, i) =>
      original.upsert(
        entry(i, { text, ...(i % 2 ? { origin: { dialogueId: 'dlg_g', scope: 'group' as const } } : {}) }),
        i === 4 ? undefined : vectors[i],
      ),
    );
    original.remove('mem_1'); // a dead row is not kept
    const parts = await packCaptured(capture(original));
    const rebuilt = (await indexFromParts(
      64,
      original.size,
      parts.map((p) => Promise.resolve([p])),
    ))!;
    expect(rebuilt.size).toBe(original.size);
    expect(rebuilt.has('mem_1')).toBe(false);
    expect(rebuilt.idsWithoutVector()).toEqual(['mem_4']);
    const [q] = await embedder.embed(['who is my sister in Berlin']);
    const ids = (hits: Array<{ entry: IndexEntry; score: number }>) => hits.map((h) => [h.entry.id, h.score]);
    expect(ids(rebuilt.search(q!, 5))).toEqual(ids(original.search(q!, 5)));
    for (const query of ['sister Berlin', '火锅', 'guitar weekends'])
      expect(ids(rebuilt.keywordSearch(query, 5))).toEqual(ids(original.keywordSearch(query, 5)));
    const place = { dialogueId: 'dlg_g', private: false };
    expect(ids(rebuilt.keywordSearch('user', 10, { place }))).toEqual(
      ids(original.keywordSearch('user', 10, { place })),
    );
    expect(rebuilt.namingEntries().map((e) => e.id)).toEqual(['mem_3']);
  });
});
