// The deployment's embedder (SPEC §5, §14): an OpenAI-compatible embeddings API when one is
// configured (EMBEDDING_BASE_URL, EMBEDDING_MODEL, EMBEDDING_API_KEY; else the chat server and
// key), with its calls marked for health and, should the server have no embeddings endpoint
// for the model, the offline embedder in its place for the rest of the process (a warning on
// the health page, never an error per turn); otherwise the offline embedder from the start.
import type OpenAI from 'openai';
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import { openAiShapedErrors } from '../src/llm/errorBodies.js';
import { createEmbedder, type Embedder } from '../src/memory/embedder.js';
import { FallbackEmbedder } from '../src/memory/fallbackEmbedder.js';
import { HashedNgramEmbedder } from '../src/memory/hashedNgramEmbedder.js';
import { SharedEmbeddings } from '../src/memory/sharedEmbeddings.js';
import { markedEmbedder, type HealthMarks } from './healthMarks.js';
import { ProviderMarks } from './providerMarks.js';
import type { Redis } from 'ioredis';

export function buildEmbedder(
  env: Env,
  o: { openai: OpenAI; marks: HealthMarks; redis: Redis; log: Logger },
): Embedder {
  const apiKey = env.EMBEDDING_API_KEY ?? env.OPENAI_API_KEY;
  // A key of its own, or the chat key, goes with a client of the embeddings' own (its errors read alike).
  const baseUrl = env.EMBEDDING_BASE_URL ?? (apiKey ? env.OPENAI_BASE_URL : undefined);
  const remote = createEmbedder({
    provider: env.EMBEDDINGS,
    ...(apiKey ? { apiKey } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    openai: o.openai,
    fetch: openAiShapedErrors(),
    model: env.EMBEDDING_MODEL,
    dims: env.EMBEDDING_DIMS,
  });
  if (remote.lexical) return remote;
  const providerMarks = new ProviderMarks(o.redis, env.QUEUE_PREFIX, o.log);
  let logged = false;
  const fallback = new FallbackEmbedder(
    markedEmbedder(remote, o.marks),
    new HashedNgramEmbedder(env.EMBEDDING_DIMS),
    // Reported again every few minutes (the health mark expires); logged once.
    (f) => {
      providerMarks.embeddingsFellBack(f);
      if (logged) return;
      logged = true;
      o.log.warn(
        { from: f.from, to: f.to, reason: f.reason },
        'no embeddings endpoint for this model: memories and knowledge use the offline embedder',
      );
    },
  );
  // An embeddings API is called once per turn for recall and knowledge together.
  return new SharedEmbeddings(fallback);
}
