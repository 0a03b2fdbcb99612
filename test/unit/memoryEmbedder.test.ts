import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { createEmbedder } from '../../src/memory/embedder.js';
import { OpenAiEmbedder } from '../../src/memory/openaiEmbedder.js';
import { dot, norm } from '../../src/memory/vectors.js';

const embedder = new HashedNgramEmbedder(256);
const v = (t: string): Float32Array => embedder.embedOne(t);
/** Memories ordered by similarity to the query, best first. */
const rank = (query: string, memories: string[]): string[] =>
  memories
    .map((m) => ({ m, s: dot(v(query), v(m)) }))
    .sort((a, b) => b.s - a.s)
    .map((x) => x.m);

describe('HashedNgramEmbedder', () => {
  it('is deterministic, unit length, and names its model and size', async () => {
    const [a, b] = await embedder.embed(['User lives in Berlin', 'User lives in Berlin']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(a!.length).toBe(256);
    expect(embedder.id).toBe('hashed-ngram-v1-256');
    expect(new HashedNgramEmbedder(64).id).toBe('hashed-ngram-v1-64');
  });

  it('ranks the same fact in other words above unrelated facts (English)', () => {
    const memories = [
      'User likes sushi',
      'User has a cat named Mochi',
      'User lives in Berlin',
      'User works as a nurse',
    ];
    expect(rank('Where do I live these days?', memories)[0]).toBe('User lives in Berlin');
    expect(rank('Where am I living?', memories)[0]).toBe('User lives in Berlin');
    expect(rank('what was the name of my cat', memories)[0]).toBe('User has a cat named Mochi');
    expect(dot(v('I live in Berlin now'), v('User lives in Berlin'))).toBeGreaterThan(
      dot(v('I live in Berlin now'), v('User likes sushi')) + 0.3,
    );
  });

  it('works for Chinese: shared characters and words, not spaces', () => {
    const memories = [
      '用户喜欢吃寿司',
      '用户在一家医院当护士',
      '用户养了一只猫，名叫团子',
      '用户住在上海',
      '用户下个月要去日本旅行',
    ];
    expect(rank('我养的猫叫什么名字', memories)[0]).toBe('用户养了一只猫，名叫团子');
    expect(rank('我喜欢吃什么', memories)[0]).toBe('用户喜欢吃寿司');
    expect(rank('我什么时候去日本', memories)[0]).toBe('用户下个月要去日本旅行');
    expect(rank('我住在哪里', memories)[0]).toBe('用户住在上海');
  });

  it('gives an empty or punctuation-only text a zero vector instead of failing', async () => {
    const [empty] = await embedder.embed(['？！…']);
    expect(norm(empty!)).toBe(0);
  });
});

describe('createEmbedder', () => {
  it('auto: offline without a key, OpenAI with one; explicit choices win', () => {
    expect(createEmbedder({ provider: 'auto', model: 'text-embedding-3-small', dims: 256 }).id).toBe(
      'hashed-ngram-v1-256',
    );
    expect(createEmbedder({ provider: 'auto', apiKey: '', model: 'text-embedding-3-small', dims: 256 }).id).toBe(
      'hashed-ngram-v1-256',
    );
    const openai = createEmbedder({ provider: 'auto', apiKey: 'sk-test', model: 'text-embedding-3-small', dims: 512 });
    expect(openai).toBeInstanceOf(OpenAiEmbedder);
    expect(openai.id).toBe('openai:text-embedding-3-small:512');
    expect(createEmbedder({ provider: 'offline', apiKey: 'sk-test', model: 'x', dims: 128 }).id).toBe(
      'hashed-ngram-v1-128',
    );
  });

  it('auto: the deployment’s client alone (no key, no embeddings endpoint) is not a reason to call an API', () => {
    const client = new OpenAI({ apiKey: 'no-key', baseURL: 'http://127.0.0.1:9/v1' });
    expect(createEmbedder({ provider: 'auto', openai: client, model: 'm', dims: 64 }).id).toBe('hashed-ngram-v1-64');
  });

  it('auto: an embeddings endpoint of its own is used without a key (Ollama, vLLM, TEI)', () => {
    const e = createEmbedder({
      provider: 'auto',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      dims: 64,
    });
    expect(e).toBeInstanceOf(OpenAiEmbedder);
    expect(e.id).toBe('openai:nomic-embed-text:64');
  });
});
