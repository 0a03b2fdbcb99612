// The Telegram gateway connection: updates arrive by long polling (@grammyjs/runner) or by
// webhook (Telegram POSTs them to a route this class provides for the process's HTTP server,
// app/http/), are translated, and handed to the core.
// Updates of one chat are handled one after another, in order; different chats run concurrently.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { Bot, webhookCallback, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import type { Logger } from 'pino';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';
import { translateUpdate } from './translate.js';
import { menusOf, type BotRole } from './commands.js';

/** The only updates we ask Telegram for (guest_message: Bot API 10 guest mode, kept as context). */
export const ALLOWED_UPDATES = ['message', 'edited_message', 'guest_message'] as const;

export interface TelegramWebhookOptions {
  /**
   * Public HTTPS URL registered with setWebhook; its path is the path the route serves.
   * Absent: the route's local URL is registered (tests, a Bot API server on the same host).
   */
  url?: string;
  /** Sent by Telegram in X-Telegram-Bot-Api-Secret-Token; any other request gets 401. */
  secret: string;
  /** The route's path when `url` is absent (default /telegram/webhook). */
  path?: string;
}

export interface TelegramBotOptions {
  token: string;
  apiRoot: string;
  log: Logger;
  onInbound(event: InboundEventInput): Promise<void>;
  /** Default `polling`. `webhook` needs `webhook`. */
  mode?: 'polling' | 'webhook';
  webhook?: TelegramWebhookOptions;
  /** Long-poll timeout of one getUpdates call, in seconds (default 30). */
  pollTimeoutSec?: number;
  /** Whose bot this is: its command menus differ (default the deployment's). */
  role?: BotRole;
}

const DEFAULT_WEBHOOK_PATH = '/telegram/webhook';

export class TelegramGateway {
  readonly bot: Bot;
  readonly mode: 'polling' | 'webhook';
  private runner: RunnerHandle | undefined;
  private listenUrl: string | undefined;
  /** Webhook mode: set once webhookRoutes() is registered on a server. */
  private routesMounted = false;
  /** Set by stop(): webhook requests get 503 from then on, and Telegram delivers them again later. */
  private stopping = false;
  /** Updates being handled, so stop() can let them finish. */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly o: TelegramBotOptions) {
    this.mode = o.mode ?? 'polling';
    if (this.mode === 'webhook' && !o.webhook) throw new Error('TelegramGateway: webhook mode needs webhook options');
    this.bot = new Bot(o.token, { client: { apiRoot: o.apiRoot } });

    // The runner is told to be silent (it would print to stderr); failed polls are logged here,
    // without the request URL, which carries the token.
    this.bot.api.config.use(async (prev, method, payload, signal) => {
      try {
        return await prev(method, payload, signal);
      } catch (err) {
        if (method === 'getUpdates' && !signal?.aborted)
          o.log.warn({ method, error: errorText(err) }, 'telegram getUpdates failed; retrying');
        throw err;
      }
    });
    this.bot.use(async (_ctx, next) => {
      const p = next();
      this.inflight.add(p);
      try {
        await p;
      } finally {
        this.inflight.delete(p);
      }
    });
    this.bot.use(sequentialize<Context>(chatKey));
    this.bot.use((ctx) => this.handle(ctx.update));
    this.bot.catch((err) => {
      o.log.error({ updateId: err.ctx.update.update_id, error: errorText(err.error) }, 'telegram update failed');
    });
  }

  /** The local URL of the webhook route once started (webhook mode). */
  get webhookListenUrl(): string | undefined {
    return this.listenUrl;
  }

  /** Webhook mode: the path Telegram POSTs to, the webhook URL's path or /telegram/webhook. */
  get webhookPath(): string | undefined {
    const w = this.o.webhook;
    if (this.mode !== 'webhook' || !w) return undefined;
    return w.url ? new URL(w.url).pathname : (w.path ?? DEFAULT_WEBHOOK_PATH);
  }

  /**
   * Webhook mode, for a caller that routes several bots' webhooks itself (the agents' bots):
   * the handler of one POST, with the same answers as webhookRoutes(). The caller's route must
   * parse any body as JSON and serve this bot's webhookPath.
   */
  webhookHandler(): (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
    const secret = this.o.webhook?.secret;
    if (this.webhookPath === undefined || secret === undefined)
      throw new Error('TelegramGateway: webhookHandler() is for webhook mode');
    const callback = webhookCallback(this.bot, 'fastify', { secretToken: secret, timeoutMilliseconds: 60_000 });
    const secretDigest = digest(secret);
    this.routesMounted = true;
    return async (req, reply) => {
      if (this.refused(req, reply, secretDigest)) return reply;
      return this.serveWebhook(req, reply, callback);
    };
  }

  /** 405 for another method, 503 once stopping, 401 without the right secret; true when answered. */
  private refused(req: FastifyRequest, reply: FastifyReply, secretDigest: Buffer): boolean {
    if (req.method !== 'POST') {
      void reply.code(405).header('allow', 'POST').send();
      return true;
    }
    if (this.stopping) {
      void reply.code(503).send();
      return true;
    }
    // grammY checks the secret again, but only once the body has been read and parsed.
    const header = req.headers['x-telegram-bot-api-secret-token'];
    if (typeof header !== 'string' || !timingSafeEqual(digest(header), secretDigest)) {
      void reply.code(401).send();
      return true;
    }
    return false;
  }

  /**
   * Webhook mode: a Fastify plugin serving POSTs on webhookPath. Register it on the HTTP server
   * before that server listens, then start() with the server's base URL. Order of answers: 405
   * for another method, 503 once stopping, 401 without the right secret (before the body is
   * read), 400 for a body that is not JSON, 500 when the core fails (Telegram delivers the
   * update again; ingest dedupes redeliveries), else 200.
   */
  webhookRoutes(): FastifyPluginCallback {
    const path = this.webhookPath;
    const secret = this.o.webhook?.secret;
    if (path === undefined || secret === undefined)
      throw new Error('TelegramGateway: webhookRoutes() is for webhook mode');
    const callback = webhookCallback(this.bot, 'fastify', { secretToken: secret, timeoutMilliseconds: 60_000 });
    const secretDigest = digest(secret);
    return (app, _opts, done) => {
      readBodiesAsJson(app);
      app.all(path, {
        onRequest: async (req, reply) => {
          if (this.refused(req, reply, secretDigest)) return reply;
        },
        handler: (req, reply) => this.serveWebhook(req, reply, callback),
      });
      this.routesMounted = true;
      done();
    };
  }

  /**
   * Connects (getMe), publishes the command menu, then polls or registers the webhook. Webhook
   * mode needs `serverUrl`, the base URL of the server webhookRoutes() is registered on: the
   * route's URL there is registered with setWebhook unless the options name a public URL.
   */
  async start(o: { serverUrl?: string } = {}): Promise<void> {
    try {
      await this.bot.init();
      await this.publishCommands();
      if (this.mode === 'webhook') await this.setWebhook(o.serverUrl);
      else await this.startPolling();
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** Stops receiving (webhook requests get 503; the HTTP server is its owner's to close), then
   * waits for updates already being handled. The webhook stays set, so Telegram keeps (and later
   * redelivers) what arrives while we are down. */
  async stop(): Promise<void> {
    this.stopping = true;
    const runner = this.runner;
    this.runner = undefined;
    if (runner?.isRunning()) await runner.stop();
    await Promise.allSettled([...this.inflight]);
  }

  private async publishCommands(): Promise<void> {
    // The default list (no language) is English; Chinese-speaking users get theirs.
    // A missing menu is cosmetic (the commands still work when typed): a failure only warns.
    const warn = (err: unknown) => this.o.log.warn({ error: errorText(err) }, 'telegram setMyCommands failed');
    for (const { scope, lang, commands } of menusOf(this.o.role ?? 'deployment')) {
      await this.bot.api
        .setMyCommands(commands, {
          ...(scope === 'default' ? {} : { scope: { type: scope } }),
          ...(lang === 'zh' ? { language_code: 'zh' } : {}),
        })
        .catch(warn);
    }
  }

  private async startPolling(): Promise<void> {
    // A webhook left from an earlier deployment would make getUpdates fail with 409.
    await this.bot.api.deleteWebhook({ drop_pending_updates: false });
    const runner = run(this.bot, {
      runner: { silent: true, fetch: { allowed_updates: ALLOWED_UPDATES, timeout: this.o.pollTimeoutSec ?? 30 } },
    });
    this.runner = runner;
    runner.task()?.catch((err: unknown) => this.o.log.error({ error: errorText(err) }, 'telegram polling stopped'));
  }

  private async setWebhook(serverUrl: string | undefined): Promise<void> {
    const w = this.o.webhook!;
    if (!serverUrl || !this.routesMounted)
      throw new Error(
        'TelegramGateway: webhook mode starts after webhookRoutes() is registered on a listening server, with its URL',
      );
    this.listenUrl = `${serverUrl.replace(/\/+$/, '')}${this.webhookPath}`;
    await this.bot.api.setWebhook(w.url ?? this.listenUrl, {
      secret_token: w.secret,
      allowed_updates: [...ALLOWED_UPDATES],
    });
  }

  private async serveWebhook(
    req: FastifyRequest,
    reply: FastifyReply,
    callback: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): Promise<FastifyReply> {
    try {
      await callback(req, reply);
    } catch (err) {
      // A failure to ingest answers 500, so Telegram delivers the update again.
      this.o.log.error({ error: errorText(err) }, 'telegram webhook update failed');
      if (!reply.sent) await reply.code(500).send();
    }
    return reply;
  }

  private async handle(update: Update): Promise<void> {
    const me = this.bot.botInfo;
    const t = translateUpdate(update, { id: me.id, username: me.username });
    if (!t.ok) {
      if (t.ignored) this.o.log.debug({ updateId: update.update_id, reason: t.reason }, 'telegram update ignored');
      else this.o.log.warn({ updateId: update.update_id, reason: t.reason }, 'telegram update dropped');
      return;
    }
    // Paths of the fields left out, never their values.
    if (t.warnings.length > 0)
      this.o.log.warn({ updateId: update.update_id, fields: t.warnings }, 'telegram update: malformed fields dropped');
    await this.o.onInbound(t.event);
  }
}

/** One chat's updates are handled in order; updates without a chat are not constrained. */
function chatKey(ctx: Context): string | undefined {
  const id: unknown = (ctx.chat as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' ? String(id) : undefined;
}

/** Fixed-length digest, so secrets of any length compare in constant time. */
/**
 * Telegram posts JSON; the body is read as JSON whatever its content type says. For a webhook
 * plugin's own scope: other routes of the server keep their own parsers.
 */
export function readBodiesAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, parsed) => {
    try {
      parsed(null, JSON.parse(body as string));
    } catch {
      parsed(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
    }
  });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** An error's message only: HTTP errors of the Bot API client may carry the token in a URL. */
function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
