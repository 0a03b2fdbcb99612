// The HTTP server of the API role: GraphQL at /graphql, liveness at /healthz, readiness
// (MongoDB and Redis reachable) at /readyz.
import { createServer, type Server } from 'node:http';
import { createYoga } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Store } from '../src/store/store.js';
import type { OpsToken } from '../src/config/env.js';
import { schema } from './schema.js';
import { authenticate } from './auth.js';
import { apiError } from './errors.js';
import type { GraphQLContext } from './builder.js';

export interface ApiServerOptions {
  store: Store;
  opsTokens: OpsToken[];
  log: Logger;
  /** Extra readiness probes (e.g. Redis), each true when healthy. */
  readiness: Record<string, () => Promise<boolean>>;
  graphiql: boolean;
}

export function createApiServer(o: ApiServerOptions): Server {
  const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: o.graphiql,
    landingPage: false,
    maskedErrors: true,
    logging: false,
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
    ],
    context: ({ request }): GraphQLContext => {
      const viewer = authenticate(request.headers.get('authorization'), o.opsTokens);
      if (!viewer) throw apiError('UNAUTHENTICATED', 'a valid bearer token is required');
      return { store: o.store, viewer };
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
  const probes: Record<string, () => Promise<boolean>> = { mongodb: () => o.store.ping(), ...o.readiness };
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => [name, await probe().catch(() => false)] as const),
  );
  const checks = Object.fromEntries(entries);
  return { ok: entries.every(([, v]) => v), checks };
}
