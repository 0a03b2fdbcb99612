// What every background memory task needs (extraction, summaries, consolidation): the store, the
// JSON-task model, the embedder and per-owner index cache, and the config read fresh per run.
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';
import type { LlmClient } from '../llm/types.js';
import type { GatewayConfig } from '../domain/config.js';
import type { Embedder } from './embedder.js';
import type { IndexCache } from './indexCache.js';

export interface MemoryTaskDeps {
  store: Store;
  llm: LlmClient;
  /** MEMORY_MODEL (default LLM_MODEL). */
  model: string;
  /** MEMORY_TASK_TIMEOUT_MS: one model call. */
  timeoutMs: number;
  embedder: Embedder;
  cache: IndexCache;
  log: Logger;
  config: () => Promise<GatewayConfig>;
}
