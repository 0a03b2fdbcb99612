// The process's one HTTP server (Fastify), on PORT. Each role that serves HTTP adds its routes
// before it listens: the api role GraphQL (graphql.ts), the gateway role the Telegram webhook.
// Liveness (/healthz) and readiness (/readyz) are served whenever it runs.
import { STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fastify, LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from '../../src/log.js';

export interface HttpServerOptions {
  log: Logger;
  /** 0 = a free port. */
  port: number;
  /** Interface to bind (src/config/env.ts listenHost). */
  host: string;
  /** What /readyz checks (e.g. MongoDB, Redis), each probe true when healthy. */
  readiness: Record<string, () => Promise<boolean>>;
}

export interface HttpServer {
  /** Routes and plugins are added here, before listen(). */
  readonly app: FastifyInstance;
  /** Starts listening; resolves with the base URL (http://127.0.0.1:<port>). */
  listen(): Promise<string>;
  /** Stops listening and closes every open connection (live subscriptions included). */
  close(): Promise<void>;
}

export function createHttpServer(o: HttpServerOptions): HttpServer {
  // Our pino logger (its redaction included), for Fastify's own warnings and errors only: no
  // per-request lines and no "Server listening" lines, so the log stays as it was.
  const loggerInstance: FastifyBaseLogger = o.log.child(
    {},
    { level: o.log.isLevelEnabled('warn') ? 'warn' : o.log.level },
  );
  const app = fastify({
    loggerInstance,
    logController: new LogController({ disableRequestLogging: true }),
    // Server-sent event streams never end by themselves: close() cuts them.
    forceCloseConnections: true,
  });

  // Errors a route did not answer itself: a 5xx is logged here and goes out without its
  // message; a 4xx (a malformed body, a body too large) keeps it.
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status =
      typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) o.log.error({ err, method: req.method, route: req.routeOptions.url }, 'HTTP request failed');
    return reply.code(status).send({
      statusCode: status,
      error: STATUS_CODES[status],
      message: status >= 500 ? 'internal error' : err.message,
    });
  });

  app.get('/healthz', (_req, reply) => reply.code(200).send({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const entries = await Promise.all(
      Object.entries(o.readiness).map(async ([name, probe]) => [name, await probe().catch(() => false)] as const),
    );
    const ok = entries.every(([, v]) => v);
    return reply
      .code(ok ? 200 : 503)
      .send({ status: ok ? 'ready' : 'unavailable', checks: Object.fromEntries(entries) });
  });

  return {
    app,
    async listen() {
      await app.listen({ port: o.port, host: o.host });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    },
    close: () => app.close(),
  };
}
