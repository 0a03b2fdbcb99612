// GraphQL on the process's HTTP server, as yoga's Fastify integration does it: one route at
// yoga's endpoint hands Fastify's request and reply to yoga, and Fastify sends yoga's response
// (streamed, for subscriptions over SSE).
import type { FastifyInstance } from 'fastify';
import type { ApiServer } from '../../graphql/server.js';

export function mountGraphQL(app: FastifyInstance, yoga: ApiServer): void {
  void app.register((scope, _opts, done) => {
    // Fastify parses no body here: yoga reads it itself, so a request without a valid token is
    // answered 401 before its body is read, and every content type yoga accepts still reaches it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, parsed) => parsed(null));
    // Every method goes to yoga, which answers the ones GraphQL does not use (405).
    scope.all(yoga.graphqlEndpoint, (req, reply) => yoga.handleNodeRequestAndResponse(req, reply, { req, reply }));
    done();
  });
}
