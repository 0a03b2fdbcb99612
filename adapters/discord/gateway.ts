// The Discord gateway connection: a discord.js Client feeding translated messages to the core.
// Outbound replies do not use it (outbound.ts goes through REST), so only one process needs it.
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, Partials, type Message, type PartialMessage } from 'discord.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';
import { guardedStrategy } from './guardedStrategy.js';
import { translateCreate, translateDelete, translateUpdate, type TranslateResult } from './translate.js';

const dispatchSchema = z.object({
  data: z.looseObject({ t: z.string(), d: z.looseObject({ id: z.unknown() }).nullish() }),
});

export interface DiscordGatewayOptions {
  token: string;
  /** REST base without /v10 (DISCORD_API_ROOT); the gateway URL is asked from it. */
  apiRoot: string;
  /** CDN and media proxy base for sticker URLs; Discord's by default (tests point it at the fake). */
  cdnRoot?: string;
  log: Logger;
  onInbound(event: InboundEventInput): Promise<void>;
  /**
   * Drop what this bot itself posted — its own messages and those of webhooks its application
   * owns (persona messages), with their edits — instead of forwarding them as echoes. Off by
   * default: the core recognises echoes by sender.userId = recipient.userId and sender.webhookId.
   */
  dropOwnEchoes?: boolean;
}

export class DiscordGateway {
  readonly client: Client;
  /** Per-channel chains: a channel's events reach the core in gateway order (an edit never overtakes its message). */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly o: DiscordGatewayOptions) {
    this.client = new Client({
      // MessageContent is privileged: enable it for the application in the developer portal.
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.MessageContent,
        GatewayIntentBits.DirectMessages,
      ],
      // DM channels are not announced to bots, and deletes/edits may concern uncached messages.
      partials: [Partials.Channel, Partials.Message],
      rest: { api: o.apiRoot, ...(o.cdnRoot ? { cdn: o.cdnRoot, mediaProxy: o.cdnRoot } : {}) },
      allowedMentions: { parse: [] },
      ws: {
        buildStrategy: guardedStrategy((err, event, payload) => {
          const d = dispatchSchema.safeParse(payload);
          const what = d.success ? { type: d.data.data.t, id: d.data.data.d?.id } : {};
          o.log.warn({ err, event, ...what }, 'discord dispatch dropped: discord.js could not apply it');
        }),
      },
    });
    const c = this.client;
    c.on(Events.MessageCreate, (m) => this.forward(m, 'create', () => translateCreate(m)));
    c.on(Events.MessageUpdate, (old, m) => this.forward(m, 'update', () => translateUpdate(old, m)));
    c.on(Events.MessageDelete, (m) => this.forward(m, 'delete', () => translateDelete(m)));
    c.on(Events.MessageBulkDelete, (messages) => {
      for (const m of messages.values()) this.forward(m, 'delete', () => translateDelete(m));
    });
    c.on(Events.Error, (err) => o.log.error({ err }, 'discord client error'));
    c.on(Events.Warn, (message) => o.log.warn({ message }, 'discord client warning'));
    c.on(Events.ShardError, (err, shardId) => o.log.warn({ err, shardId }, 'discord gateway connection error'));
    c.on(Events.ShardDisconnect, (e, shardId) =>
      o.log.error({ code: e.code, shardId }, 'discord gateway closed for good (check the token and intents)'),
    );
    c.on(Events.ShardReconnecting, (shardId) => o.log.info({ shardId }, 'discord gateway reconnecting'));
    c.on(Events.ShardResume, (shardId, replayed) => o.log.info({ shardId, replayed }, 'discord gateway resumed'));
  }

  /** Connects; resolves once the client is ready (every guild received). */
  async start(): Promise<void> {
    const ready = once(this.client, Events.ClientReady);
    try {
      await this.client.login(this.o.token);
    } catch (err) {
      ready.catch(() => {}); // login failed: the ready wait is moot
      throw err;
    }
    await ready;
    this.o.log.info(
      { user: this.client.user?.username, guilds: this.client.guilds.cache.size },
      'discord gateway ready',
    );
  }

  async stop(): Promise<void> {
    await this.client.destroy();
    await Promise.allSettled([...this.chains.values()]);
  }

  /** Posted by this bot or through a webhook of its application (discord.js fills these from the payload). */
  private isOwnEcho(m: Message | PartialMessage): boolean {
    const me = this.client.user?.id;
    if (!me) return false;
    if (m.webhookId) return m.applicationId === (this.client.application?.id ?? me);
    return m.author?.id === me;
  }

  private forward(m: Message | PartialMessage, what: string, translate: () => TranslateResult): void {
    if (this.o.dropOwnEchoes && what !== 'delete' && this.isOwnEcho(m)) return;
    // Translate now: discord.js patches cached messages in place, so later would read later state.
    const t = translate();
    if (!t.ok) {
      this.o.log.warn({ messageId: m.id, channelId: m.channelId, what, reason: t.reason }, 'discord message dropped');
      return;
    }
    if (t.event === null) {
      this.o.log.debug({ messageId: m.id, what, ignored: t.ignored }, 'discord message ignored');
      return;
    }
    const event = t.event;
    // Paths of the malformed fields left out, never their values.
    if (t.warnings.length > 0)
      this.o.log.warn({ messageId: m.id, what, fields: t.warnings }, 'discord message: malformed fields dropped');
    const key = m.channelId;
    const prev = this.chains.get(key) ?? Promise.resolve();
    const next = prev.then(async () => {
      try {
        await this.o.onInbound(event);
      } catch (err) {
        this.o.log.error({ messageId: m.id, what, err }, 'discord message failed');
      }
    });
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }
}
