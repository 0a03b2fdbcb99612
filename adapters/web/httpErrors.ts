// How the web API answers what went wrong: our codes with seed 004's statuses; Fastify's own
// 4xx (bad JSON, a body too large, no such route) as BAD_REQUEST / NOT_FOUND; anything else
// logged and hidden as INTERNAL. Never a stack trace to a client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../src/log.js';
import { HTTP_STATUS, isGatewayError, type ErrorCode } from '../../src/errors.js';
import { BEARER_CHALLENGE } from '../../src/auth/bearer.js';
import { isTransient, STORE_AWAY_MESSAGE } from '../../src/transientRetry.js';

const statusOf = (code: ErrorCode): number => HTTP_STATUS[code];

/** Our error as its status and body; a 401 names the scheme to authenticate with. */
export function sendCoded(reply: FastifyReply, code: ErrorCode, message: string) {
  if (statusOf(code) === 401) void reply.header('www-authenticate', BEARER_CHALLENGE);
  return reply.code(statusOf(code)).send({ error: { code, message } });
}

export function sendError(
  log: Logger,
  req: FastifyRequest,
  reply: FastifyReply,
  err: FastifyError,
  /** What a body over the limit means on this route. */
  tooLarge: ErrorCode = 'BAD_REQUEST',
) {
  if (isGatewayError(err)) return sendCoded(reply, err.code, err.message);
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status === 413) return sendCoded(reply, tooLarge, err.message);
  if (status >= 400 && status < 500)
    return reply.code(status).send({ error: { code: 'BAD_REQUEST', message: err.message } });
  if (isTransient(err)) {
    log.warn({ err, method: req.method, route: req.routeOptions.url }, 'web API request failed: the store is away');
    return sendCoded(reply, 'STORE_UNAVAILABLE', STORE_AWAY_MESSAGE);
  }
  log.error({ err, method: req.method, route: req.routeOptions.url }, 'web API request failed');
  return reply.code(500).send({ error: { code: 'INTERNAL', message: 'internal error' } });
}

export const notFound = (req: FastifyRequest, reply: FastifyReply) =>
  reply.code(404).send({ error: { code: 'NOT_FOUND', message: `no route ${req.method} ${req.url.split('?')[0]}` } });
