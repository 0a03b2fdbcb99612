// GET /metrics: this process's Prometheus series in the text exposition format. A scraper
// authenticates with METRICS_TOKEN, an operator with any OPS_TOKENS token (every role is at
// least viewer); both compared in constant time.
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { OpsToken } from '../../src/config/env.js';
import { authenticate, roleAtLeast } from '../../src/auth/opsTokens.js';
import { BEARER_CHALLENGE } from '../../src/auth/bearer.js';

export interface MetricsRouteOptions {
  registry: Registry;
  metricsToken?: string;
  opsTokens: OpsToken[];
}

export function mountMetrics(app: FastifyInstance, o: MetricsRouteOptions): void {
  // The scraper's token is checked as one more entry of the same constant-time lookup.
  const scraper: OpsToken[] = o.metricsToken ? [{ name: 'metrics', role: 'viewer', token: o.metricsToken }] : [];
  const tokens = [...scraper, ...o.opsTokens];
  app.get('/metrics', async (req, reply) => {
    const who = authenticate(req.headers.authorization ?? null, tokens);
    if (!who || !roleAtLeast(who.role, 'viewer'))
      return reply
        .code(401)
        .header('www-authenticate', BEARER_CHALLENGE)
        .send({ statusCode: 401, error: 'Unauthorized', message: 'a metrics or viewer token is required' });
    const body = await o.registry.metrics();
    return reply
      .code(200)
      .header('content-type', o.registry.contentType)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
