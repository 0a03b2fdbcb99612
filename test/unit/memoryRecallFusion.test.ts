import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/domain/model.js';
import type { Embedder } from '../../src/memory/embedder.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../../src/memory/indexCache.js';
import { MemoryRecall } from '../../src/memory/recall.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';
import { LocalMemoryVersions } from '../../src/memory/versions.js';

const log = pino({ level: 'silent' });
const now = new Date('2024-06-01T12:00:00Z');
const OWNER = 'agt_fusion';

/** A stand-in for an embeddings API: one dimension per topic, so "feline" lands on "cat". */
class TopicEmbedder implements Embedder {
  readonly id = 'topics-4';
  readonly dims = 4;
  calls = 0;
  private readonly topics = [/cat|feline|kitten/i, /berlin|germany|city/i, /sushi|food|eat/i, /guitar|music/i];
  embed(texts: string[]): Promise<Float32Array[]> {
    this.calls++;
    return Promise.resolve(
      texts.map((t) => {
        const v = Float32Array.from(this.topics, (re) => (re.test(t) ? 1 : 0));
        const n = Math.hypot(...v) || 1;
        return v.map((x) => x / n);
      }),
    );
  }
}

async function recallOver(texts: string[], embedder: Embedder): Promise<MemoryRecall> {
  const vectors = await embedder.embed(texts);
  const entries = texts.map((text, i): MemoryEntry => ({
    _id: `m${i}`,
    ownerId: OWNER,
    kind: 'fact',
    text,
    dedupeKey: `m${i}`,
    embedding: toMemoryEmbedding(embedder.id, vectors[i]!),
    importance: 0.5,
    sources: {},
    occurredAt: new Date(now.getTime() - (i + 1) * 86_400_000),
    status: 'active',
    recall: { count: 0 },
    createdAt: now,
    updatedAt: now,
  }));
  const memories = {
    list: () => Promise.resolve(entries),
    setEmbedding: () => Promise.resolve(),
    getMany: () => Promise.resolve([]),
  };
  const cache = new IndexCache({ store: { memories }, embedder, versions: new LocalMemoryVersions(), log });
  return new MemoryRecall({ store: { memories: { noteRecalled: () => Promise.resolve() } }, embedder, cache, log });
}

const TEXTS = ['User has a cat named Mochi', 'User lives in Berlin', 'User loves sushi', 'User plays the guitar'];
const ask = (recall: MemoryRecall, message: string) =>
  recall.recall({ ownerId: OWNER, message, topK: 3, now, countRecall: false });

describe('recall fusion', () => {
  it('the offline embedder: keywords alone, its vectors neither asked for nor fused', async () => {
    const offline = new HashedNgramEmbedder(64);
    let calls = 0;
    const counting: Embedder = {
      id: offline.id,
      dims: offline.dims,
      lexical: true,
      embed: (texts) => (calls++, offline.embed(texts)),
    };
    const recall = await recallOver(TEXTS, counting);
    calls = 0;
    const r = await ask(recall, 'Where do I live these days? Berlin?');
    expect(r.memories.map((m) => m.text)).toEqual(['User lives in Berlin']);
    expect(r.degraded).toBeUndefined();
    expect(calls).toBe(0);
  });

  it('an embedder that understands meaning: what only the vectors find is recalled too', async () => {
    const embedder = new TopicEmbedder();
    const recall = await recallOver(TEXTS, embedder);
    // "feline" shares no keyword with any memory; the topic vectors find the cat.
    const r = await ask(recall, 'Tell me about my feline friend');
    expect(r.memories[0]?.text).toBe('User has a cat named Mochi');
    // Both retrievers agree on Berlin: it comes first, and sushi (vectors: "food") follows.
    const both = await ask(recall, 'Which city do I live in, and what food do I like?');
    expect(both.memories.map((m) => m.text).slice(0, 2)).toEqual(
      expect.arrayContaining(['User lives in Berlin', 'User loves sushi']),
    );
  });

  it('embeddings down: keyword-only, and said so', async () => {
    const embedder = new TopicEmbedder();
    const recall = await recallOver(TEXTS, embedder);
    embedder.embed = () => Promise.reject(new Error('down'));
    const r = await ask(recall, 'Do I play the guitar?');
    expect(r.degraded).toBe('keyword_only');
    expect(r.memories[0]?.text).toBe('User plays the guitar');
  });
});
