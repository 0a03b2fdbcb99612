// How the web API answers what went wrong: our codes with seed 004's statuses; Fastify's own
// 4xx (bad JSON, a body too large, no such route) as BAD_REQUEST / NOT_FOUND; anything else
// logged and hidden as INTERNAL. Never a stack trace to a client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../src/log.js';
import { isGatewayError, type ErrorCode } from '../../src/errors.js';

/** seed 004 §9, plus ours: a code's HTTP status when it is answered before the stream began. */
export const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400,
  MESSAGE_CONTENT_REQUIRED: 400,
  MESSAGE_TOO_LONG: 400,
  PROMPT_TOO_LONG: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CONVERSATION_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  DIALOGUE_BUSY: 409,
  GENERATION_ABORTED: 499,
  LLM_SERVICE_ERROR: 502,
  MODEL_NOT_CONFIGURED: 503,
  GENERATION_TIMEOUT: 504,
  DOCUMENT_EMPTY: 400,
  DOCUMENT_MALFORMED: 400,
  DOCUMENT_TOO_LARGE: 413,
  DOCUMENT_TYPE_UNSUPPORTED: 415,
  EMBEDDING_FAILED: 502,
};

export const statusOf = (code: ErrorCode): number => HTTP_STATUS[code] ?? 500;

export function sendError(
  log: Logger,
  req: FastifyRequest,
  reply: FastifyReply,
  err: FastifyError,
  /** What a body over the limit means on this route. */
  tooLarge: ErrorCode = 'BAD_REQUEST',
) {
  if (isGatewayError(err))
    return reply.code(statusOf(err.code)).send({ error: { code: err.code, message: err.message } });
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status === 413) return reply.code(statusOf(tooLarge)).send({ error: { code: tooLarge, message: err.message } });
  if (status >= 400 && status < 500)
    return reply.code(status).send({ error: { code: 'BAD_REQUEST', message: err.message } });
  log.error({ err, method: req.method, route: req.routeOptions.url }, 'web API request failed');
  return reply.code(500).send({ error: { code: 'INTERNAL', message: 'internal error' } });
}

export const notFound = (req: FastifyRequest, reply: FastifyReply) =>
  reply.code(404).send({ error: { code: 'NOT_FOUND', message: `no route ${req.method} ${req.url.split('?')[0]}` } });
