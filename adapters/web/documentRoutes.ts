// Agents' knowledge documents over the web API (SPEC §12, seed 004 FR-004), beside GraphQL's
// uploadDocument: the file is the request body as it is (`curl --data-binary @handbook.pdf -H
// 'content-type: application/pdf' '/api/agents/<id>/documents?name=handbook.pdf'`), so no
// multipart or base64 step sits between a client and the size limit. Operators manage
// documents; anyone signed in may list them (replies cite them anyway).
import type { FastifyError, FastifyPluginCallback, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../../src/log.js';
import { GatewayError } from '../../src/errors.js';
import type { KnowledgeDocument } from '../../src/domain/knowledge.js';
import { addDocument, listDocuments, removeDocument, type KnowledgeDeps } from '../../src/knowledge/documents.js';
import { requireCaller, type CallerSource } from './webAuth.js';
import { sendError } from './httpErrors.js';

export interface DocumentRoutesDeps extends CallerSource {
  knowledge: KnowledgeDeps;
  log: Logger;
}

const uploadQuery = z.object({ name: z.string().min(1).max(200) });

const documentView = (d: KnowledgeDocument) => ({
  id: d._id,
  agentId: d.agentId,
  name: d.name,
  type: d.type,
  size: d.size,
  chunkCount: d.chunkCount,
  status: d.status,
  createdAt: d.createdAt.toISOString(),
});

const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name] ?? '';

export function documentRoutes(deps: DocumentRoutesDeps): FastifyPluginCallback {
  const { knowledge } = deps;
  return (app, _opts, done) => {
    app.setErrorHandler((err: FastifyError, req, reply) => sendError(deps.log, req, reply, err, 'DOCUMENT_TOO_LARGE'));
    // Any file type (text and JSON too) reaches the handler as bytes: the core decides what it
    // accepts, and says why not.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: knowledge.limits.maxBytes }, (_req, body, next) =>
      next(null, body),
    );

    app.get('/agents/:agentId/documents', async (req, reply) => {
      await requireCaller(req, deps, 'read');
      const docs = await listDocuments(knowledge, param(req, 'agentId'));
      return reply.send({ documents: docs.map(documentView) });
    });

    app.post('/agents/:agentId/documents', { bodyLimit: knowledge.limits.maxBytes }, async (req, reply) => {
      await requireCaller(req, deps, 'operate');
      const query = uploadQuery.safeParse(req.query);
      if (!query.success) throw new GatewayError('BAD_REQUEST', 'the file name goes in ?name=<file name>');
      if (!Buffer.isBuffer(req.body) || req.body.length === 0)
        throw new GatewayError('DOCUMENT_EMPTY', 'the request body is the file, and it was empty');
      const mime = req.headers['content-type']?.split(';')[0]?.trim();
      const doc = await addDocument(knowledge, {
        agentId: param(req, 'agentId'),
        name: query.data.name,
        ...(mime ? { mime } : {}),
        bytes: new Uint8Array(req.body),
      });
      return reply.code(201).send(documentView(doc));
    });

    app.delete('/documents/:id', async (req, reply) => {
      await requireCaller(req, deps, 'operate');
      await removeDocument(knowledge, param(req, 'id'));
      return reply.code(204).send();
    });

    done();
  };
}
