// Knowledge documents and their chunks (seed 004 FR-004). A document is written first (status
// `adding`), then its chunks, then it becomes `ready`; deleting removes the chunks first, then
// the document. So a chunk always has its document: a crash leaves at worst a document that is
// still `adding` (never retrieved, listed so an operator can delete it) or a document without
// chunks — never chunks nobody can find and delete. The agent's mark (by derived `_id`) is set
// before its first document, so an agent without documents is known with one point read.
import type { MemoryEmbedding } from '../domain/model.js';
import type { KnowledgeChunk, KnowledgeDocument } from '../domain/knowledge.js';
import { derivedId } from '../domain/ids.js';
import type { Collections } from './collections.js';

export const knowledgeMarkIdOf = (agentId: string) => derivedId('kmk', agentId);

/** Chunks per bulk write: a large document is not one oversized command. */
const WRITE_BATCH = 500;

export class KnowledgeRepo {
  private readonly marked = new Set<string>();

  constructor(private readonly c: Collections) {}

  /** Marks the agent as having had a document (once per process and agent). */
  async mark(agentId: string, at: Date): Promise<void> {
    const _id = knowledgeMarkIdOf(agentId);
    if (this.marked.has(_id)) return;
    await this.c.knowledgeMarks.updateOne({ _id }, { $setOnInsert: { agentId, since: at } }, { upsert: true });
    this.marked.add(_id);
  }

  /** False only when the agent has certainly never had a document (one read by `_id`). */
  async mayHaveDocuments(agentId: string): Promise<boolean> {
    const _id = knowledgeMarkIdOf(agentId);
    if (this.marked.has(_id)) return true;
    return (await this.c.knowledgeMarks.findOne({ _id })) !== null;
  }

  async insertDocument(doc: KnowledgeDocument): Promise<void> {
    await this.c.knowledgeDocuments.insertOne(doc);
  }

  /** Writes chunks by `_id` (a retried write lands on the same documents). */
  async putChunks(chunks: readonly KnowledgeChunk[]): Promise<void> {
    for (let i = 0; i < chunks.length; i += WRITE_BATCH) {
      const batch = chunks.slice(i, i + WRITE_BATCH);
      await this.c.knowledgeChunks.bulkWrite(
        batch.map((chunk) => ({ replaceOne: { filter: { _id: chunk._id }, replacement: chunk, upsert: true } })),
        { ordered: true },
      );
    }
  }

  async markReady(documentId: string, at: Date): Promise<void> {
    await this.c.knowledgeDocuments.updateOne({ _id: documentId }, { $set: { status: 'ready', updatedAt: at } });
  }

  getDocument(id: string): Promise<KnowledgeDocument | null> {
    return this.c.knowledgeDocuments.findOne({ _id: id });
  }

  /** The agent's documents, newest first (the API's list; off the hot path). */
  listDocuments(agentId: string): Promise<KnowledgeDocument[]> {
    return this.c.knowledgeDocuments.find({ agentId }).sort({ createdAt: -1, _id: -1 }).toArray();
  }

  /**
   * What a process's index of the agent is built from: its ready documents and their chunks (two
   * indexed queries, run when a process first needs the agent or after a change, not per turn).
   */
  async loadAgent(agentId: string): Promise<{ documents: KnowledgeDocument[]; chunks: KnowledgeChunk[] }> {
    const [documents, chunks] = await Promise.all([
      this.c.knowledgeDocuments.find({ agentId, status: 'ready' }).toArray(),
      this.c.knowledgeChunks.find({ agentId }).sort({ documentId: 1, index: 1 }).toArray(),
    ]);
    const ready = new Set(documents.map((d) => d._id));
    return { documents, chunks: chunks.filter((c) => ready.has(c.documentId)) };
  }

  setChunkEmbedding(id: string, embedding: MemoryEmbedding): Promise<unknown> {
    return this.c.knowledgeChunks.updateOne({ _id: id }, { $set: { embedding } });
  }

  countChunks(documentId: string): Promise<number> {
    return this.c.knowledgeChunks.countDocuments({ documentId });
  }

  /** Chunks first, then the document: an interrupted deletion leaves no orphan chunk. Idempotent. */
  async deleteDocument(documentId: string): Promise<{ chunks: number }> {
    const { deletedCount } = await this.c.knowledgeChunks.deleteMany({ documentId });
    await this.c.knowledgeDocuments.deleteOne({ _id: documentId });
    return { chunks: deletedCount };
  }
}
