// Replies to Discord through REST (@discordjs/rest), so any worker can deliver without a gateway
// connection. Plain messages come from the bot; a persona speaks through the channel's webhook
// with its own name and avatar. Platform message ids stay Discord's own ids (replies and echoes
// match them); which webhook sent a message is re-resolved from the channel when editing, so
// another process can edit it.
import { randomBytes } from 'node:crypto';
import { DiscordAPIError, HTTPError, RateLimitError, REST, Routes, type RateLimitData } from 'discord.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ChatRef } from '../../src/domain/model.js';
import {
  PlatformCallError,
  PlatformRateLimitedError,
  type OutboundChannel,
  type Persona,
  type SendOptions,
} from '../../src/delivery/outbound.js';

export const DISCORD_MAX_MESSAGE_CHARS = 2000;
export const DEFAULT_WEBHOOK_NAME = 'Rainbow Gateway';

/** Discord JSON error codes this adapter reacts to. */
const Code = {
  UnknownChannel: 10003,
  UnknownWebhook: 10015,
  UnknownMessage: 10008,
  NotAuthor: 50005,
  MissingPermissions: 50013,
  DmChannel: 50003,
  WrongChannelType: 50024,
} as const;
/** The channel cannot have webhooks for us: post as the bot instead. */
const NO_WEBHOOKS: number[] = [Code.DmChannel, Code.WrongChannelType, Code.MissingPermissions, Code.UnknownChannel];
const RECHECK_NO_WEBHOOK_MS = 10 * 60_000;

const messageSchema = z.looseObject({ id: z.string().min(1) });
const webhookSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().nullable(),
  token: z.string().min(1).optional(),
  application_id: z.string().nullable().optional(),
  user: z.looseObject({ id: z.string() }).optional(),
});
const meSchema = z.looseObject({ id: z.string().min(1) });

interface Hook {
  id: string;
  token: string;
}

export interface DiscordOutboundOptions {
  token: string;
  /** REST base without /v10 (DISCORD_API_ROOT). */
  apiRoot: string;
  log?: Logger;
  /** Name of the webhook our personas post through, one per channel, created on first use. */
  webhookName?: string;
  /**
   * Rate-limit waits up to this long happen inside the call (@discordjs/rest queues per bucket);
   * longer ones end the call with PlatformRateLimitedError so the core can reschedule.
   */
  maxRateLimitWaitMs?: number;
  timeoutMs?: number;
}

/** Discord's JSON error code of a failed call (checked after the call's error was translated). */
const codeOf = (err: unknown): number | undefined => {
  const api = err instanceof PlatformCallError ? err.cause : err;
  return api instanceof DiscordAPIError && typeof api.code === 'number' ? api.code : undefined;
};

/**
 * Discord's errors in the core's terms: a 429 that @discordjs/rest hands back instead of waiting
 * is PlatformRateLimitedError, another answer a PlatformCallError with its status (the original
 * is the cause). Anything else (the network) is returned as is.
 */
function mapError(err: unknown): unknown {
  if (err instanceof RateLimitError)
    return new PlatformRateLimitedError('discord', Math.max(0, err.retryAfter), err.global);
  if (err instanceof DiscordAPIError && err.status === 429) {
    const body = z.looseObject({ retry_after: z.number(), global: z.boolean().optional() }).safeParse(err.rawError);
    return new PlatformRateLimitedError(
      'discord',
      body.success ? body.data.retry_after * 1000 : 1000,
      body.success ? (body.data.global ?? false) : false,
    );
  }
  if (err instanceof DiscordAPIError || err instanceof HTTPError) {
    return new PlatformCallError('discord', err.status, err.message, { cause: err });
  }
  return err;
}

/** Discord refuses per-message names with "discord"/"clyde" in them, and over 80 characters. */
function displayName(persona: Persona, fallback: string): string {
  return (
    persona.name
      .replace(/discord|clyde/gi, '')
      .trim()
      .slice(0, 80) || fallback
  );
}

export class DiscordOutbound implements OutboundChannel {
  readonly platform = 'discord' as const;
  readonly maxMessageChars = DISCORD_MAX_MESSAGE_CHARS;
  /** Bot routes: retried on 5xx/timeouts, safe because sends carry an enforced nonce. */
  private readonly rest: REST;
  /** Webhook executes have no nonce, so a retry could post twice: never retried here. */
  private readonly hookRest: REST;
  private readonly webhookName: string;
  private readonly hooks = new Map<string, Promise<Hook[]>>();
  private me: Promise<string> | undefined;

  constructor(private readonly o: DiscordOutboundOptions) {
    const maxWait = o.maxRateLimitWaitMs ?? 10_000;
    const common = {
      api: o.apiRoot,
      version: '10',
      timeout: o.timeoutMs ?? 15_000,
      rejectOnRateLimit: (d: RateLimitData) => Math.max(d.retryAfter, d.timeToReset) > maxWait,
    };
    this.rest = new REST({ ...common, retries: 2 }).setToken(o.token);
    this.hookRest = new REST({ ...common, retries: 0 });
    this.webhookName = o.webhookName ?? DEFAULT_WEBHOOK_NAME;
  }

  async send(chat: ChatRef, text: string, options: SendOptions = {}): Promise<{ platformMessageId: string }> {
    if (options.persona) {
      const sent = await this.sendAsPersona(chat, text, options.persona);
      if (sent) return sent;
    }
    const body = {
      content: text,
      allowed_mentions: { parse: [] },
      // Discord returns the first message for a repeated nonce instead of posting again.
      nonce: randomBytes(12).toString('base64url'),
      enforce_nonce: true,
      ...(options.replyToPlatformMessageId
        ? { message_reference: { message_id: options.replyToPlatformMessageId, fail_if_not_exists: false } }
        : {}),
    };
    const sent = messageSchema.parse(
      await this.call(() => this.rest.post(Routes.channelMessages(chat.threadId ?? chat.chatId), { body })),
    );
    return { platformMessageId: sent.id };
  }

  async edit(chat: ChatRef, platformMessageId: string, text: string, options: SendOptions = {}): Promise<void> {
    // A persona message may still be the bot's own (posted where no webhook was possible).
    if (options.persona && (await this.editAsPersona(chat, platformMessageId, text))) return;
    try {
      await this.call(() =>
        this.rest.patch(Routes.channelMessage(chat.threadId ?? chat.chatId, platformMessageId), {
          body: { content: text, allowed_mentions: { parse: [] } },
        }),
      );
    } catch (err) {
      // A persona's message edited without its persona: it belongs to our webhook, not the bot.
      if (
        !options.persona &&
        codeOf(err) === Code.NotAuthor &&
        (await this.editAsPersona(chat, platformMessageId, text))
      )
        return;
      throw err;
    }
  }

  async typing(chat: ChatRef): Promise<void> {
    await this.call(() => this.rest.post(Routes.channelTyping(chat.threadId ?? chat.chatId)));
  }

  private async sendAsPersona(
    chat: ChatRef,
    text: string,
    persona: Persona,
  ): Promise<{ platformMessageId: string } | undefined> {
    for (let attempt = 1; ; attempt++) {
      const [hook] = await this.hooksOf(chat.chatId);
      if (!hook) return undefined;
      const query = new URLSearchParams({ wait: 'true', ...(chat.threadId ? { thread_id: chat.threadId } : {}) });
      const body = {
        content: text,
        username: displayName(persona, this.webhookName),
        ...(persona.avatarUrl ? { avatar_url: persona.avatarUrl } : {}),
        allowed_mentions: { parse: [] },
      };
      try {
        const sent = messageSchema.parse(
          await this.call(() => this.hookRest.post(Routes.webhook(hook.id, hook.token), { body, query, auth: false })),
        );
        return { platformMessageId: sent.id };
      } catch (err) {
        // Someone deleted our webhook: find or create it again, once.
        if (codeOf(err) !== Code.UnknownWebhook || attempt > 1) throw err;
        this.hooks.delete(chat.chatId);
      }
    }
  }

  /** Edits through whichever of our webhooks in the channel posted the message; false if none did. */
  private async editAsPersona(chat: ChatRef, platformMessageId: string, text: string): Promise<boolean> {
    const hooks = await this.hooksOf(chat.chatId);
    const query = new URLSearchParams(chat.threadId ? { thread_id: chat.threadId } : {});
    for (const hook of hooks) {
      try {
        await this.call(() =>
          this.hookRest.patch(Routes.webhookMessage(hook.id, hook.token, platformMessageId), {
            body: { content: text, allowed_mentions: { parse: [] } },
            query,
            auth: false,
          }),
        );
        return true;
      } catch (err) {
        // Two processes racing to create the webhook leave two: the message may be the other one's.
        if (codeOf(err) !== Code.UnknownMessage && codeOf(err) !== Code.UnknownWebhook) throw err;
      }
    }
    return false;
  }

  /** Our webhooks in a channel, oldest first (every process then picks the same one); [] = none possible. */
  private hooksOf(channelId: string): Promise<Hook[]> {
    let found = this.hooks.get(channelId);
    if (!found) {
      found = this.resolveHooks(channelId);
      this.hooks.set(channelId, found);
      found.catch(() => this.hooks.delete(channelId)); // a transient failure is retried next time
    }
    return found;
  }

  private async resolveHooks(channelId: string): Promise<Hook[]> {
    try {
      const me = await this.botId();
      const listed = z
        .array(webhookSchema)
        .parse(await this.call(() => this.rest.get(Routes.channelWebhooks(channelId))));
      const ours = listed
        .filter((w) => w.name === this.webhookName && (w.application_id === me || w.user?.id === me))
        .flatMap((w) => (w.token ? [{ id: w.id, token: w.token }] : []))
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      if (ours.length > 0) return ours;
      const created = webhookSchema.parse(
        await this.call(() => this.rest.post(Routes.channelWebhooks(channelId), { body: { name: this.webhookName } })),
      );
      if (!created.token) throw new Error('discord created a webhook without a token');
      return [{ id: created.id, token: created.token }];
    } catch (err) {
      const code = codeOf(err);
      if (code === undefined || !NO_WEBHOOKS.includes(code)) throw err;
      this.o.log?.warn({ channelId, code }, 'discord channel has no webhook for personas; posting as the bot');
      // A DM never gets webhooks; a permission may be granted later, so ask again in a while.
      if (code !== Code.DmChannel) setTimeout(() => this.hooks.delete(channelId), RECHECK_NO_WEBHOOK_MS).unref();
      return [];
    }
  }

  private botId(): Promise<string> {
    this.me ??= this.call(() => this.rest.get(Routes.user('@me'))).then((u) => meSchema.parse(u).id);
    this.me.catch(() => (this.me = undefined));
    return this.me;
  }

  private async call(fn: () => Promise<unknown>): Promise<unknown> {
    try {
      return await fn();
    } catch (err) {
      throw mapError(err);
    }
  }
}
