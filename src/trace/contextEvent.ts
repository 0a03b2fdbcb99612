// The `context_built` event's data (SPEC §6, seed 000): the full prompt, every part's size in
// tokens, hashes, recall queries, retrieved passages. Shaped beside the trace that records it,
// from plain data the reply hands in, so the trace imports nothing of the context or the reply.

/** What a built context (src/context's GatheredContext) tells the trace; passed through as is. */
export interface BuiltContextFacts {
  built: {
    messages: unknown;
    parts: unknown;
    totalTokens: number;
    middleTokens: number;
    hash: string;
    prefixHash: string;
  };
  mode: string;
  historyFrom: string;
  config: { version: number };
  recall?: {
    queries: string[];
    deep: boolean;
    degraded?: string;
    memories: ReadonlyArray<{ id: string; score: number }>;
    timings: unknown;
  };
  fallback?: { beat: number; sources: object };
  knowledge?: {
    queries: string[];
    degraded?: string;
    sources: ReadonlyArray<{ n: number; chunkId: string; documentId: string; documentName: string; score: number }>;
    timings: unknown;
  };
  gatherMs: number;
  tone?: { state: { template: string; scores: unknown } };
}

/** How the reply runs on that context: its model (the agent's own, else the deployment's) and tools offered. */
export interface ContextRun {
  model: string;
  tools: string[];
}

/** Event `context_built`: the full prompt, every part's size in tokens, hashes, recall queries, retrieved passages. */
export function contextBuiltData(
  g: BuiltContextFacts,
  run: ContextRun,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    prompt: g.built.messages,
    parts: g.built.parts,
    totalTokens: g.built.totalTokens,
    middleTokens: g.built.middleTokens,
    hash: g.built.hash,
    prefixHash: g.built.prefixHash,
    mode: g.mode,
    historyFrom: g.historyFrom,
    configVersion: g.config.version,
    recall: g.recall
      ? {
          queries: g.recall.queries,
          deep: g.recall.deep,
          degraded: g.recall.degraded ?? null,
          memoryIds: g.recall.memories.map((m) => m.id),
          // The fused score of each, in the same order (the console shows why each was recalled).
          scores: g.recall.memories.map((m) => m.score),
          timings: g.recall.timings,
        }
      : null,
    // Seed 001's fallback: which beat it reminded of, and where the quoted lines came from.
    directorFallback: g.fallback ? { beat: g.fallback.beat, ...g.fallback.sources } : null,
    // The passages the prompt numbered, with their relevance (what a reply may cite).
    knowledge: g.knowledge
      ? {
          queries: g.knowledge.queries,
          degraded: g.knowledge.degraded ?? null,
          chunks: g.knowledge.sources.map((k) => ({
            n: k.n,
            chunkId: k.chunkId,
            documentId: k.documentId,
            documentName: k.documentName,
            score: k.score,
          })),
          timings: g.knowledge.timings,
        }
      : null,
    gatherMs: Math.round(g.gatherMs * 10) / 10,
    tone: g.tone ? { template: g.tone.state.template, scores: g.tone.state.scores } : null,
    // The model this reply is generated with (the agent's own, else the deployment's).
    model: run.model,
    tools: run.tools,
    ...extra,
  };
}
