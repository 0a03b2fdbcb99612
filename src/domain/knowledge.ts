// Knowledge (seed 004 FR-004/005, SPEC §12) as plain data: an agent's documents, the chunks they
// are cut into (what retrieval finds and replies cite), and the mark that says an agent has ever
// had a document. Collections store exactly these shapes.
import type { MemoryEmbedding } from './model.js';

export const DOCUMENT_TYPES = ['text', 'markdown', 'pdf'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** `adding` while its chunks are written; only `ready` documents are retrieved. */
export type DocumentStatus = 'adding' | 'ready';

export interface KnowledgeDocument {
  _id: string;
  agentId: string;
  /** The file name as uploaded (its base name). */
  name: string;
  type: DocumentType;
  /** The MIME type the uploader declared, if any. */
  mime?: string;
  /** Bytes uploaded. */
  size: number;
  /** Characters of extracted text. */
  chars: number;
  chunkCount: number;
  /** sha256 of the bytes, hex. */
  sha256: string;
  status: DocumentStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface KnowledgeChunk {
  /** Derived from the document id and `index` (src/knowledge/chunking.ts: chunkIdOf). */
  _id: string;
  documentId: string;
  agentId: string;
  /** Position in the document, from 0. */
  index: number;
  /** The Markdown heading path the chunk sits under ("Setup › Install"). */
  heading?: string;
  content: string;
  /** Vector of the chunk's search text; absent or from another embedder → recomputed when loaded. */
  embedding?: MemoryEmbedding;
  createdAt: Date;
}

/** An agent has had a document (by derived `_id`): an agent without one is known without a query. */
export interface KnowledgeMark {
  _id: string;
  agentId: string;
  since: Date;
}
