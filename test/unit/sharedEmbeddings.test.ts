import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/memory/embedder.js';
import { SharedEmbeddings } from '../../src/memory/sharedEmbeddings.js';

/** An embeddings API double: counts calls, each text's vector is its length. */
function counting(o: { failFirst?: boolean } = {}) {
  const calls: string[][] = [];
  const api: Embedder = {
    id: 'fake-1',
    dims: 1,
    embed(texts) {
      calls.push(texts);
      if (o.failFirst && calls.length === 1) return Promise.reject(new Error('503'));
      return Promise.resolve(texts.map((t) => Float32Array.of(t.length)));
    },
  };
  return { api, calls };
}

describe('shared query embeddings', () => {
  it('answers a second retriever from the first one’s call, even while it is in flight', async () => {
    const { api, calls } = counting();
    const shared = new SharedEmbeddings(api);
    const [recall, knowledge] = await Promise.all([
      shared.embed(['where is my cat', 'cat', 'last time cat']),
      shared.embed(['where is my cat', 'cat']),
    ]);
    expect(calls).toEqual([['where is my cat', 'cat', 'last time cat']]);
    expect(knowledge.map((v) => v[0])).toEqual([15, 3]);
    expect(recall.map((v) => v[0])).toEqual([15, 3, 13]);
    await shared.embed(['cat', 'dog']);
    expect(calls.at(-1)).toEqual(['dog']);
  });

  it('forgets a failed call, so the next caller tries again', async () => {
    const { api, calls } = counting({ failFirst: true });
    const shared = new SharedEmbeddings(api);
    await expect(shared.embed(['a'])).rejects.toThrow('503');
    expect((await shared.embed(['a']))[0]![0]).toBe(1);
    expect(calls).toHaveLength(2);
  });

  it('keeps texts a few seconds and a bounded number of them', async () => {
    let now = 0;
    const { api, calls } = counting();
    const shared = new SharedEmbeddings(api, { maxTexts: 2, maxAgeMs: 1_000, now: () => now });
    await shared.embed(['a', 'b']);
    now = 1_500;
    await shared.embed(['a']);
    await shared.embed(['c']);
    await shared.embed(['b']); // pushed out by a and c
    expect(calls).toEqual([['a', 'b'], ['a'], ['c'], ['b']]);
    expect(shared.id).toBe('fake-1');
  });
});
