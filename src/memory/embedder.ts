// The Embedder port: texts → unit-length vectors. Which implementation runs is a configuration
// choice (SPEC §5): the OpenAI embeddings API when a key is configured, else the offline
// hashed n-gram embedder, which needs no network and also handles Chinese.
import OpenAI from 'openai';
import { HashedNgramEmbedder } from './hashedNgramEmbedder.js';
import { OpenAiEmbedder } from './openaiEmbedder.js';

export interface Embedder {
  /** Model and dimensions; a stored vector with another id is recomputed. */
  readonly id: string;
  readonly dims: number;
  /** One unit-length vector per text, in order. Fails with GatewayError('EMBEDDING_FAILED'). */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface EmbedderOptions {
  provider: 'auto' | 'openai' | 'offline';
  apiKey?: string;
  /** A configured client (base URL, retries); built from apiKey when absent. */
  openai?: OpenAI;
  model: string;
  dims: number;
}

export function createEmbedder(o: EmbedderOptions): Embedder {
  const useOpenAi =
    o.provider === 'openai' ||
    (o.provider === 'auto' && ((o.apiKey !== undefined && o.apiKey !== '') || o.openai !== undefined));
  if (!useOpenAi) return new HashedNgramEmbedder(o.dims);
  const client = o.openai ?? new OpenAI({ apiKey: o.apiKey });
  return new OpenAiEmbedder(client, o.model, o.dims);
}
