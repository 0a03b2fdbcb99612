// Knowledge (seed 004 FR-004/005) as every role of a process shares it: one per-agent index cache
// (versions in Redis on a prefix apart from the memories'), the retrieval the worker's turns use,
// and the deps of adding and removing documents (GraphQL, the web channel's upload).
import type { Redis } from 'ioredis';
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import type { Store } from '../src/store/store.js';
import type { Embedder } from '../src/memory/embedder.js';
import { RedisMemoryVersions } from '../src/memory/versions.js';
import { KnowledgeCache } from '../src/knowledge/knowledgeCache.js';
import { KnowledgeRetrieval } from '../src/knowledge/retrieval.js';
import type { KnowledgeDeps } from '../src/knowledge/documents.js';

export interface Knowledge {
  cache: KnowledgeCache;
  retrieval: KnowledgeRetrieval;
  /** What addDocument / removeDocument (src/knowledge/documents.ts) take. */
  deps: KnowledgeDeps;
}

export function buildKnowledge(o: {
  env: Env;
  redis: Redis;
  store: Store;
  embedder: Embedder;
  log: Logger;
}): Knowledge {
  const { env, store, embedder, log } = o;
  const cache = new KnowledgeCache({
    store,
    embedder,
    versions: new RedisMemoryVersions(o.redis, `${env.QUEUE_PREFIX}:knowledge:`),
    log,
  });
  const retrieval = new KnowledgeRetrieval({
    cache,
    embedder,
    log,
    embedTimeoutMs: env.RECALL_EMBED_TIMEOUT_MS,
    minSimilarity: env.KNOWLEDGE_MIN_SIMILARITY,
  });
  return {
    cache,
    retrieval,
    deps: {
      store,
      embedder,
      cache,
      log,
      limits: { maxBytes: env.KNOWLEDGE_MAX_BYTES, maxChunks: env.KNOWLEDGE_MAX_CHUNKS },
    },
  };
}
