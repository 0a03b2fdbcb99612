// The GraphQL API (queries, mutations, and subscriptions over SSE) as a yoga instance serving
// /graphql. It does not listen: the process's one HTTP server (app/http/) mounts it, next to
// /healthz and /readyz.
import { createYoga, createGraphQLError, type YogaServerInstance } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import type { OpsToken } from '../src/config/env.js';
import type { OpsDeps } from '../src/ops/opsDeps.js';
import { schema } from './schema.js';
import { authenticate } from '../src/auth/opsTokens.js';
import { BEARER_CHALLENGE } from '../src/auth/bearer.js';
import { apiError } from './errors.js';
import { isGatewayError } from '../src/errors.js';
import { isTransient, STORE_AWAY_MESSAGE } from '../src/transientRetry.js';
import { createContext, type GraphQLContext } from './context.js';
import type { GatewayPubSub } from './pubsub.js';
import { DEFAULT_LIMITS, limitPlugins, type QueryLimits } from './limits.js';

export interface ApiServerOptions {
  ops: OpsDeps;
  pubsub: GatewayPubSub;
  opsTokens: OpsToken[];
  log: Logger;
  graphiql: boolean;
  introspection: boolean;
  limits?: QueryLimits;
}

function hasCode(e: unknown): e is Error {
  const ext = (e as { extensions?: { code?: unknown } } | null)?.extensions;
  return e instanceof Error && typeof ext?.code === 'string';
}

/** The API's server context: whatever the host framework passes (app/http/ passes its request and reply). */
export type ApiServerContext = Record<string, unknown>;
export type ApiServer = YogaServerInstance<ApiServerContext, GraphQLContext>;

/** The API as a request handler for `yoga.graphqlEndpoint` (/graphql); mount it on an HTTP server. */
export function createApiServer(o: ApiServerOptions): ApiServer {
  return createYoga<ApiServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: o.graphiql,
    landingPage: false,
    logging: false,
    maskedErrors: {
      // Our own errors (stable code) go out as they are; anything else is logged here and
      // reaches the client as INTERNAL, without message or stack. Duck-typed: yoga's
      // GraphQLError class may come from another copy of graphql-js than ours.
      maskError(error) {
        const wrapped = error as { originalError?: unknown };
        const original = wrapped.originalError ?? error;
        if (isGatewayError(original)) return apiError(original.code, original.message);
        if (hasCode(original)) return original;
        if (hasCode(error) && !wrapped.originalError) return error;
        // A store that is away is the operator's to know about (503, retried by the console), not a bug.
        if (isTransient(original)) {
          o.log.warn({ err: original }, 'GraphQL resolver failed: the store is not answering');
          return apiError('STORE_UNAVAILABLE', STORE_AWAY_MESSAGE);
        }
        o.log.error({ err: original }, 'GraphQL resolver failed');
        return createGraphQLError('internal error', { extensions: { code: 'INTERNAL' } });
      },
    },
    plugins: [
      {
        // Unauthenticated requests end here with 401, before parsing or any resolver.
        onRequest(payload) {
          const { request, url, fetchAPI } = payload;
          if (url.pathname !== '/graphql' || authenticate(request.headers.get('authorization'), o.opsTokens)) return;
          const body = {
            errors: [{ message: 'a valid bearer token is required', extensions: { code: 'UNAUTHENTICATED' } }],
          };
          payload.endResponse(
            new fetchAPI.Response(JSON.stringify(body), {
              status: 401,
              headers: { 'content-type': 'application/json', 'www-authenticate': BEARER_CHALLENGE },
            }),
          );
        },
      },
      ...limitPlugins(o.limits ?? DEFAULT_LIMITS, { introspection: o.introspection }),
      {
        // Validation errors (unknown fields, wrong argument types) carry a code like every other error.
        onValidate() {
          return ({ result }: { result: readonly GraphQLError[] }) => {
            for (const e of result)
              if ((e.extensions as { code?: unknown }).code === undefined)
                (e.extensions as Record<string, unknown>).code = 'BAD_REQUEST';
          };
        },
      },
    ],
    context: ({ request }): GraphQLContext => {
      const viewer = authenticate(request.headers.get('authorization'), o.opsTokens);
      if (!viewer) throw apiError('UNAUTHENTICATED', 'a valid bearer token is required');
      return createContext(o, viewer, new URL(request.url).origin);
    },
  });
}
