// Knowledge (seed 004 FR-004/005): an agent's documents — listed for viewers, uploaded (base64)
// and deleted by operators through src/knowledge/documents.ts — and the sources a reply cited.
import { builder } from '../builder.js';
import { apiError } from '../errors.js';
import { DOCUMENT_TYPES, type KnowledgeDocument } from '../../src/domain/knowledge.js';
import type { SourceReference } from '../../src/domain/model.js';
import { addDocument, listDocuments, removeDocument, type KnowledgeDeps } from '../../src/knowledge/documents.js';
import type { GraphQLContext } from '../context.js';
import { MessageType } from './message.js';

const DocumentTypeEnum = builder.enumType('DocumentType', { values: DOCUMENT_TYPES });
const DocumentStatusEnum = builder.enumType('DocumentStatus', {
  description:
    'adding: its chunks are being written (a document left adding by a crash can be deleted); ready: retrieved.',
  values: ['adding', 'ready'] as const,
});

const KnowledgeDocumentType = builder.objectRef<KnowledgeDocument>('KnowledgeDocument').implement({
  description: "A document of an agent's knowledge, cut into chunks that replies retrieve and cite.",
  fields: (t) => ({
    id: t.exposeID('_id'),
    agentId: t.exposeID('agentId'),
    name: t.exposeString('name'),
    type: t.expose('type', { type: DocumentTypeEnum }),
    mime: t.exposeString('mime', { nullable: true }),
    size: t.exposeInt('size', { description: 'Bytes uploaded.' }),
    chars: t.exposeInt('chars', { description: 'Characters of extracted text.' }),
    chunkCount: t.exposeInt('chunkCount'),
    sha256: t.exposeString('sha256'),
    status: t.expose('status', { type: DocumentStatusEnum }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
  }),
});

const DeletedDocumentType = builder
  .objectRef<KnowledgeDocument & { chunksDeleted: number }>('DeletedDocument')
  .implement({
    fields: (t) => ({
      id: t.exposeID('_id'),
      agentId: t.exposeID('agentId'),
      name: t.exposeString('name'),
      chunksDeleted: t.exposeInt('chunksDeleted'),
    }),
  });

const SourceReferenceType = builder.objectRef<SourceReference>('SourceReference').implement({
  description: "A passage of an agent's document that a reply cited as [n].",
  fields: (t) => ({
    n: t.exposeInt('n', { description: 'The number the reply cites it by.' }),
    documentId: t.exposeID('documentId'),
    documentName: t.exposeString('documentName'),
    chunkId: t.exposeID('chunkId'),
    content: t.exposeString('content'),
    relevanceScore: t.exposeFloat('relevanceScore', { description: '0..1: fused vector and keyword rank.' }),
  }),
});

builder.objectField(MessageType, 'sources', (t) =>
  t.field({
    type: [SourceReferenceType],
    description: 'The knowledge an AI reply validly cited (empty when it cited none).',
    resolve: (m) => m.sources ?? [],
  }),
);

function knowledgeOf(ctx: GraphQLContext): KnowledgeDeps {
  if (!ctx.ops.knowledge) throw apiError('BAD_REQUEST', 'knowledge documents are not available in this deployment');
  return ctx.ops.knowledge;
}

/** Base64 (whitespace ignored) → bytes; the length is checked before decoding. */
function decodeBase64(content: string, maxBytes: number): Uint8Array {
  const compact = content.replace(/\s+/g, '');
  if (compact.length > Math.ceil(maxBytes / 3) * 4)
    throw apiError('DOCUMENT_TOO_LARGE', `the document is over ${maxBytes} bytes`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw apiError('BAD_REQUEST', 'contentBase64 is not base64');
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

builder.queryFields((t) => ({
  documents: t.field({
    type: [KnowledgeDocumentType],
    description: "An agent's knowledge documents, newest first.",
    args: { agentId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => listDocuments(ctx, String(a.agentId)),
  }),
}));

builder.mutationFields((t) => ({
  uploadDocument: t.field({
    type: KnowledgeDocumentType,
    description:
      'Adds a document (.txt, .md or .pdf) to an agent’s knowledge: read, chunked and embedded before anything is stored; refused whole with DOCUMENT_TYPE_UNSUPPORTED, DOCUMENT_TOO_LARGE, DOCUMENT_EMPTY or DOCUMENT_MALFORMED.',
    args: {
      agentId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      mime: t.arg.string(),
      contentBase64: t.arg.string({ required: true }),
    },
    resolve: (_r, a, ctx) => {
      const deps = knowledgeOf(ctx);
      const bytes = decodeBase64(a.contentBase64, deps.limits.maxBytes);
      return addDocument(deps, {
        agentId: String(a.agentId),
        name: a.name,
        ...(a.mime ? { mime: a.mime } : {}),
        bytes,
      });
    },
  }),
  deleteDocument: t.field({
    type: DeletedDocumentType,
    description: 'Deletes a knowledge document and its chunks.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => removeDocument(knowledgeOf(ctx), String(a.id)),
  }),
}));
