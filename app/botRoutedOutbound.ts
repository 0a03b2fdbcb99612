// Telegram's outbound as the core sees it: a private chat held by an agent's own bot
// (ChatRef.bot) is written to through that bot — replies, notices, typing — and every other
// chat through the deployment's. The core never chooses a bot; the chat names it. It offers what
// the deployment's channel offers (drafts, skippable pushes), so routing changes no pacing.
import type { ChatRef } from '../src/domain/model.js';
import { PlatformCallError, type OutboundChannel, type SendOptions } from '../src/delivery/outbound.js';
import { isSkippable, type SkippableOutbound } from '../src/delivery/pacedOutbound.js';
import type { AgentOutbounds } from './agentOutbounds.js';

export class BotRoutedOutbound implements SkippableOutbound {
  readonly platform: string;
  readonly maxMessageChars: number;
  readonly draft?: (chat: ChatRef, draftId: number, text: string) => Promise<void>;
  readonly tryDraft?: (chat: ChatRef, draftId: number, text: string) => Promise<boolean>;

  constructor(
    /** The deployment's bot; absent when it has no token (agents' bots may still run). */
    private readonly deployment: OutboundChannel | undefined,
    private readonly agentBots: Pick<AgentOutbounds, 'of'>,
    o: { platform: string; maxMessageChars: number; drafts: boolean },
  ) {
    this.platform = o.platform;
    this.maxMessageChars = deployment?.maxMessageChars ?? o.maxMessageChars;
    if (deployment ? deployment.draft !== undefined : o.drafts) {
      this.draft = async (chat, draftId, text) => {
        const channel = await this.via(chat);
        if (!channel.draft) throw this.unable('drafts');
        return channel.draft(chat, draftId, text);
      };
      this.tryDraft = async (chat, draftId, text) => {
        const channel = await this.via(chat);
        if (isSkippable(channel) && channel.tryDraft) return channel.tryDraft(chat, draftId, text);
        if (!channel.draft) throw this.unable('drafts');
        await channel.draft(chat, draftId, text);
        return true;
      };
    }
  }

  private unable(what: string): PlatformCallError {
    return new PlatformCallError(this.platform, undefined, `${what} are not supported here`);
  }

  private async via(chat: ChatRef): Promise<OutboundChannel> {
    const channel = chat.bot ? await this.agentBots.of(chat.bot, chat) : this.deployment;
    if (channel) return channel;
    const whose = chat.bot ? `agent ${chat.bot}'s bot` : "the deployment's bot";
    throw new PlatformCallError(this.platform, undefined, `${whose} is not configured on ${this.platform}`);
  }

  async send(chat: ChatRef, text: string, options?: SendOptions): Promise<{ platformMessageId: string }> {
    return (await this.via(chat)).send(chat, text, options);
  }

  async edit(chat: ChatRef, platformMessageId: string, text: string, options?: SendOptions): Promise<void> {
    return (await this.via(chat)).edit(chat, platformMessageId, text, options);
  }

  /** A streamed reply's intermediate push: skipped when the bot's budget is spent, as its channel decides. */
  async tryEdit(chat: ChatRef, platformMessageId: string, text: string, options?: SendOptions): Promise<boolean> {
    const channel = await this.via(chat);
    if (isSkippable(channel)) return channel.tryEdit(chat, platformMessageId, text, options);
    await channel.edit(chat, platformMessageId, text, options);
    return true;
  }

  async typing(chat: ChatRef): Promise<void> {
    return (await this.via(chat)).typing(chat);
  }
}
