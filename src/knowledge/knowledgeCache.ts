// Per-process LRU of agents' knowledge indexes, kept fresh by a version per agent in Redis (the
// memory versions, src/memory/versions.ts, on a prefix of their own). Each use costs one Redis
// GET; knowledge changes are rare, so a moved version reloads the agent whole. An agent that
// never had a document is known from its mark (one read by `_id`, then cached with its version):
// its turns read nothing else. Chunks without a usable stored vector (written by another
// embedder) are embedded in the background and written back; meanwhile keywords find them.
import type { Logger } from 'pino';
import type { Embedder } from '../memory/embedder.js';
import type { MemoryVersions } from '../memory/versions.js';
import { fromMemoryEmbedding, toMemoryEmbedding } from '../memory/vectors.js';
import { touchLru } from '../memory/lru.js';
import type { KnowledgeRepo } from '../store/knowledge.js';
import type { KnowledgeChunk } from '../domain/knowledge.js';
import { chunkSearchText, KnowledgeIndex, type IndexedChunk } from './knowledgeIndex.js';

export interface KnowledgeCacheDeps {
  store: { knowledge: Pick<KnowledgeRepo, 'mayHaveDocuments' | 'loadAgent' | 'setChunkEmbedding'> };
  embedder: Embedder;
  /** Versions per agent (scope `{ ownerId: agentId }`), on a prefix apart from the memories'. */
  versions: Pick<MemoryVersions, 'get' | 'bump'>;
  log: Logger;
  /** Agents kept in memory. */
  maxAgents?: number;
  embedBatch?: number;
  embedTimeoutMs?: number;
}

interface Cached {
  index: KnowledgeIndex;
  /** Unknown when Redis could not be read: such an entry is reloaded on the next use. */
  version: string | undefined;
  /** The embedder whose vectors it holds: another one's (the embeddings fell back) means a reload. */
  embedderId: string;
}

const scope = (agentId: string) => ({ ownerId: agentId });

export class KnowledgeCache {
  private readonly lru = new Map<string, Cached>();
  private readonly loading = new Map<string, Promise<Cached>>();
  private readonly maxAgents: number;

  constructor(private readonly d: KnowledgeCacheDeps) {
    this.maxAgents = Math.max(1, d.maxAgents ?? 200);
  }

  get embedder(): Embedder {
    return this.d.embedder;
  }

  /** The agent's index, up to date with every process's writes (concurrent calls share one load). */
  async get(agentId: string, o: { justChecked?: boolean } = {}): Promise<KnowledgeIndex> {
    // `justChecked`: the caller's own prepare read the version moments ago (PreparedChecks).
    const held = o.justChecked ? this.current(agentId) : undefined;
    if (held) {
      this.touch(agentId, held);
      return held.index;
    }
    const version = await this.d.versions.get(scope(agentId)).catch((err: unknown) => {
      this.d.log.warn({ err, agentId }, 'knowledge version unreadable; reloading from the store');
      return undefined;
    });
    const cached = this.current(agentId);
    if (cached && version !== undefined && cached.version === version) {
      this.touch(agentId, cached);
      return cached.index;
    }
    let load = this.loading.get(agentId);
    if (!load) {
      load = this.load(agentId, version).finally(() => this.loading.delete(agentId));
      this.loading.set(agentId, load);
    }
    const loaded = await load;
    this.touch(agentId, loaded);
    return loaded.index;
  }

  /** After a write of the agent's documents: every process (this one at once) reloads it. */
  async noteChanged(agentId: string): Promise<void> {
    await this.d.versions.bump(scope(agentId));
    this.lru.delete(agentId);
  }

  /** The agent's index as held, unless its vectors are another embedder's (then it is loaded again). */
  private current(agentId: string): Cached | undefined {
    const c = this.lru.get(agentId);
    return c && c.embedderId === this.d.embedder.id ? c : undefined;
  }

  private async load(agentId: string, version: string | undefined): Promise<Cached> {
    const { embedder } = this.d;
    const embedderId = embedder.id;
    if (!(await this.d.store.knowledge.mayHaveDocuments(agentId)))
      return { index: new KnowledgeIndex(embedder.dims, 1), version, embedderId };
    const { documents, chunks } = await this.d.store.knowledge.loadAgent(agentId);
    const byId = new Map(documents.map((d) => [d._id, d]));
    const index = new KnowledgeIndex(embedder.dims, chunks.length + 1);
    const missing: IndexedChunk[] = [];
    for (const c of chunks) {
      const doc = byId.get(c.documentId);
      if (!doc) continue;
      const chunk = indexedChunk(c, doc.name, doc.createdAt);
      const vector = c.embedding?.model === embedder.id ? fromMemoryEmbedding(c.embedding) : undefined;
      index.add(chunk, vector);
      if (!index.hasVectorFor(chunk.id)) missing.push(chunk);
    }
    if (missing.length > 0) void this.embedMissing(index, missing);
    return { index, version, embedderId };
  }

  /** Vectors for chunks stored without one this embedder made; failures leave them keyword-only. */
  private async embedMissing(index: KnowledgeIndex, chunks: IndexedChunk[]): Promise<void> {
    const { embedder } = this.d;
    const batch = Math.max(1, this.d.embedBatch ?? 64);
    for (let i = 0; i < chunks.length; i += batch) {
      const part = chunks.slice(i, i + batch);
      try {
        const vectors = await embedder.embed(
          part.map((c) => chunkSearchText(c)),
          AbortSignal.timeout(this.d.embedTimeoutMs ?? 30_000),
        );
        await Promise.all(
          part.map(async (c, j) => {
            const v = vectors[j];
            if (!v || v.length !== index.dims) return;
            index.setVector(c.id, v);
            await this.d.store.knowledge.setChunkEmbedding(c.id, toMemoryEmbedding(embedder.id, v));
          }),
        );
      } catch (err) {
        this.d.log.warn(
          { err, missing: chunks.length - i },
          'knowledge embeddings unavailable; those chunks are found by keywords only',
        );
        return;
      }
    }
  }

  private touch(agentId: string, c: Cached): void {
    touchLru(this.lru, agentId, c, this.maxAgents);
  }
}

export function indexedChunk(c: KnowledgeChunk, documentName: string, addedAt: Date): IndexedChunk {
  return {
    id: c._id,
    documentId: c.documentId,
    documentName,
    index: c.index,
    ...(c.heading ? { heading: c.heading } : {}),
    content: c.content,
    addedAt,
  };
}
