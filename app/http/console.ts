// The operator console (console/, a Vite + Preact build in console/dist) at `/` on the process's
// HTTP server, mounted by the api role. Hashed assets under /assets are cached for good; any
// other GET that is not an API path gets index.html (the console routes in the browser). The
// API paths keep their own routes; an unknown one is a plain 404, never the console.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { z } from 'zod';
import { CONSOLE_DIST } from '../../console/buildConsole.js';

/** Paths that belong to the API and the platforms, never to the console. */
export const RESERVED_PREFIXES = [
  '/graphql',
  '/api',
  '/healthz',
  '/readyz',
  '/metrics',
  '/mcp',
  '/telegram',
  '/agents',
];

const isReserved = (path: string) => RESERVED_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

// Only the path is looked at; anything odd in it (a NUL, an encoded slash trick) is left to
// @fastify/static's send, which refuses paths outside the root.
const pathOf = z
  .string()
  .transform((url) => url.split('?')[0] ?? '/')
  .pipe(z.string().startsWith('/'));

// Scripts and styles from this origin only; the console talks to this server alone.
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rainbow Gateway · Console</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The console is not built</h1>
<p>Run <code>npm run build:console</code> (or start the gateway with <code>npm start</code>, which builds it), then
restart the gateway. The GraphQL API is at <a href="/graphql">/graphql</a>.</p>
</body></html>`;

export function mountConsole(app: FastifyInstance, o: { dist?: string } = {}): void {
  const dist = o.dist ?? CONSOLE_DIST;
  const built = existsSync(join(dist, 'index.html'));
  void app.register(async (scope) => {
    // sendFile only: the routes are ours, so API paths never fall into the console.
    if (built) await scope.register(fastifyStatic, { root: dist, serve: false, index: false });

    const page = (reply: FastifyReply) =>
      reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer');

    scope.get('/*', (req: FastifyRequest, reply: FastifyReply) => {
      const path = pathOf.safeParse(req.url);
      if (!path.success || isReserved(path.data)) return reply.callNotFound();
      if (!built) return page(reply).code(503).type('text/html; charset=utf-8').send(NOT_BUILT);
      if (path.data.startsWith('/assets/'))
        return reply.sendFile(path.data.slice(1), { immutable: true, maxAge: '365d' });
      return page(reply).sendFile('index.html', { cacheControl: false });
    });
  });
}
