// Embeddings from the OpenAI API (the real `openai` client). Responses are validated: one
// non-empty vector of the configured size per input, else EMBEDDING_FAILED — an empty answer
// must never be mistaken for "no memories".
import type OpenAI from 'openai';
import { z } from 'zod';
import { GatewayError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { normalizeInPlace } from './vectors.js';

/** The API accepts up to 2048 inputs; smaller batches keep each request quick. */
export const OPENAI_EMBED_BATCH = 256;

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()).min(1) })),
});

// Only text-embedding-3 models accept `dimensions`; older ones have a fixed size.
const acceptsDimensions = (model: string): boolean => !/ada-002/.test(model);

export class OpenAiEmbedder implements Embedder {
  readonly id: string;

  constructor(
    private readonly client: OpenAI,
    readonly model: string,
    readonly dims: number,
  ) {
    this.id = `openai:${model}:${dims}`;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += OPENAI_EMBED_BATCH) {
      out.push(...(await this.batch(texts.slice(i, i + OPENAI_EMBED_BATCH), signal)));
    }
    return out;
  }

  private async batch(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    // The API rejects empty strings; a blank text still needs a (meaningless) vector slot.
    const safe = input.map((t) => (t.trim() === '' ? ' ' : t));
    let raw: unknown;
    try {
      raw = await this.client.embeddings.create(
        { model: this.model, input: safe, ...(acceptsDimensions(this.model) ? { dimensions: this.dims } : {}) },
        { signal },
      );
    } catch (err) {
      throw new GatewayError(
        'EMBEDDING_FAILED',
        `embeddings request failed: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    const parsed = responseSchema.safeParse(raw);
    if (!parsed.success)
      throw new GatewayError(
        'EMBEDDING_FAILED',
        `embeddings response invalid: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    const data = parsed.data.data;
    if (data.length !== input.length) {
      throw new GatewayError(
        'EMBEDDING_FAILED',
        `embeddings response has ${data.length} vectors for ${input.length} inputs`,
      );
    }
    const vectors: Float32Array[] = new Array<Float32Array>(input.length);
    for (const d of data) {
      if (d.index >= input.length || vectors[d.index])
        throw new GatewayError('EMBEDDING_FAILED', `embeddings response has a bad index ${d.index}`);
      if (d.embedding.length !== this.dims) {
        throw new GatewayError(
          'EMBEDDING_FAILED',
          `embedding has ${d.embedding.length} dimensions, expected ${this.dims}`,
        );
      }
      vectors[d.index] = normalizeInPlace(Float32Array.from(d.embedding));
    }
    return vectors;
  }
}
