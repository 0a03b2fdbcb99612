// The platform accounts an agent posts under (SPEC §8: its own Telegram bot), with their
// tokens. Kept apart from the agent document, which the hot path reads and the API returns:
// a token is a secret, read only where a bot is run, never logged, never returned.
import type { Collections } from './collections.js';
import type { Platform } from '../domain/model.js';

export interface AgentBot {
  /** agentBotIdOf(agentId, platform). */
  _id: string;
  agentId: string;
  platform: Platform;
  token: string;
  /** The account as the platform reported it when the token was registered. */
  account: { userId: string; username?: string };
  updatedAt: Date;
}

export const agentBotIdOf = (agentId: string, platform: Platform): string => `${agentId}:${platform}`;

/** At most this many agent bots run per deployment (the supervisor's scan is bounded). */
export const MAX_AGENT_BOTS = 500;

export class AgentBotRepo {
  constructor(private readonly c: Collections) {}

  get(agentId: string, platform: Platform): Promise<AgentBot | null> {
    return this.c.agentBots.findOne({ _id: agentBotIdOf(agentId, platform) });
  }

  async put(bot: Omit<AgentBot, '_id'>): Promise<void> {
    const _id = agentBotIdOf(bot.agentId, bot.platform);
    await this.c.agentBots.replaceOne({ _id }, bot, { upsert: true });
  }

  async remove(agentId: string, platform: Platform): Promise<boolean> {
    return (await this.c.agentBots.deleteOne({ _id: agentBotIdOf(agentId, platform) })).deletedCount === 1;
  }

  /** Every agent bot of a platform (the gateway's supervisor, on an interval; bounded). */
  all(platform: Platform): Promise<AgentBot[]> {
    return this.c.agentBots.find({ platform }).sort({ _id: 1 }).limit(MAX_AGENT_BOTS).toArray();
  }
}
