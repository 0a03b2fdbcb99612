// The outbound channel an agent posts through: its own bot when it has one on the chat's
// platform (SPEC §8), else the deployment's (a private chat: the bot that holds it). Telegram
// limits each bot on its own, so each agent's bot spends its own per-chat and global budget
// (ChatBudget accounts): a room's round never waits on another bot's pace. Tokens are looked up
// by `_id` and kept for a short while, so a new or changed token is used within
// AGENT_OUTBOUND_TTL_MS.
import type { ChatRef } from '../src/domain/model.js';
import type { OutboundChannel } from '../src/delivery/outbound.js';
import type { ChatBudget } from '../src/delivery/chatBudget.js';
import { PacedOutbound } from '../src/delivery/pacedOutbound.js';
import type { Metrics } from '../src/metrics/metrics.js';
import type { Store } from '../src/store/store.js';
import type { Logger } from '../src/log.js';
import { TelegramOutbound } from '../adapters/telegram/outbound.js';

const AGENT_OUTBOUND_TTL_MS = 30_000;

interface Cached {
  token: string | undefined;
  channel: OutboundChannel | undefined;
  at: number;
}

export class AgentOutbounds {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly o: {
      store: Store;
      budget: ChatBudget;
      log: Logger;
      telegramApiRoot: string;
      drafts: boolean;
      metrics?: Metrics;
    },
  ) {}

  /**
   * The agent's own channel for this chat's platform; undefined: post through the deployment's.
   * A private chat is written to by the bot that holds it: the agent's own (ChatRef.bot), or
   * the deployment's where its person chose the agent (ChatRef.agentId).
   */
  async of(agentId: string, chat: ChatRef): Promise<OutboundChannel | undefined> {
    if (chat.platform !== 'telegram') return undefined;
    if (chat.bot && chat.bot !== agentId) return this.of(chat.bot, chat);
    // Telegram numbers private chats by the person (positive), groups below zero: a private
    // chat the deployment's bot holds is answered by it, whichever agent speaks there.
    if (!chat.bot && !chat.chatId.startsWith('-')) return undefined;
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
          : new PacedOutbound(
              new TelegramOutbound(token, this.o.telegramApiRoot, { drafts: this.o.drafts, log: this.o.log }),
              {
                budget: this.o.budget,
                // Telegram limits each bot on its own: the agent's bot has its own pace.
                account: agentId,
                log: this.o.log,
                ...(this.o.metrics ? { metrics: this.o.metrics } : {}),
              },
            );
    this.cache.set(key, { token, channel, at: Date.now() });
    return channel;
  }
}
