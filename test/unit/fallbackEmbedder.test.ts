// The embeddings fallback (SPEC §14) through the real `openai` client: a server with no
// embeddings for the model (Ollama's 404 for `text-embedding-3-small`, vLLM's FastAPI 404)
// switches the process to the offline embedder once — its id changes, so stored vectors are
// recomputed — while a passing failure (a 503) stays an error and the API is used again after.
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiShapedErrors } from '../../src/llm/errorBodies.js';
import { FallbackEmbedder, type EmbedderFallback } from '../../src/memory/fallbackEmbedder.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { OpenAiEmbedder } from '../../src/memory/openaiEmbedder.js';
import { startQuirkyProvider, type ProviderKind, type QuirkyProvider } from '../doubles/fakeProviders.js';

let server: QuirkyProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function embedderAt(kind: ProviderKind, o: { embeddingModels?: string[] } = {}) {
  server = await startQuirkyProvider(kind, o);
  const client = new OpenAI({ apiKey: 'no-key', baseURL: server.baseURL, maxRetries: 0, fetch: openAiShapedErrors() });
  const reports: EmbedderFallback[] = [];
  const offline = new HashedNgramEmbedder(64);
  const embedder = new FallbackEmbedder(new OpenAiEmbedder(client, 'text-embedding-3-small', 64), offline, (f) =>
    reports.push(f),
  );
  const embeddingCalls = () => server!.calls.filter((c) => c.path === '/v1/embeddings');
  return { embedder, offline, reports, embeddingCalls };
}

describe('FallbackEmbedder', () => {
  it.each(['ollama', 'vllm'] as const)(
    '%s without the embeddings model: one 404, then the offline embedder for good',
    async (kind) => {
      const { embedder, offline, reports, embeddingCalls } = await embedderAt(kind);
      expect(embedder.id).toBe('openai:text-embedding-3-small:64');
      expect(embedder.lexical).toBeUndefined();
      // Three callers at once (recall, extraction, knowledge): the server is asked once.
      const texts = ['She lives in Porto', 'She has two cats', 'Where does she live?'];
      const vectors = await Promise.all(texts.map((t) => embedder.embed([t])));
      // The vectors are the offline embedder's, and the id says so (stored vectors get recomputed).
      vectors.forEach(([v], i) => expect(Array.from(v!)).toEqual(Array.from(offline.embedOne(texts[i]!))));
      expect(embedder.id).toBe(offline.id);
      expect(embedder.lexical).toBe(true);
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({ from: 'openai:text-embedding-3-small:64', to: offline.id });
      expect(reports[0]!.reason).toContain('404');
      await embedder.embed(['another text']);
      // Asked once (the 404), for the three callers and the later one.
      expect(embeddingCalls().map((c) => c.status)).toEqual([404]);
    },
  );

  it('a passing failure (503) is an error and switches nothing; the API answers the next call', async () => {
    const { embedder, reports, embeddingCalls } = await embedderAt('lmstudio');
    server!.inner.enqueueEmbeddings({ kind: 'error', status: 503, message: 'Service Unavailable' });
    await expect(embedder.embed(['x'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    expect(embedder.id).toBe('openai:text-embedding-3-small:64');
    const [v] = await embedder.embed(['She lives in Porto']);
    expect(v).toHaveLength(64);
    expect(embedder.id).toBe('openai:text-embedding-3-small:64');
    expect(reports).toHaveLength(0);
    expect(embeddingCalls().map((c) => c.status)).toEqual([503, 200]);
  });

  it('Ollama with the embeddings model pulled: the API is used, nothing switches', async () => {
    const { embedder, reports, embeddingCalls } = await embedderAt('ollama', {
      embeddingModels: ['text-embedding-3-small'],
    });
    await embedder.embed(['She lives in Porto']);
    expect(embedder.id).toBe('openai:text-embedding-3-small:64');
    expect(reports).toHaveLength(0);
    expect(embeddingCalls().map((c) => c.status)).toEqual([200]);
  });
});
