// One agent's chunks in process: the memory index's vector matrix and BM25 postings
// (src/memory/memoryIndex.ts) over each chunk's search text, plus what a citation needs (document
// name, heading, content). The memory index's kind, importance and times mean nothing here:
// every chunk is entered as one kind and searched without a kind filter.
import { MemoryIndex, type IndexHit } from '../memory/memoryIndex.js';

export interface IndexedChunk {
  id: string;
  documentId: string;
  documentName: string;
  index: number;
  heading?: string;
  content: string;
  addedAt: Date;
}

/** What is embedded and keyword-indexed: the document's name and heading give a passage its topic. */
export const chunkSearchText = (c: { documentName: string; heading?: string; content: string }): string =>
  `${c.documentName}${c.heading ? ` — ${c.heading}` : ''}\n${c.content}`;

export interface ChunkHit {
  chunk: IndexedChunk;
  score: number;
}

export class KnowledgeIndex {
  private readonly index: MemoryIndex;
  private readonly chunks = new Map<string, IndexedChunk>();

  constructor(
    readonly dims: number,
    capacity = 16,
  ) {
    this.index = new MemoryIndex(dims, capacity);
  }

  get size(): number {
    return this.chunks.size;
  }

  get(id: string): IndexedChunk | undefined {
    return this.chunks.get(id);
  }

  hasVectorFor(id: string): boolean {
    return this.index.hasVectorFor(id);
  }

  /** `vector` unit length with `dims` values, or absent (found by keywords until it is set). */
  add(chunk: IndexedChunk, vector?: Float32Array): void {
    this.chunks.set(chunk.id, chunk);
    this.index.upsert(
      {
        id: chunk.id,
        kind: 'fact',
        text: chunkSearchText(chunk),
        importance: 0,
        occurredAt: chunk.addedAt,
        updatedAt: chunk.addedAt,
      },
      vector && vector.length === this.dims ? vector : undefined,
    );
  }

  setVector(id: string, vector: Float32Array): void {
    this.index.setVector(id, vector);
  }

  /** Chunks by cosine similarity with `query` (unit length), best first, at least `minScore`. */
  search(query: Float32Array, k: number, minScore = -1): ChunkHit[] {
    return this.hits(this.index.search(query, k)).filter((h) => h.score >= minScore);
  }

  /** Chunks by BM25 over the query's keywords, best first; chunks sharing no keyword never match. */
  keywordSearch(text: string, k: number): ChunkHit[] {
    return this.hits(this.index.keywordSearch(text, k));
  }

  private hits(hits: IndexHit[]): ChunkHit[] {
    return hits.flatMap((h) => {
      const chunk = this.chunks.get(h.entry.id);
      return chunk ? [{ chunk, score: h.score }] : [];
    });
  }
}
