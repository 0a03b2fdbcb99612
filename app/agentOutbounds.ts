// The outbound channel an agent posts through: its own account when it has one on the chat's
// platform (SPEC §8; the platforms whose adapter offers agents' accounts — Telegram's bots),
// else the deployment's (a private chat: the bot that holds it). A platform that limits each bot
// on its own has each agent's bot spend its own per-chat and global budget (ChatBudget
// accounts): a room's round never waits on another bot's pace. Tokens are looked up by `_id` and
// kept for a short while, so a new or changed token is used within AGENT_OUTBOUND_TTL_MS.
import type { ChatRef } from '../src/domain/model.js';
import type { OutboundChannel } from '../src/delivery/outbound.js';
import type { ChatBudget } from '../src/delivery/chatBudget.js';
import { PacedOutbound } from '../src/delivery/pacedOutbound.js';
import type { Metrics } from '../src/metrics/metrics.js';
import type { Store } from '../src/store/store.js';
import type { Logger } from '../src/log.js';
import type { Env } from '../src/config/env.js';
import type { PlatformDescriptor } from '../src/platforms/platform.js';
import type { AgentAccounts, PlatformAdapter } from '../adapters/platforms.js';

const AGENT_OUTBOUND_TTL_MS = 30_000;

/** A platform whose adapter lets agents have their own accounts. */
interface AccountsOn {
  platform: PlatformDescriptor;
  accounts: AgentAccounts;
}

interface Cached {
  token: string | undefined;
  channel: OutboundChannel | undefined;
  at: number;
}

export class AgentOutbounds {
  private readonly cache = new Map<string, Cached>();
  private readonly byPlatform = new Map<string, AccountsOn>();

  constructor(
    private readonly o: {
      store: Store;
      budget: ChatBudget;
      log: Logger;
      env: Env;
      adapters: readonly PlatformAdapter[];
      metrics?: Metrics;
    },
  ) {
    for (const a of o.adapters) {
      const accounts = a.agentAccounts?.(o.env);
      if (accounts) this.byPlatform.set(a.platform.id, { platform: a.platform, accounts });
    }
  }

  /**
   * The agent's own channel for this chat's platform; undefined: post through the deployment's.
   * A private chat is written to by the bot that holds it: the agent's own (ChatRef.bot), or
   * the deployment's where its person chose the agent (ChatRef.agentId).
   */
  async of(agentId: string, chat: ChatRef): Promise<OutboundChannel | undefined> {
    const on = this.byPlatform.get(chat.platform);
    if (!on) return undefined;
    if (chat.bot && chat.bot !== agentId) return this.of(chat.bot, chat);
    // A private chat the deployment's bot holds is answered by it, whichever agent speaks there
    // (the descriptor tells: Telegram numbers groups below zero, private chats by the person).
    if (!chat.bot && !on.platform.isGroupChat(chat)) return undefined;
    const key = `${agentId}:${chat.platform}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < AGENT_OUTBOUND_TTL_MS) return hit.channel;
    const bot = await this.o.store.agentBots.get(agentId, chat.platform);
    const token = bot?.token;
    const channel =
      token === undefined
        ? undefined
        : hit?.token === token
          ? hit.channel
          : new PacedOutbound(on.accounts.channel(token, this.o.log), {
              budget: this.o.budget,
              // The platform limits each bot on its own: the agent's bot has its own pace.
              account: agentId,
              log: this.o.log,
              ...(this.o.metrics ? { metrics: this.o.metrics } : {}),
            });
    this.cache.set(key, { token, channel, at: Date.now() });
    return channel;
  }
}
