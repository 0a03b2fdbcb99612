// The api role: the GraphQL operations API (queries, mutations, live subscriptions), mounted on
// the process's HTTP server (app/http/).
import { startSearchIndexer } from '../src/store/searchIndexer.js';
import { createApiServer } from '../graphql/server.js';
import { createGatewayPubSub } from '../graphql/pubsub.js';
import { DEFAULT_LIMITS } from '../graphql/limits.js';
import { mountGraphQL } from './http/graphql.js';
import { mountConsole } from './http/console.js';
import { mountExportDownloads } from './http/exports.js';
import { exportLinkKey } from '../src/export/linkKey.js';
import { mcpRoutes, seatRestRoutes } from '../adapters/mcp/index.js';
import { seatDeps } from './roomDeps.js';
import type { HttpServer } from './http/server.js';
import type { Shared } from './shared.js';
import type { Stops } from './stops.js';
import { healthProbes } from './healthProbes.js';

/** Mounts the API at /graphql; it serves once the HTTP server listens. */
export function mountApiRole(s: Shared, http: HttpServer, stops: Stops): void {
  const { env, log, store, redis } = s;
  if (env.OPS_TOKENS.length === 0)
    log.warn('OPS_TOKENS is empty: every GraphQL request will be rejected (UNAUTHENTICATED)');
  const subscriber = redis.duplicate();
  stops.push(() => subscriber.quit());
  // Message search's index (src/store/searchIndexer.ts): folds the journal of written messages into
  // postings, and backfills messages stored before the index (resumable, progress logged). One
  // tick at a time across every api process, under the indexer's lease.
  const indexer = startSearchIndexer({ store, log });
  stops.push(() => indexer.stop());
  // The first format's documents, replaced by a new index backfilled from the record: dropped once.
  void store.searchState.dropFormat1().then(
    (n) => n > 0 && log.info({ documents: n }, "search index: the first format's postings were dropped"),
    (err: unknown) => log.warn({ err }, 'search index: dropping the first format failed (retried at the next start)'),
  );
  // Exports' download links (GET /exports/<token>), signed with a key every API process shares.
  const linkKey = exportLinkKey(env);
  const exportLinks = linkKey && { key: linkKey, ttlSeconds: env.EXPORT_LINK_TTL_SECONDS };
  if (!exportLinks)
    log.warn('neither EXPORT_LINK_SECRET nor an operator token in OPS_TOKENS: export download links are off');
  const devDefault = (v: 'auto' | 'on' | 'off') => (v === 'auto' ? env.NODE_ENV !== 'production' : v === 'on');
  const yoga = createApiServer({
    ops: {
      store,
      outbounds: s.outbounds,
      memory: s.memoryQueue,
      log,
      sessionGapMs: env.SESSION_GAP_MS,
      responseWindowMs: env.RESPONSE_WINDOW_MS,
      locale: env.DEFAULT_LOCALE,
      timezone: env.DISPLAY_TIMEZONE,
      recall: s.recall,
      memoryVersions: s.memoryVersions,
      scheduler: s.timers,
      enqueueReply: (job) => s.respondQueue.enqueue(job),
      replyLease: s.replyLease,
      accounts: s.accounts,
      knowledge: s.knowledge.deps,
      reflection: { lock: s.reflectionLock, queue: s.reflectionQueue, defaultTimezone: env.DISPLAY_TIMEZONE },
      ...(exportLinks ? { exportLinks } : {}),
      inviteLink: inviteLinks(s),
      health: healthProbes({
        env,
        store,
        redis,
        respondQueue: s.respondQueue.queue,
        embedder: s.embedder,
        marks: s.healthMarks,
      }),
    },
    pubsub: createGatewayPubSub({ publisher: redis, subscriber, prefix: env.QUEUE_PREFIX }),
    opsTokens: env.OPS_TOKENS,
    log,
    graphiql: devDefault(env.GRAPHIQL),
    introspection: devDefault(env.GRAPHQL_INTROSPECTION),
    limits: {
      ...DEFAULT_LIMITS,
      maxDepth: env.GRAPHQL_MAX_DEPTH,
      maxAliases: env.GRAPHQL_MAX_ALIASES,
      maxCost: env.GRAPHQL_MAX_COST,
    },
  });
  mountGraphQL(http.app, yoga);
  if (exportLinks)
    mountExportDownloads(http.app, { deps: { store, timezone: env.DISPLAY_TIMEZONE }, key: exportLinks.key, log });
  // The operator console at / (console/dist), beside the API it talks to.
  mountConsole(http.app);
  // External agents' doors into rooms: MCP, and REST for webhook agents (SPEC §8).
  const seats = seatDeps(s);
  void http.app.register(mcpRoutes({ deps: seats, log, allowedOrigins: env.MCP_ALLOWED_ORIGINS, exportLinks }));
  void http.app.register(seatRestRoutes({ deps: seats, log }));
}

/**
 * Invite links: Telegram's deep link `t.me/<bot>?start=<code>` opens the deployment bot's chat
 * with `/start <code>` typed. The bot's username is asked of Telegram once (getMe), then kept.
 */
function inviteLinks(s: Shared): (code: string) => Promise<string | null> {
  const token = s.env.TELEGRAM_BOT_TOKEN;
  let username: Promise<string | undefined> | undefined;
  return async (code) => {
    if (!token) return null;
    username ??= s.accounts.whoIs('telegram', token).then(
      (a) => a.username,
      (err: unknown) => {
        s.log.warn({ err }, 'invite links: the Telegram bot could not be asked its name; retried next time');
        username = undefined;
        return undefined;
      },
    );
    const name = await username;
    return name ? `https://t.me/${name}?start=${encodeURIComponent(code)}` : null;
  };
}
