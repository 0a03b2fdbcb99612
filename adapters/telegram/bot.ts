// The Telegram gateway connection: updates arrive by long polling (@grammyjs/runner) or by
// webhook (Telegram POSTs them to our listener), are translated, and handed to the core.
// Updates of one chat are handled one after another, in order; different chats run concurrently.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Bot, webhookCallback, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import type { Logger } from 'pino';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';
import { translateUpdate } from './translate.js';
import { BOT_COMMANDS } from './commands.js';

/** The only updates we ask Telegram for. */
export const ALLOWED_UPDATES = ['message', 'edited_message'] as const;

export interface TelegramWebhookOptions {
  /**
   * Public HTTPS URL registered with setWebhook; its path is the path the listener serves.
   * Absent: the listener's own URL is registered (tests, a Bot API server on the same host).
   */
  url?: string;
  /** Sent by Telegram in X-Telegram-Bot-Api-Secret-Token; any other request gets 401. */
  secret: string;
  /** Local port of the listener; 0 = any free port (see webhookListenUrl). */
  port: number;
  /** Interface to bind; default all interfaces. */
  host?: string;
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
}

const DEFAULT_WEBHOOK_PATH = '/telegram/webhook';

export class TelegramGateway {
  readonly bot: Bot;
  readonly mode: 'polling' | 'webhook';
  private runner: RunnerHandle | undefined;
  private server: Server | undefined;
  private listenUrl: string | undefined;
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
        if (method === 'getUpdates' && !signal?.aborted) o.log.warn({ method, error: errorText(err) }, 'telegram getUpdates failed; retrying');
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

  /** The local URL of the webhook listener once started (webhook mode). */
  get webhookListenUrl(): string | undefined {
    return this.listenUrl;
  }

  /** Connects (getMe), publishes the command menu, then polls or registers the webhook. */
  async start(): Promise<void> {
    try {
      await this.bot.init();
      await this.publishCommands();
      if (this.mode === 'webhook') await this.startWebhook();
      else await this.startPolling();
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** Stops receiving, then waits for updates already being handled. The webhook stays set, so
   * Telegram keeps (and later redelivers) what arrives while we are down. */
  async stop(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (runner?.isRunning()) await runner.stop();
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise<void>((res) => server.close(() => res())) : Promise.resolve();
    server?.closeIdleConnections();
    await Promise.allSettled([...this.inflight]);
    server?.closeAllConnections();
    await closed;
  }

  private async publishCommands(): Promise<void> {
    // The default list (no language) is English; Chinese-speaking users get theirs.
    // A missing menu is cosmetic (the commands still work when typed): a failure only warns.
    const warn = (err: unknown) => this.o.log.warn({ error: errorText(err) }, 'telegram setMyCommands failed');
    await this.bot.api.setMyCommands(BOT_COMMANDS.en).catch(warn);
    await this.bot.api.setMyCommands(BOT_COMMANDS.zh, { language_code: 'zh' }).catch(warn);
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

  private async startWebhook(): Promise<void> {
    const w = this.o.webhook!;
    const path = w.url ? new URL(w.url).pathname : DEFAULT_WEBHOOK_PATH;
    const callback = webhookCallback(this.bot, 'http', { secretToken: w.secret, timeoutMilliseconds: 60_000 });
    const server = createServer((req, res) => this.serveWebhook(req, res, path, callback));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(w.port, w.host ?? '0.0.0.0', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    this.listenUrl = `http://127.0.0.1:${port}${path}`;
    await this.bot.api.setWebhook(w.url ?? this.listenUrl, { secret_token: w.secret, allowed_updates: [...ALLOWED_UPDATES] });
  }

  private serveWebhook(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    callback: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
  ): void {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    // grammY checks the secret (401) before reading the body. A failure to ingest answers 500,
    // so Telegram delivers the update again (ingest dedupes redeliveries).
    callback(req, res).catch((err: unknown) => {
      const badJson = err instanceof SyntaxError;
      if (!badJson) this.o.log.error({ error: errorText(err) }, 'telegram webhook update failed');
      if (!res.headersSent) res.writeHead(badJson ? 400 : 500).end();
    });
  }

  private async handle(update: Update): Promise<void> {
    const me = this.bot.botInfo;
    const t = translateUpdate(update, { id: me.id, username: me.username });
    if (!t.ok) {
      if (t.ignored) this.o.log.debug({ updateId: update.update_id, reason: t.reason }, 'telegram update ignored');
      else this.o.log.warn({ updateId: update.update_id, reason: t.reason }, 'telegram update dropped');
      return;
    }
    await this.o.onInbound(t.event);
  }
}

/** One chat's updates are handled in order; updates without a chat are not constrained. */
function chatKey(ctx: Context): string | undefined {
  const id: unknown = (ctx.chat as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' ? String(id) : undefined;
}

/** An error's message only: HTTP errors of the Bot API client may carry the token in a URL. */
function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
