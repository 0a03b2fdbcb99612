// The bots one fake Telegram server serves, one per token: identity (getMe), update queue, long
// poll, webhook and command menus. Chats are not here: message ids are per chat in Telegram, so
// every bot shares them (see fakeTelegram.ts).
import type { UserFromGetMe } from 'grammy/types';
import { z } from 'zod';

export const updateSchema = z.looseObject({ update_id: z.number().int() });
const updateIdOf = (update: object): number => updateSchema.parse(update).update_id;

/** The identity of every token that was not given its own (`botUser` overrides it). */
export const DEFAULT_BOT: UserFromGetMe = {
  id: 7_000_000_001,
  is_bot: true,
  first_name: 'Fake Bot',
  username: 'fake_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

/** A per-token identity; a distinct id without a name gets a distinct name, so mentions stay unambiguous. */
export function namedBot(user: Partial<UserFromGetMe>): UserFromGetMe {
  const id = user.id ?? DEFAULT_BOT.id;
  const derived = id === DEFAULT_BOT.id ? {} : { first_name: `Fake Bot ${id}`, username: `fake_${id}_bot` };
  return { ...DEFAULT_BOT, ...derived, ...user };
}

/** `from` of a message the bot sent. */
export interface BotFrom {
  id: number;
  is_bot: true;
  first_name: string;
  username: string;
}

export interface Poller {
  limit: number;
  resolve: (updates: object[]) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class FakeBot {
  updates: object[] = [];
  poller: Poller | undefined;
  webhookUrl = '';
  webhookSecret: string | undefined;
  /** When the webhook was set, in setWebhook order across bots (deliverWebhook's default bot). */
  webhookSeq = 0;
  /** language_code ('' = the default list) → commands. */
  readonly commandsByLang = new Map<string, unknown>();
  /** True once the token has made a request: only such bots receive updates pushed to everyone. */
  active = false;
  private maxUpdateId = 0;
  private generatedUpTo = 0;

  constructor(
    readonly token: string,
    public me: UserFromGetMe,
  ) {}

  get from(): BotFrom {
    return { id: this.me.id, is_bot: true, first_name: this.me.first_name, username: this.me.username };
  }

  /** Queues an update and answers the pending long poll. */
  enqueue(update: object): void {
    // A test's own id at or below one this fake generated for bot-to-bot traffic would already be
    // confirmed by the bot's offset and silently dropped: number this bot's copy after it instead.
    const id = updateIdOf(update);
    this.add(id <= this.generatedUpTo ? { ...update, update_id: this.maxUpdateId + 1 } : update);
  }

  /** A message another bot sent, as Bot API 10 delivers it; Telegram numbers each bot's updates itself. */
  enqueueFromBot(message: object): void {
    this.generatedUpTo = this.maxUpdateId + 1;
    this.add({ update_id: this.generatedUpTo, message });
  }

  private add(update: object): void {
    this.maxUpdateId = Math.max(this.maxUpdateId, updateIdOf(update));
    this.updates.push(update);
    if (this.poller) this.poller.resolve(this.updates.slice(0, this.poller.limit));
  }
}

export interface BotsOptions {
  botUser?: Partial<UserFromGetMe>;
  bots?: Record<string, Partial<UserFromGetMe>>;
}

export class FakeBots {
  private readonly identities = new Map<string, UserFromGetMe>();
  private readonly byToken = new Map<string, FakeBot>();
  /** Updates pushed to everyone before any bot made a request: each token gets them on first sight. */
  private readonly unclaimed: object[] = [];
  private readonly defaultMe: UserFromGetMe;

  constructor(o: BotsOptions) {
    this.defaultMe = { ...DEFAULT_BOT, ...o.botUser };
    for (const [token, user] of Object.entries(o.bots ?? {})) this.identities.set(token, namedBot(user));
  }

  addBot(token: string, user: Partial<UserFromGetMe>): void {
    const me = namedBot(user);
    this.identities.set(token, me);
    const bot = this.byToken.get(token);
    if (bot) bot.me = me;
  }

  /** The token's bot, created on first use with everything pushed to everyone so far. */
  of(token: string): FakeBot {
    let bot = this.byToken.get(token);
    if (!bot) {
      bot = new FakeBot(token, this.identities.get(token) ?? this.defaultMe);
      for (const update of this.unclaimed) bot.enqueue(update);
      this.byToken.set(token, bot);
    }
    return bot;
  }

  /** The token made a request. */
  request(token: string): FakeBot {
    const bot = this.of(token);
    bot.active = true;
    return bot;
  }

  find(token: string): FakeBot | undefined {
    return this.byToken.get(token);
  }

  /** Bots in the order their tokens were first seen. */
  all(): FakeBot[] {
    return [...this.byToken.values()];
  }

  /**
   * With tokens: exactly those bots. Without: every bot that made a request; if none has yet, the
   * update waits for whichever token comes first (and also reaches bots already created by a
   * targeted push, which have inherited the earlier ones), so tests may push before the bot polls.
   */
  push(update: object, tokens?: readonly string[]): void {
    if (tokens) return tokens.forEach((t) => this.of(t).enqueue(update));
    const active = this.all().filter((b) => b.active);
    if (active.length > 0) return active.forEach((b) => b.enqueue(update));
    this.unclaimed.push(update);
    this.all().forEach((b) => b.enqueue(update));
  }

  /** Bot API 10 bot-to-bot: every other bot that made a request sees a bot's group message. */
  pushFromBot(sender: FakeBot, message: object): void {
    for (const bot of this.all()) {
      if (bot.active && bot.me.id !== sender.me.id) bot.enqueueFromBot(message);
    }
  }

  /** deliverWebhook's target: the named token, else the bot that set its webhook first. */
  webhookBot(token?: string): FakeBot | undefined {
    const set = this.all().filter((b) => b.webhookUrl !== '' && (token === undefined || b.token === token));
    return set.sort((a, b) => a.webhookSeq - b.webhookSeq)[0];
  }

  close(): void {
    for (const bot of this.all()) {
      if (bot.poller) clearTimeout(bot.poller.timer);
      bot.poller = undefined;
    }
  }
}
