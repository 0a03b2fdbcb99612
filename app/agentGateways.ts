// The agents' own Telegram bots (SPEC §8), run by the gateway role beside the deployment's bot:
// one long-polling bot per registered token, started and stopped as tokens are registered or
// removed (checked every AGENT_BOTS_REFRESH_MS). A group message reaches every bot in the group
// and is stored once (its id derives from the chat and message). Private chats with an agent's
// bot are not served yet: they are dropped here, logged once per bot.
import type { Logger } from '../src/log.js';
import type { Store } from '../src/store/store.js';
import type { InboundEventInput } from '../src/ingest/inboundEvent.js';
import { TelegramGateway } from '../adapters/telegram/bot.js';

export class AgentGateways {
  private readonly running = new Map<string, { token: string; gateway: TelegramGateway }>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private readonly warnedPrivate = new Set<string>();

  constructor(
    private readonly o: {
      store: Store;
      apiRoot: string;
      log: Logger;
      refreshMs: number;
      onInbound(event: InboundEventInput): Promise<void>;
    },
  ) {}

  async start(): Promise<void> {
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
      const gateway = new TelegramGateway({
        token,
        apiRoot: this.o.apiRoot,
        log: this.o.log,
        mode: 'polling',
        onInbound: (ev) => this.inbound(agentId, ev),
      });
      await gateway.start({});
      this.running.set(agentId, { token, gateway });
      this.o.log.info({ agentId }, 'agent bot started');
    }
  }

  private async inbound(agentId: string, ev: InboundEventInput): Promise<void> {
    if (ev.chat.kind === 'private') {
      if (!this.warnedPrivate.has(agentId))
        this.o.log.info({ agentId }, 'agent bot: private chats are not served; message dropped');
      this.warnedPrivate.add(agentId);
      return;
    }
    await this.o.onInbound(ev);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing;
    await Promise.all([...this.running.values()].map((r) => r.gateway.stop()));
    this.running.clear();
  }
}
