// One sending budget per chat and bot, shared by edits, new chunks and typing actions, and by every
// worker process: a Redis token bucket per (platform, chat, bot) plus one per (platform, bot) for
// the bot as a whole, both taken atomically by a Lua script on Redis's clock. Platforms limit each
// bot on its own (Telegram's 20 a minute in a group is per bot), so a room's agents, each with
// its own bot, never wait on each other's budget. A 429 blocks the chat (or the whole platform)
// for that bot, everywhere, until its retry_after has passed.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChatRef, Platform } from '../domain/model.js';
import type { PlatformLimits, PlatformRegistry } from '../platforms/platform.js';

export type { BucketRate, PlatformLimits } from '../platforms/platform.js';

export type BudgetScope = ChatRef | { platform: Platform; global: true };

/**
 * Which bot sends: an agent's own bot account (its id), else the deployment's bot. Each has its
 * own buckets and blocks.
 */
export type BudgetAccount = string | undefined;

export interface ChatBudget {
  /** Takes a token, waiting as long as needed (final pushes, new chunks). */
  take(chat: ChatRef, o?: { maxWaitMs?: number; account?: BudgetAccount }): Promise<void>;
  /** Takes a token if one is there now; false otherwise (intermediate edits, typing: skip them). */
  tryTake(chat: ChatRef, account?: BudgetAccount): Promise<boolean>;
  /** The platform said 429: this bot sends nothing to this chat (or on this platform) for `ms`. */
  block(scope: BudgetScope, ms: number, account?: BudgetAccount): Promise<void>;
}

/** Waited longer than allowed for a token (e.g. a platform flood wait of many minutes). */
export class DeliveryBudgetTimeoutError extends Error {
  override readonly name = 'DeliveryBudgetTimeoutError';
  readonly code = 'DELIVERY_BUDGET_TIMEOUT';
  constructor(chat: ChatRef, waitedMs: number) {
    super(`no sending budget for ${chat.platform} chat ${chat.chatId} after ${waitedMs} ms`);
  }
}

// KEYS: chat bucket, global bucket, chat block, global block.
// ARGV: chat rate (tokens/ms), chat burst, global rate, global burst.
// Returns 0 when a token was taken from both buckets, else the milliseconds to wait.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local blocked = math.max(redis.call('PTTL', KEYS[3]), redis.call('PTTL', KEYS[4]))
if blocked > 0 then return blocked end
local function level(key, rate, burst)
  local v = redis.call('HMGET', key, 'tokens', 'at')
  local tokens, at = tonumber(v[1]), tonumber(v[2])
  if tokens == nil or at == nil then return burst end
  return math.min(burst, tokens + math.max(0, now - at) * rate)
end
local function save(key, tokens, rate, burst)
  redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst / rate) + 1000)
end
local crate, cburst = tonumber(ARGV[1]), tonumber(ARGV[2])
local grate, gburst = tonumber(ARGV[3]), tonumber(ARGV[4])
local c = level(KEYS[1], crate, cburst)
local g = level(KEYS[2], grate, gburst)
if c >= 1 and g >= 1 then
  save(KEYS[1], c - 1, crate, cburst)
  save(KEYS[2], g - 1, grate, gburst)
  return 0
end
local wait = 1
if c < 1 then wait = math.max(wait, (1 - c) / crate) end
if g < 1 then wait = math.max(wait, (1 - g) / grate) end
return math.ceil(wait)
`;

// KEYS: block key. ARGV: ms. Only ever lengthens a block.
const BLOCK = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1
`;

const script = (source: string) => ({ source, sha: createHash('sha1').update(source).digest('hex') });
const TAKE_SCRIPT = script(TAKE);
const BLOCK_SCRIPT = script(BLOCK);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RedisChatBudgetOptions {
  /** Key prefix (the queue prefix), so deployments sharing a Redis do not share budgets. */
  prefix: string;
  /** Each platform's limits, group test and budget key (its adapter's descriptor). */
  platforms: PlatformRegistry;
  /** Overrides of a platform's limits (tests, a deployment with raised limits). */
  limits?: Partial<Record<Platform, PlatformLimits>>;
  /** Longest a take() waits before failing (default 5 minutes). */
  maxWaitMs?: number;
}

export class RedisChatBudget implements ChatBudget {
  private readonly maxWaitMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly o: RedisChatBudgetOptions,
  ) {
    this.maxWaitMs = o.maxWaitMs ?? 5 * 60_000;
  }

  async take(chat: ChatRef, o: { maxWaitMs?: number; account?: BudgetAccount } = {}): Promise<void> {
    const started = Date.now();
    const maxWaitMs = o.maxWaitMs ?? this.maxWaitMs;
    for (;;) {
      const wait = await this.attempt(chat, o.account);
      if (wait === 0) return;
      const waited = Date.now() - started;
      if (waited + wait > maxWaitMs) throw new DeliveryBudgetTimeoutError(chat, waited);
      // Jitter, so processes waiting on the same bucket do not all wake in the same millisecond.
      await sleep(wait + Math.floor(Math.random() * Math.min(50, 5 + wait / 5)));
    }
  }

  async tryTake(chat: ChatRef, account?: BudgetAccount): Promise<boolean> {
    return (await this.attempt(chat, account)) === 0;
  }

  async block(scope: BudgetScope, ms: number, account?: BudgetAccount): Promise<void> {
    const key =
      'global' in scope
        ? this.key(scope.platform, 'block:global', account)
        : this.key(scope.platform, `block:chat:${this.o.platforms.get(scope.platform).budgetKey(scope)}`, account);
    await this.run(BLOCK_SCRIPT, [key], [String(Math.max(1, Math.ceil(ms)))]);
  }

  private async attempt(chat: ChatRef, account: BudgetAccount): Promise<number> {
    const platform = this.o.platforms.get(chat.platform);
    const limits = this.o.limits?.[chat.platform] ?? platform.limits;
    const rate = platform.isGroupChat(chat) ? limits.groupChat : limits.privateChat;
    const id = platform.budgetKey(chat);
    const keys = [
      this.key(chat.platform, `chat:${id}`, account),
      this.key(chat.platform, 'global', account),
      this.key(chat.platform, `block:chat:${id}`, account),
      this.key(chat.platform, 'block:global', account),
    ];
    const args = [rate.perSecond / 1000, rate.burst, limits.global.perSecond / 1000, limits.global.burst].map(String);
    const wait = await this.run(TAKE_SCRIPT, keys, args);
    return typeof wait === 'number' ? wait : Number(wait);
  }

  /** The deployment's bot keeps the keys it always had; an agent's bot has its own. */
  private key(platform: Platform, rest: string, account: BudgetAccount): string {
    return `${this.o.prefix}:budget:${platform}:${account === undefined ? '' : `bot:${account}:`}${rest}`;
  }

  /** EVALSHA, loading the script on first use (or after a Redis restart). */
  private async run(s: { source: string; sha: string }, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return this.redis.eval(s.source, keys.length, ...keys, ...args);
    }
  }
}
