// The HTTP server of the API role: GraphQL at /graphql (queries, mutations, and subscriptions
// over SSE), liveness at /healthz, readiness (MongoDB and Redis reachable) at /readyz.
import { createServer, type Server } from 'node:http';
import { createYoga, createGraphQLError } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import type { OpsToken } from '../src/config/env.js';
import type { OpsDeps } from '../src/ops/opsDeps.js';
import { schema } from './schema.js';
import { authenticate } from './auth.js';
import { apiError } from './errors.js';
import { isGatewayError } from '../src/errors.js';
import { createContext, type GraphQLContext } from './context.js';
import type { GatewayPubSub } from './pubsub.js';
import { DEFAULT_LIMITS, limitPlugins, type QueryLimits } from './limits.js';

export interface ApiServerOptions {
  ops: OpsDeps;
  pubsub: GatewayPubSub;
  opsTokens: OpsToken[];
  log: Logger;
  /** Extra readiness probes (e.g. Redis), each true when healthy. */
  readiness: Record<string, () => Promise<boolean>>;
  graphiql: boolean;
  introspection: boolean;
  limits?: QueryLimits;
}

function hasCode(e: unknown): e is Error {
  const ext = (e as { extensions?: { code?: unknown } } | null)?.extensions;
  return e instanceof Error && typeof ext?.code === 'string';
}

export function createApiServer(o: ApiServerOptions): Server {
  const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
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
          const body = { errors: [{ message: 'a valid bearer token is required', extensions: { code: 'UNAUTHENTICATED' } }] };
          payload.endResponse(new fetchAPI.Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json' } }));
        },
      },
      ...limitPlugins(o.limits ?? DEFAULT_LIMITS, { introspection: o.introspection }),
      {
        // Validation errors (unknown fields, wrong argument types) carry a code like every other error.
        onValidate() {
          return ({ result }: { result: readonly GraphQLError[] }) => {
            for (const e of result) if ((e.extensions as { code?: unknown }).code === undefined) (e.extensions as Record<string, unknown>).code = 'BAD_REQUEST';
          };
        },
      },
    ],
    context: ({ request }): GraphQLContext => {
      const viewer = authenticate(request.headers.get('authorization'), o.opsTokens);
      if (!viewer) throw apiError('UNAUTHENTICATED', 'a valid bearer token is required');
      return createContext(o, viewer);
    },
  });

  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (path === '/readyz') {
      void readiness(o).then(({ ok, checks }) => {
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ready' : 'unavailable', checks }));
      });
      return;
    }
    void yoga.handle(req, res);
  });
}

async function readiness(o: ApiServerOptions): Promise<{ ok: boolean; checks: Record<string, boolean> }> {
  const probes: Record<string, () => Promise<boolean>> = { mongodb: () => o.ops.store.ping(), ...o.readiness };
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => [name, await probe().catch(() => false)] as const),
  );
  const checks = Object.fromEntries(entries);
  return { ok: entries.every(([, v]) => v), checks };
}
