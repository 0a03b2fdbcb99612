// The agents' own Telegram bots (SPEC §8), run by the gateway role beside the deployment's bot:
// one bot per registered token — long polling, or in webhook mode (TELEGRAM_MODE=webhook) a
// webhook at /telegram/agents/<agentId> with its own secret derived from
// TELEGRAM_WEBHOOK_SECRET — started and stopped as tokens are registered or removed (checked
// every AGENT_BOTS_REFRESH_MS). A group message reaches every bot in the group and is stored
// once (its id derives from the chat and message). A private chat with an agent's bot is
// answered by that agent, in a dialogue of its own.
import { createHmac } from 'node:crypto';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../src/log.js';
import type { Store } from '../../src/store/store.js';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';
import { readBodiesAsJson, TelegramGateway } from './bot.js';

/** Webhook mode: where Telegram reaches the agents' bots. */
export interface AgentWebhooks {
  /** TELEGRAM_WEBHOOK_SECRET: each agent's secret is derived from it. */
  secret: string;
  /** The public base URL (the origin of TELEGRAM_WEBHOOK_URL); absent: the server's own URL. */
  publicBase?: string;
}

const AGENT_WEBHOOK_ROOT = '/telegram/agents';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

export class AgentGateways {
  private readonly running = new Map<string, { token: string; gateway: TelegramGateway; handler?: Handler }>();
  private serverUrl: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    private readonly o: {
      store: Store;
      apiRoot: string;
      log: Logger;
      refreshMs: number;
      onInbound(event: InboundEventInput): Promise<void>;
      /** Webhook mode; absent: long polling. */
      webhooks?: AgentWebhooks;
    },
  ) {}

  /** Webhook mode: the route every agent bot's webhook is served on (register before listening). */
  routes(): FastifyPluginCallback {
    return (app, _opts, done) => {
      readBodiesAsJson(app);
      app.all<{ Params: { agentId: string } }>(`${AGENT_WEBHOOK_ROOT}/:agentId`, (req, reply) => {
        const handler = this.running.get(req.params.agentId)?.handler;
        return handler ? handler(req, reply) : reply.code(404).send();
      });
      done();
    };
  }

  /** `serverUrl`: the HTTP server's base URL (webhook mode). */
  async start(serverUrl?: string): Promise<void> {
    this.serverUrl = serverUrl;
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.o.refreshMs);
  }

  /** Starts bots for new tokens and stops those whose token went away or changed. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing
      .then(() => this.sync())
      .catch((err: unknown) => {
        this.o.log.warn({ err }, 'agent bots: refresh failed');
      });
    return this.refreshing;
  }

  private async sync(): Promise<void> {
    const bots = await this.o.store.agentBots.all('telegram');
    const wanted = new Map(bots.map((b) => [b.agentId, b.token]));
    for (const [agentId, r] of this.running) {
      if (wanted.get(agentId) === r.token) continue;
      this.running.delete(agentId);
      await r.gateway.stop();
      this.o.log.info({ agentId }, 'agent bot stopped');
    }
    for (const [agentId, token] of wanted) {
      if (this.running.has(agentId)) continue;
      const webhook = this.webhookOf(agentId);
      const gateway = new TelegramGateway({
        token,
        apiRoot: this.o.apiRoot,
        log: this.o.log,
        mode: webhook ? 'webhook' : 'polling',
        role: 'agent',
        ...(webhook ? { webhook } : {}),
        onInbound: (ev) => this.inbound(agentId, ev),
      });
      const handler = webhook ? gateway.webhookHandler() : undefined;
      // Routed before the webhook is registered, so Telegram's first POST finds it.
      this.running.set(agentId, { token, gateway, ...(handler ? { handler } : {}) });
      try {
        await gateway.start(this.serverUrl ? { serverUrl: this.serverUrl } : {});
      } catch (err) {
        this.running.delete(agentId);
        throw err;
      }
      this.o.log.info({ agentId, mode: gateway.mode }, 'agent bot started');
    }
  }

  /** Webhook mode: the agent bot's route and secret (an HMAC of the agent id under the deployment's secret). */
  private webhookOf(agentId: string): { secret: string; path: string; url?: string } | undefined {
    const w = this.o.webhooks;
    if (!w) return undefined;
    const path = `${AGENT_WEBHOOK_ROOT}/${encodeURIComponent(agentId)}`;
    const secret = createHmac('sha256', w.secret).update(agentId).digest('base64url');
    return { secret, path, ...(w.publicBase ? { url: `${w.publicBase.replace(/\/+$/, '')}${path}` } : {}) };
  }

  /** A private chat with an agent's bot is that agent's own (ChatRef.bot); a group's message is the group's. */
  private async inbound(agentId: string, ev: InboundEventInput): Promise<void> {
    await this.o.onInbound(ev.chat.kind === 'private' ? { ...ev, chat: { ...ev.chat, bot: agentId } } : ev);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing;
    await Promise.all([...this.running.values()].map((r) => r.gateway.stop()));
    this.running.clear();
  }
}
