// A local Discord: the REST API under /api/v10 (what discord.js and @discordjs/rest call), a
// gateway WebSocket on the same port (fakeDiscordGateway.ts) and a CDN for attachments, so an
// unmodified discord.js Client and @discordjs/rest REST run against it. It keeps each channel's
// messages (what a user sees: text, author or webhook name, order), echoes messages created over
// REST to the gateway as Discord does, and enforces rate limits (fakeDiscordRateLimits.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ChannelType,
  MessageType,
  type APIAttachment,
  type APIChannel,
  type APIMessage,
  type APIUser,
  type APIWebhook,
} from 'discord.js';
import { z } from 'zod';
import { makeWorld, snowflake, type DiscordWorld } from '../fixtures/discordDispatches.js';
import { FakeGateway } from './fakeDiscordGateway.js';
import { RateLimiter, type BucketLimit, type BucketName, type Headers } from './fakeDiscordRateLimits.js';

export const TEST_DISCORD_TOKEN = 'MTAwMDAwMDAwMDAwMDAwMDAw.GfakeX.fake-discord-token-for-tests-only-0000';
export const MAX_CONTENT = 2000;

export interface RestCall {
  method: string;
  /** Route template, e.g. `POST /channels/:id/messages`. */
  route: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  status: number;
  at: number;
  /** Whether the request carried our bot token. */
  authorized: boolean;
}

export interface ShownMessage {
  id: string;
  channelId: string;
  content: string;
  authorId: string;
  /** The name users see: the webhook's per-message username, or the author's username. */
  username: string;
  avatarUrl?: string;
  webhookId?: string;
  bot: boolean;
  edited: boolean;
  replyTo?: string;
}

export interface RateLimitHit {
  route: string;
  major: string;
  global: boolean;
  retryAfterSec: number;
  at: number;
}

export interface FakeDiscordOptions {
  token?: string;
  world?: DiscordWorld;
  limits?: Partial<Record<BucketName, BucketLimit>>;
  globalPerSecond?: number;
  heartbeatIntervalMs?: number;
  /** Echo messages created over REST to the gateway as MESSAGE_CREATE/UPDATE (Discord does). */
  echo?: boolean;
  /** Privileged intents the application may use (default: all); identifying with others closes 4014. */
  privilegedIntents?: number;
}

export interface FakeDiscord {
  /** What DISCORD_API_ROOT should be (REST calls go to `${apiRoot}/v10/...`). */
  apiRoot: string;
  /** Origin of the fake CDN (attachments, stickers). */
  baseUrl: string;
  gatewayUrl: string;
  token: string;
  world: DiscordWorld;
  requests: RestCall[];
  requestsTo(route: string): RestCall[];
  /** Every 429 answered (bucket exhaustion, global limit and scripted ones). */
  rateLimited: RateLimitHit[];
  /** Pushes a gateway dispatch (e.g. MESSAGE_CREATE) and records its effect on channel state. */
  dispatch(t: string, d: object): void;
  /** The next request on `route` (a template such as `POST /channels/:id/messages`) fails. */
  failNext(route: string, status: number, body: object, o?: { afterProcessing?: boolean }): void;
  /** What a user sees in a channel or thread, oldest first. */
  messages(channelId: string): ShownMessage[];
  webhooksOf(channelId: string): APIWebhook[];
  /** A moderator deletes a webhook (its messages stay, but can no longer be edited through it). */
  deleteWebhook(id: string): void;
  /** Stores bytes on the CDN and returns the attachment object a message would carry. */
  registerAttachment(o: {
    channelId: string;
    filename: string;
    contentType?: string;
    data: Buffer;
    chunked?: boolean;
  }): APIAttachment;
  registerSticker(id: string, data: Buffer): void;
  /** Signed CDN URLs expire: every URL handed out so far stops working (refresh-urls renews them). */
  expireAttachmentUrls(): void;
  addTextChannel(name: string): string;
  gateway: FakeGateway;
  waitFor(pred: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

/** An error answer in Discord's JSON shape. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}
const apiError = (status: number, code: number, message: string): ApiError => new ApiError(status, { message, code });
const formError = (field: string, code: string, message: string): ApiError =>
  new ApiError(400, {
    message: 'Invalid Form Body',
    code: 50035,
    errors: { [field]: { _errors: [{ code, message }] } },
  });

const allowedMentions = z
  .object({
    parse: z.array(z.enum(['users', 'roles', 'everyone'])).optional(),
    users: z.array(z.string()).optional(),
    roles: z.array(z.string()).optional(),
    replied_user: z.boolean().optional(),
  })
  .optional();
const createMessageBody = z.looseObject({
  content: z.string().optional(),
  nonce: z.union([z.string().max(25), z.number().int()]).optional(),
  enforce_nonce: z.boolean().optional(),
  tts: z.boolean().optional(),
  allowed_mentions: allowedMentions,
  message_reference: z
    .looseObject({
      message_id: z.string(),
      channel_id: z.string().optional(),
      guild_id: z.string().optional(),
      fail_if_not_exists: z.boolean().optional(),
    })
    .optional(),
  embeds: z.array(z.unknown()).optional(),
});
const editMessageBody = z.looseObject({
  content: z.string().nullable().optional(),
  allowed_mentions: allowedMentions,
  embeds: z.array(z.unknown()).optional(),
});
const createWebhookBody = z.looseObject({ name: z.string(), avatar: z.string().nullable().optional() });
const executeWebhookBody = z.looseObject({
  content: z.string().optional(),
  username: z.string().optional(),
  avatar_url: z.string().optional(),
  tts: z.boolean().optional(),
  allowed_mentions: allowedMentions,
  embeds: z.array(z.unknown()).optional(),
});
const refreshBody = z.object({ attachment_urls: z.array(z.string()).min(1).max(50) });
const anyMessage = z.looseObject({ id: z.string(), channel_id: z.string(), content: z.string().optional() });
const deletion = z.looseObject({ id: z.string(), channel_id: z.string() });

interface Stored {
  message: APIMessage & { guild_id?: string };
  avatarUrl?: string;
  nonce?: string;
}
interface ChannelState {
  channel: APIChannel & { guild_id?: string; parent_id?: string | null };
  messages: Stored[];
}
interface Hook {
  webhook: APIWebhook & { token: string };
}
interface CdnFile {
  data: Buffer;
  contentType: string;
  chunked: boolean;
}
interface Failure {
  status: number;
  body: object;
  afterProcessing: boolean;
}

type Handler = (ctx: { params: string[]; query: URLSearchParams; body: unknown }) => { status: number; body?: unknown };
interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  bucket: BucketName;
  /** Index of the major parameter in the match (channel or webhook id/token); -1 = none. */
  major: number;
  /** Webhook-token routes need no bot token. */
  auth: boolean;
  handle: Handler;
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      if (raw.trim() === '') return resolve(undefined);
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        return reject(apiError(400, 50109, 'The request body contains invalid JSON.'));
      try {
        resolve(JSON.parse(raw));
      } catch {
        reject(apiError(400, 50109, 'The request body contains invalid JSON.'));
      }
    });
  });
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    throw formError(String(issue?.path[0] ?? '_'), 'BASE_TYPE_BAD', issue?.message ?? 'Invalid');
  }
  return r.data;
}

function checkContent(content: string | undefined, hasOther: boolean): void {
  if ((content === undefined || content === '') && !hasOther)
    throw apiError(400, 50006, 'Cannot send an empty message');
  if (content !== undefined && content.length > MAX_CONTENT)
    throw formError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT} or fewer in length.`);
}

/** Discord refuses webhook and per-message names containing these (and "everyone"/"here"). */
function checkName(field: string, name: string): void {
  if (name.length < 1 || name.length > 80)
    throw formError(field, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 80 in length.');
  if (/clyde|discord/i.test(name) || /^(everyone|here)$/i.test(name))
    throw formError(field, 'USERNAME_INVALID_CONTAINS', `${field} cannot contain "discord" or "clyde"`);
}

export async function startFakeDiscord(opts: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const token = opts.token ?? TEST_DISCORD_TOKEN;
  const world = opts.world ?? makeWorld();
  const echo = opts.echo ?? true;
  const limiter = new RateLimiter(opts.limits, opts.globalPerSecond);
  const requests: RestCall[] = [];
  const rateLimited: RateLimitHit[] = [];
  const failures = new Map<string, Failure[]>();
  const channels = new Map<string, ChannelState>();
  const hooks = new Map<string, Hook>();
  const cdn = new Map<string, CdnFile>();
  const stickers = new Map<string, Buffer>();
  let cdnSecret = randomBytes(8).toString('hex');
  let baseUrl = '';
  const bot = world.bot;

  for (const c of [...world.guildCreate.channels, ...world.guildCreate.threads])
    channels.set(c.id, { channel: { ...c, guild_id: world.guildId }, messages: [] });
  channels.set(world.dmId, {
    channel: { id: world.dmId, type: ChannelType.DM, name: null, last_message_id: null, recipients: [world.alice] },
    messages: [],
  });

  const channelOr404 = (id: string | undefined): ChannelState => {
    const c = id === undefined ? undefined : channels.get(id);
    if (!c) throw apiError(404, 10003, 'Unknown Channel');
    return c;
  };
  const isThread = (c: ChannelState): boolean =>
    [ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread].includes(c.channel.type);
  const guildOf = (c: ChannelState): string | undefined => c.channel.guild_id;
  const botMember = () => ({
    roles: [world.botRoleId],
    joined_at: new Date().toISOString(),
    deaf: false,
    mute: false,
    flags: 0,
    nick: null,
    avatar: null,
    banner: null,
  });

  function record(state: ChannelState, stored: Stored): void {
    state.messages.push(stored);
    if (echo) {
      const guildId = guildOf(state);
      const member = guildId && !stored.message.webhook_id ? { member: botMember() } : {};
      gateway.dispatch('MESSAGE_CREATE', {
        ...stored.message,
        ...member,
        ...(guildId ? { guild_id: guildId } : {}),
        channel_type: state.channel.type,
      });
    }
  }
  function echoUpdate(state: ChannelState, stored: Stored): void {
    const guildId = guildOf(state);
    if (echo) gateway.dispatch('MESSAGE_UPDATE', { ...stored.message, ...(guildId ? { guild_id: guildId } : {}) });
  }
  function newMessage(
    state: ChannelState,
    author: APIUser,
    content: string,
    extra: Partial<APIMessage> = {},
  ): APIMessage & { guild_id?: string } {
    const guildId = guildOf(state);
    return {
      id: snowflake(),
      channel_id: state.channel.id,
      ...(guildId ? { guild_id: guildId } : {}),
      author,
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      type: MessageType.Default,
      ...extra,
    };
  }
  const findMessage = (state: ChannelState, id: string | undefined): Stored => {
    const found = state.messages.find((m) => m.message.id === id);
    if (!found) throw apiError(404, 10008, 'Unknown Message');
    return found;
  };
  const hookOr404 = (id: string | undefined, hookToken: string | undefined): Hook => {
    const hook = id === undefined ? undefined : hooks.get(id);
    if (!hook) throw apiError(404, 10015, 'Unknown Webhook');
    if (hook.webhook.token !== hookToken) throw apiError(401, 50027, 'Invalid Webhook Token');
    return hook;
  };
  /** A webhook posts in its own channel, or in a thread of it when thread_id is given. */
  const webhookTarget = (hook: Hook, query: URLSearchParams): ChannelState => {
    const threadId = query.get('thread_id');
    if (threadId === null) return channelOr404(hook.webhook.channel_id ?? undefined);
    const thread = channels.get(threadId);
    if (!thread || !isThread(thread) || thread.channel.parent_id !== hook.webhook.channel_id)
      throw apiError(400, 10003, 'Unknown Channel');
    return thread;
  };
  const signed = (path: string): string => {
    const ex = Math.floor(Date.now() / 1000 + 86_400).toString(16);
    const hm = createHmac('sha256', cdnSecret).update(path).digest('hex').slice(0, 32);
    return `${baseUrl}${path}?ex=${ex}&is=${Math.floor(Date.now() / 1000).toString(16)}&hm=${hm}&`;
  };

  const routes: Route[] = [];
  const route = (
    method: string,
    template: string,
    bucket: BucketName,
    handle: Handler,
    o: { major?: number; auth?: boolean } = {},
  ): void => {
    const pattern = new RegExp(`^${template.replace(/:\w+/g, '([^/]+)')}$`);
    routes.push({ method, template, pattern, bucket, major: o.major ?? -1, auth: o.auth ?? true, handle });
  };

  route('GET', '/gateway/bot', 'other', () => ({
    status: 200,
    body: {
      url: gatewayUrl,
      shards: 1,
      session_start_limit: {
        total: 1000,
        remaining: 1000 - gateway.identifies,
        reset_after: 86_400_000,
        max_concurrency: 1,
      },
    },
  }));
  route('GET', '/gateway', 'other', () => ({ status: 200, body: { url: gatewayUrl } }), { auth: false });
  route('GET', '/users/@me', 'other', () => ({
    status: 200,
    body: { ...bot, verified: true, mfa_enabled: false, flags: 0 },
  }));
  route('GET', '/channels/:id', 'other', ({ params }) => ({ status: 200, body: channelOr404(params[0]).channel }), {
    major: 0,
  });

  route(
    'POST',
    '/channels/:id/messages',
    'messageCreate',
    ({ params, body }) => {
      const state = channelOr404(params[0]);
      const b = parse(createMessageBody, body);
      checkContent(b.content, (b.embeds ?? []).length > 0);
      const nonce = b.nonce === undefined ? undefined : String(b.nonce);
      if (b.enforce_nonce && nonce !== undefined) {
        const same = state.messages.find((m) => m.nonce === nonce && m.message.author.id === bot.id);
        if (same) return { status: 200, body: same.message };
      }
      let extra: Partial<APIMessage> = {};
      if (b.message_reference) {
        const ref = state.messages.find((m) => m.message.id === b.message_reference?.message_id);
        if (!ref && b.message_reference.fail_if_not_exists !== false)
          throw formError('message_reference', 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message');
        if (ref) {
          const guildId = guildOf(state);
          extra = {
            type: MessageType.Reply,
            message_reference: {
              type: 0,
              message_id: ref.message.id,
              channel_id: state.channel.id,
              ...(guildId ? { guild_id: guildId } : {}),
            },
            referenced_message: ref.message,
          };
        }
      }
      const message = newMessage(state, bot, b.content ?? '', { ...extra, ...(nonce !== undefined ? { nonce } : {}) });
      record(state, { message, ...(nonce !== undefined ? { nonce } : {}) });
      return { status: 200, body: message };
    },
    { major: 0 },
  );
  route(
    'PATCH',
    '/channels/:id/messages/:mid',
    'messageEdit',
    ({ params, body }) => {
      const state = channelOr404(params[0]);
      const stored = findMessage(state, params[1]);
      const b = parse(editMessageBody, body);
      if (stored.message.author.id !== bot.id || stored.message.webhook_id)
        throw apiError(403, 50005, 'Cannot edit a message authored by another user');
      if (b.content !== undefined && b.content !== null) {
        checkContent(b.content, stored.message.embeds.length > 0);
        stored.message = { ...stored.message, content: b.content, edited_timestamp: new Date().toISOString() };
      }
      echoUpdate(state, stored);
      return { status: 200, body: stored.message };
    },
    { major: 0 },
  );
  route('POST', '/channels/:id/typing', 'typing', ({ params }) => (channelOr404(params[0]), { status: 204 }), {
    major: 0,
  });

  const webhookChannel = (id: string | undefined): ChannelState => {
    const state = channelOr404(id);
    if (state.channel.type === ChannelType.DM) throw apiError(403, 50003, 'Cannot execute action on a DM channel');
    if (isThread(state)) throw apiError(400, 50024, 'Cannot execute action on this channel type');
    return state;
  };
  route(
    'GET',
    '/channels/:id/webhooks',
    'webhooks',
    ({ params }) => {
      const state = webhookChannel(params[0]);
      return {
        status: 200,
        body: [...hooks.values()].filter((h) => h.webhook.channel_id === state.channel.id).map((h) => h.webhook),
      };
    },
    { major: 0 },
  );
  route(
    'POST',
    '/channels/:id/webhooks',
    'webhooks',
    ({ params, body }) => {
      const state = webhookChannel(params[0]);
      const b = parse(createWebhookBody, body);
      checkName('name', b.name);
      if ([...hooks.values()].filter((h) => h.webhook.channel_id === state.channel.id).length >= 15) {
        throw apiError(400, 30007, 'Maximum number of webhooks reached (15)');
      }
      const webhook = {
        id: snowflake(),
        type: 1,
        guild_id: guildOf(state) ?? null,
        channel_id: state.channel.id,
        user: bot,
        name: b.name,
        avatar: null,
        token: randomBytes(32).toString('base64url'),
        application_id: bot.id,
      } satisfies APIWebhook & { token: string };
      hooks.set(webhook.id, { webhook });
      return { status: 200, body: webhook };
    },
    { major: 0 },
  );
  route(
    'POST',
    '/webhooks/:id/:token',
    'webhookExecute',
    ({ params, query, body }) => {
      const hook = hookOr404(params[0], params[1]);
      const state = webhookTarget(hook, query);
      const b = parse(executeWebhookBody, body);
      checkContent(b.content, (b.embeds ?? []).length > 0);
      if (b.username !== undefined) checkName('username', b.username);
      const author: APIUser = {
        id: hook.webhook.id,
        username: b.username ?? hook.webhook.name ?? 'Captain Hook',
        discriminator: '0000',
        global_name: null,
        avatar: null,
        bot: true,
      };
      const message = newMessage(state, author, b.content ?? '', {
        webhook_id: hook.webhook.id,
        application_id: bot.id,
      });
      record(state, { message, ...(b.avatar_url !== undefined ? { avatarUrl: b.avatar_url } : {}) });
      return query.get('wait') === 'true' ? { status: 200, body: message } : { status: 204 };
    },
    { major: 0, auth: false },
  );
  route(
    'PATCH',
    '/webhooks/:id/:token/messages/:mid',
    'webhookEdit',
    ({ params, query, body }) => {
      const hook = hookOr404(params[0], params[1]);
      const state = webhookTarget(hook, query);
      const stored = findMessage(state, params[2]);
      if (stored.message.webhook_id !== hook.webhook.id) throw apiError(404, 10008, 'Unknown Message');
      const b = parse(editMessageBody, body);
      if (b.content !== undefined && b.content !== null) {
        checkContent(b.content, stored.message.embeds.length > 0);
        stored.message = { ...stored.message, content: b.content, edited_timestamp: new Date().toISOString() };
      }
      echoUpdate(state, stored);
      return { status: 200, body: stored.message };
    },
    { major: 0, auth: false },
  );
  route('POST', '/attachments/refresh-urls', 'other', ({ body }) => {
    const b = parse(refreshBody, body);
    return {
      status: 200,
      body: {
        refreshed_urls: b.attachment_urls.map((original) => {
          const path = new URL(original).pathname;
          return { original, refreshed: cdn.has(path) ? signed(path) : original };
        }),
      },
    };
  });

  const failureKey = (method: string, template: string): string => `${method} ${template}`;

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname.slice('/api/v10'.length).split('/').map(decodeURIComponent).join('/') || '/'; // @discordjs/rest sends /users/%40me
    const match = routes.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
    const found = match.find((x) => x.r.method === method);
    const call: RestCall = {
      method,
      route: found ? failureKey(method, found.r.template) : `${method} ${path}`,
      path,
      query: url.searchParams,
      body: undefined,
      status: 0,
      at: Date.now(),
      authorized: false,
    };
    requests.push(call);
    const reply = (status: number, body: unknown, headers: Headers = {}): void => {
      call.status = status;
      if (res.destroyed) return;
      res.writeHead(status, { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    try {
      call.body = await readBody(req);
      if (!found) {
        if (match.length > 0) return reply(405, { message: '405: Method Not Allowed', code: 0 });
        return reply(404, { message: '404: Not Found', code: 0 });
      }
      const { r, m } = found as { r: Route; m: RegExpExecArray };
      const params = m.slice(1);
      call.authorized = req.headers.authorization === `Bot ${token}`;
      if (r.auth && !call.authorized) return reply(401, { message: '401: Unauthorized', code: 0 });

      const major =
        r.major < 0 ? 'global' : r.bucket.startsWith('webhook') ? `${params[0]}/${params[1]}` : (params[r.major] ?? '');
      const failure = failures.get(call.route)?.shift();
      if (failure && !failure.afterProcessing) return answerFailure(failure, r, major, call, reply);
      const taken = limiter.take(r.bucket, major, r.auth ? token : undefined);
      if (!taken.ok) {
        rateLimited.push({
          route: call.route,
          major,
          global: taken.global,
          retryAfterSec: taken.retryAfterSec,
          at: Date.now(),
        });
        const retryAfter = Number(taken.retryAfterSec.toFixed(3));
        return reply(
          429,
          { message: 'You are being rate limited.', retry_after: retryAfter, global: taken.global },
          { ...taken.headers, 'Retry-After': String(Math.ceil(retryAfter)) },
        );
      }
      const out = r.handle({ params, query: url.searchParams, body: call.body });
      if (failure) return answerFailure(failure, r, major, call, reply);
      reply(out.status, out.body, taken.headers);
    } catch (err) {
      if (err instanceof ApiError) return reply(err.status, err.body);
      throw err;
    }
  }

  function answerFailure(
    f: Failure,
    r: Route,
    major: string,
    call: RestCall,
    reply: (s: number, b: unknown, h?: Headers) => void,
  ): void {
    if (f.status !== 429) return reply(f.status, f.body);
    const body = z.looseObject({ retry_after: z.number(), global: z.boolean().optional() }).parse(f.body);
    rateLimited.push({
      route: call.route,
      major,
      global: body.global ?? false,
      retryAfterSec: body.retry_after,
      at: Date.now(),
    });
    const headers = RateLimiter.exhausted(r.bucket, limiter.limitOf(r.bucket), body.retry_after, body.global ?? false);
    reply(429, f.body, { ...headers, 'Retry-After': String(Math.ceil(body.retry_after)) });
  }

  function handleCdn(res: ServerResponse, url: URL): void {
    const sticker = /^\/stickers\/(\d+)\.(png|gif|json)$/.exec(url.pathname);
    if (sticker?.[1] && stickers.has(sticker[1])) {
      res.writeHead(200, { 'content-type': sticker[2] === 'json' ? 'application/json' : `image/${sticker[2]}` });
      return void res.end(stickers.get(sticker[1]));
    }
    const file = cdn.get(url.pathname);
    const expected = createHmac('sha256', cdnSecret).update(url.pathname).digest('hex').slice(0, 32);
    if (!file || url.searchParams.get('hm') !== expected) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('This content is no longer available.');
    }
    if (!file.chunked) {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) });
      return void res.end(file.data);
    }
    // No content-length: the client only learns the size by reading.
    res.writeHead(200, { 'content-type': file.contentType });
    let at = 0;
    const pump = (): void => {
      while (at < file.data.length && !res.destroyed) {
        const more = res.write(file.data.subarray(at, at + 16_384));
        at += 16_384;
        if (!more) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/v10/')) {
      handleApi(req, res, url).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `500: Internal Server Error (${String(err)})`, code: 0 }));
      });
      return;
    }
    if (req.method === 'GET') return handleCdn(res, url);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  const gatewayUrl = `ws://127.0.0.1:${port}`;
  const gateway = new FakeGateway(server, {
    token,
    botUser: bot,
    guilds: [world.guildCreate],
    heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 41_250,
    url: gatewayUrl,
    privilegedIntents: opts.privilegedIntents ?? ~0,
  });

  const shown = (s: Stored): ShownMessage => ({
    id: s.message.id,
    channelId: s.message.channel_id,
    content: s.message.content,
    authorId: s.message.author.id,
    username: s.message.author.username,
    ...(s.avatarUrl !== undefined ? { avatarUrl: s.avatarUrl } : {}),
    ...(s.message.webhook_id ? { webhookId: s.message.webhook_id } : {}),
    bot: s.message.author.bot === true,
    edited: s.message.edited_timestamp !== null,
    ...(s.message.message_reference?.message_id ? { replyTo: s.message.message_reference.message_id } : {}),
  });

  let closed: Promise<void> | undefined;
  return {
    apiRoot: `${baseUrl}/api`,
    baseUrl,
    gatewayUrl,
    token,
    world,
    requests,
    requestsTo: (r) => requests.filter((c) => c.route === r),
    rateLimited,
    gateway,
    dispatch(t, d) {
      // Keep the channel state in step with what users posted, so replies and edits find them.
      if (t === 'MESSAGE_CREATE') {
        const m = anyMessage.safeParse(d);
        const state = m.success ? channels.get(m.data.channel_id) : undefined;
        if (state) state.messages.push({ message: d as APIMessage }); // test-built payloads: shape checked by their types
      } else if (t === 'MESSAGE_UPDATE') {
        const m = anyMessage.safeParse(d);
        const stored = m.success
          ? channels.get(m.data.channel_id)?.messages.find((x) => x.message.id === m.data.id)
          : undefined;
        if (stored && m.success) stored.message = { ...stored.message, ...(d as Partial<APIMessage>) };
      } else if (t === 'MESSAGE_DELETE') {
        const m = deletion.safeParse(d);
        const state = m.success ? channels.get(m.data.channel_id) : undefined;
        if (state && m.success) state.messages = state.messages.filter((x) => x.message.id !== m.data.id);
      }
      gateway.dispatch(t, d);
    },
    failNext(r, status, body, o = {}) {
      failures.set(r, [...(failures.get(r) ?? []), { status, body, afterProcessing: o.afterProcessing ?? false }]);
    },
    messages: (channelId) => (channels.get(channelId)?.messages ?? []).map(shown),
    webhooksOf: (channelId) =>
      [...hooks.values()].filter((h) => h.webhook.channel_id === channelId).map((h) => h.webhook),
    deleteWebhook(id) {
      hooks.delete(id);
    },
    registerAttachment(o) {
      const id = snowflake();
      const path = `/attachments/${o.channelId}/${id}/${encodeURIComponent(o.filename)}`;
      const contentType = o.contentType ?? 'application/octet-stream';
      cdn.set(path, { data: o.data, contentType, chunked: o.chunked ?? false });
      return {
        id,
        filename: o.filename,
        size: o.data.length,
        url: signed(path),
        proxy_url: signed(path),
        ...(o.contentType ? { content_type: o.contentType } : {}),
      };
    },
    registerSticker(id, data) {
      stickers.set(id, data);
    },
    expireAttachmentUrls() {
      cdnSecret = randomBytes(8).toString('hex');
    },
    addTextChannel(name) {
      const id = snowflake();
      const channel = {
        id,
        type: ChannelType.GuildText,
        guild_id: world.guildId,
        name,
        position: channels.size,
        permission_overwrites: [],
        parent_id: null,
        nsfw: false,
        topic: null,
        last_message_id: null,
        rate_limit_per_user: 0,
      } as const;
      channels.set(id, { channel: { ...channel, permission_overwrites: [] }, messages: [] });
      gateway.dispatch('CHANNEL_CREATE', channel);
      return id;
    },
    async waitFor(pred, timeoutMs = 10_000, what = 'condition') {
      const deadline = Date.now() + timeoutMs;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error(`fakeDiscord: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close() {
      closed ??= (async () => {
        await gateway.close();
        await new Promise<void>((resolve, reject) => {
          server.close((err) => (err ? reject(err) : resolve()));
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
}
