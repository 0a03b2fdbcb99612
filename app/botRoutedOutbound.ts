// Telegram's outbound as the core sees it: a private chat held by an agent's own bot
// (ChatRef.bot) is written to through that bot — replies, notices, typing — and every other
// chat through the deployment's. The core never chooses a bot; the chat names it.
import type { ChatRef } from '../src/domain/model.js';
import { PlatformCallError, type OutboundChannel, type SendOptions } from '../src/delivery/outbound.js';
import type { AgentOutbounds } from './agentOutbounds.js';

export class BotRoutedOutbound implements OutboundChannel {
  readonly platform: string;
  readonly maxMessageChars: number;

  constructor(
    /** The deployment's bot; absent when it has no token (agents' bots may still run). */
    private readonly deployment: OutboundChannel | undefined,
    private readonly agentBots: Pick<AgentOutbounds, 'of'>,
    o: { platform: string; maxMessageChars: number },
  ) {
    this.platform = o.platform;
    this.maxMessageChars = deployment?.maxMessageChars ?? o.maxMessageChars;
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

  async typing(chat: ChatRef): Promise<void> {
    return (await this.via(chat)).typing(chat);
  }

  async draft(chat: ChatRef, draftId: number, text: string): Promise<void> {
    const channel = await this.via(chat);
    if (!channel.draft) throw new PlatformCallError(this.platform, undefined, 'drafts are not supported here');
    return channel.draft(chat, draftId, text);
  }
}
