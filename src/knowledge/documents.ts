// Adding and removing an agent's documents: the plain functions the API calls (GraphQL's
// uploadDocument / deleteDocument, the web channel's REST upload). Everything that can refuse a
// document — type, size, text, chunk count, embeddings — runs before the first write, so a
// refused upload stores nothing; a write that fails midway is undone. Every change bumps the
// agent's knowledge version, so every process's index reloads it on its next turn.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { GatewayError } from '../errors.js';
import { newId } from '../domain/ids.js';
import type { KnowledgeChunk, KnowledgeDocument } from '../domain/knowledge.js';
import type { Embedder } from '../memory/embedder.js';
import { toMemoryEmbedding } from '../memory/vectors.js';
import type { KnowledgeRepo } from '../store/knowledge.js';
import type { ParticipantRepo } from '../store/participants.js';
import { chunkIdOf, chunkText, DEFAULT_CHUNKING } from './chunking.js';
import { extractDocumentText } from './extract.js';
import { baseName, detectDocumentType, type DocumentLimits } from './intake.js';
import { chunkSearchText } from './knowledgeIndex.js';
import type { KnowledgeCache } from './knowledgeCache.js';

export interface KnowledgeDeps {
  store: { knowledge: KnowledgeRepo; participants: Pick<ParticipantRepo, 'getAgent'> };
  embedder: Embedder;
  cache: Pick<KnowledgeCache, 'noteChanged'>;
  log: Logger;
  limits: DocumentLimits;
  /** Texts per embed call. */
  embedBatch?: number;
  /** One embed call; a slow API fails the upload instead of holding it forever. */
  embedTimeoutMs?: number;
}

const uploadSchema = z.object({
  agentId: z.string().min(1).max(200),
  name: z
    .string()
    .transform(baseName)
    .pipe(z.string().min(1, 'a document needs a file name').max(200, 'file names are at most 200 characters')),
  mime: z.string().max(200).optional(),
  bytes: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'bytes must be a Uint8Array'),
});

export type UploadInput = z.input<typeof uploadSchema>;

function parseUpload(input: UploadInput): z.output<typeof uploadSchema> {
  const parsed = uploadSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new GatewayError('BAD_REQUEST', `${issue?.path.join('.') || 'upload'}: ${issue?.message ?? 'invalid'}`);
}

/** Reads, chunks, embeds and stores one document of an agent; refused whole with a stable code. */
export async function addDocument(
  deps: KnowledgeDeps,
  input: UploadInput,
  now = new Date(),
): Promise<KnowledgeDocument> {
  const { agentId, name, mime, bytes } = parseUpload(input);
  const agent = await deps.store.participants.getAgent(agentId);
  if (!agent) throw new GatewayError('NOT_FOUND', `no agent with id ${agentId}`);
  const type = detectDocumentType({ name, ...(mime ? { mime } : {}), bytes }, deps.limits);
  const text = await extractDocumentText(type, bytes, name);
  const pieces = chunkText(text, { ...DEFAULT_CHUNKING, markdown: type === 'markdown' });
  if (pieces.length === 0) throw new GatewayError('DOCUMENT_EMPTY', `${name} has no text to retrieve`);
  if (pieces.length > deps.limits.maxChunks)
    throw new GatewayError(
      'DOCUMENT_TOO_LARGE',
      `${name} makes ${pieces.length} chunks; the limit is ${deps.limits.maxChunks} per document`,
    );
  const vectors = await embedAll(
    deps,
    pieces.map((p) => chunkSearchText({ documentName: name, ...p })),
  );

  const documentId = newId('doc', now);
  const doc: KnowledgeDocument = {
    _id: documentId,
    agentId,
    name,
    type,
    ...(mime ? { mime } : {}),
    size: bytes.length,
    chars: text.length,
    chunkCount: pieces.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    status: 'adding',
    createdAt: now,
    updatedAt: now,
  };
  const chunks: KnowledgeChunk[] = pieces.map((p, i) => ({
    _id: chunkIdOf(documentId, p.index),
    documentId,
    agentId,
    index: p.index,
    ...(p.heading ? { heading: p.heading } : {}),
    content: p.content,
    embedding: toMemoryEmbedding(deps.embedder.id, vectors[i]!),
    createdAt: now,
  }));

  const { knowledge } = deps.store;
  await knowledge.mark(agentId, now);
  await knowledge.insertDocument(doc);
  try {
    await knowledge.putChunks(chunks);
    await knowledge.markReady(documentId, now);
    await deps.cache.noteChanged(agentId);
  } catch (err) {
    // Undo, so a failed upload leaves nothing behind (chunks first, as every deletion does).
    await knowledge
      .deleteDocument(documentId)
      .catch((undoErr: unknown) => deps.log.error({ err: undoErr, documentId }, 'failed upload not undone'));
    throw err;
  }
  deps.log.info({ agentId, documentId, name, type, chunks: chunks.length }, 'knowledge document added');
  return { ...doc, status: 'ready' };
}

/** Embeds every chunk before anything is stored; an embeddings failure refuses the upload. */
async function embedAll(deps: KnowledgeDeps, texts: string[]): Promise<Float32Array[]> {
  const batch = Math.max(1, deps.embedBatch ?? 64);
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += batch) {
    let vectors: Float32Array[];
    try {
      vectors = await deps.embedder.embed(
        texts.slice(i, i + batch),
        AbortSignal.timeout(deps.embedTimeoutMs ?? 60_000),
      );
    } catch (err) {
      if (err instanceof GatewayError) throw err;
      throw new GatewayError('EMBEDDING_FAILED', 'the document could not be embedded; try again later', { cause: err });
    }
    if (vectors.length !== Math.min(batch, texts.length - i))
      throw new GatewayError('EMBEDDING_FAILED', `the embedder returned ${vectors.length} vectors for a batch`);
    out.push(...vectors);
  }
  return out;
}

/** Deletes a document and its chunks (chunks first); NOT_FOUND when there is no such document. */
export async function removeDocument(
  deps: Pick<KnowledgeDeps, 'store' | 'cache' | 'log'>,
  documentId: string,
): Promise<KnowledgeDocument & { chunksDeleted: number }> {
  const doc = await deps.store.knowledge.getDocument(documentId);
  if (!doc) throw new GatewayError('NOT_FOUND', `no document with id ${documentId}`);
  const { chunks } = await deps.store.knowledge.deleteDocument(doc._id);
  await deps.cache.noteChanged(doc.agentId);
  deps.log.info({ agentId: doc.agentId, documentId, chunks }, 'knowledge document deleted');
  return { ...doc, chunksDeleted: chunks };
}

/** The agent's documents, newest first. */
export function listDocuments(deps: Pick<KnowledgeDeps, 'store'>, agentId: string): Promise<KnowledgeDocument[]> {
  return deps.store.knowledge.listDocuments(agentId);
}
