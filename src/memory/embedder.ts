// The Embedder port: texts → unit-length vectors. Which implementation runs is a configuration
// choice (SPEC §5): an OpenAI-compatible embeddings API when a key or an embeddings endpoint is
// configured, else the offline hashed n-gram embedder, which needs no network and also handles Chinese.
import OpenAI from 'openai';
import { HashedNgramEmbedder } from './hashedNgramEmbedder.js';
import { OpenAiEmbedder } from './openaiEmbedder.js';

export interface Embedder {
  /** Model and dimensions; a stored vector with another id is recomputed. */
  readonly id: string;
  readonly dims: number;
  /**
   * Its vectors only restate which words and characters two texts share (the offline hashed
   * embedder). Recall then leaves them out of the fusion: keyword search finds the same memories
   * better (LoCoMo dev, bench/locomo.ts: fusing them lowered hit@5 by 1–8 points). They still
   * serve similarity on the write path (duplicates, consolidation).
   */
  readonly lexical?: boolean;
  /** One unit-length vector per text, in order. Fails with GatewayError('EMBEDDING_FAILED'). */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface EmbedderOptions {
  provider: 'auto' | 'openai' | 'offline';
  apiKey?: string;
  /** An OpenAI-compatible embeddings server of its own (Ollama, vLLM, TEI), apart from the chat endpoint. */
  baseUrl?: string;
  /** The deployment's configured client (chat endpoint, retries), used when no `baseUrl` is given. */
  openai?: OpenAI;
  model: string;
  dims: number;
  /** The HTTP fetch of clients made here (openAiShapedErrors: servers' error bodies read as OpenAI's). */
  fetch?: typeof fetch;
}

/**
 * `auto` calls an embeddings API only when one is configured — a key, or an embeddings endpoint —
 * so a keyless deployment uses the offline embedder instead of failing (or waiting out the
 * recall timeout) on every recall.
 */
export function createEmbedder(o: EmbedderOptions): Embedder {
  const configured = (o.apiKey !== undefined && o.apiKey !== '') || o.baseUrl !== undefined;
  const useOpenAi = o.provider === 'openai' || (o.provider === 'auto' && configured);
  if (!useOpenAi) return new HashedNgramEmbedder(o.dims);
  const client = o.baseUrl
    ? // Local servers take any key; the client library insists on one.
      new OpenAI({ apiKey: o.apiKey || 'no-key', baseURL: o.baseUrl, ...(o.fetch ? { fetch: o.fetch } : {}) })
    : (o.openai ?? new OpenAI({ apiKey: o.apiKey }));
  return new OpenAiEmbedder(client, o.model, o.dims);
}
