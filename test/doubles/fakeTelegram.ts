// A Telegram Bot API HTTP server on 127.0.0.1 so a real grammY Bot runs against it via `client: { apiRoot }`.
// It keeps per-chat message state, so tests can read what a user would currently see. It serves one
// bot per token (identity, updates, long poll, webhook: fakeTelegramBots.ts); chats are shared by all.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserFromGetMe } from 'grammy/types';
import { z } from 'zod';
import { FakeBots, updateSchema, type FakeBot, type Poller } from './fakeTelegramBots.js';
import { TelegramRateLimiter, type TelegramRateLimits } from './fakeTelegramRateLimits.js';

export interface BotApiCall {
  method: string;
  params: Record<string, unknown>;
  at: number;
  token: string;
}
export interface BotApiFailure {
  error_code: number;
  description: string;
  retry_after?: number;
}
export interface FakeTelegram {
  apiRoot: string;
  calls: BotApiCall[];
  callsOf(method: string): BotApiCall[];
  /**
   * Queues an update for exactly `tokens`; without them for every token that has made a request, or,
   * while none has, for whichever tokens come first (so tests may push before the bot polls).
   */
  pushUpdate(update: object, o?: { tokens?: string[] }): void;
  /** Gives a token its own identity (getMe, `from` of what it sends). */
  addBot(token: string, user: Partial<UserFromGetMe>): void;
  waitFor(pred: (calls: BotApiCall[]) => boolean, timeoutMs?: number): Promise<void>;
  failNext(method: string, error: BotApiFailure): void;
  sentText(chatId: number | string): string[];
  /** Texts bots sent into this chat, in message order, with the sending token and bot id. */
  sentBy(chatId: number | string): Array<{ token: string; botId: number; text: string }>;
  close(): Promise<void>;
  /** Requests answered 429 Too Many Requests (with the rateLimits option). */
  readonly tooManyRequests: number;
  /** Registers bytes served by getFile and the file download route (`/file/bot<token>/<file_path>`). */
  addFile(bytes: Buffer, o?: AddFileOptions): { file_id: string; file_unique_id: string; file_size: number };
  /** file_path of every file download served, in order. */
  downloads: string[];
  /** Drafts shown with sendMessageDraft in this chat, in order (visible text). */
  drafts(chatId: number | string): FakeDraft[];
  /**
   * Delivers an update to a registered webhook as Telegram does; `secret: null` omits the header.
   * `token` picks the bot; by default the one that set its webhook first.
   */
  deliverWebhook(
    update: object,
    o?: { secret?: string | null; token?: string },
  ): Promise<{ status: number; body: string }>;
  /** The command menu set for a language_code ('' = the default list), by `token` or else the first bot that set one. */
  /** A bot's menu for a language ('' = default) and scope type (default 'default'), as setMyCommands set it. */
  commandsFor(languageCode?: string, token?: string, scope?: string): unknown;
}
export interface AddFileOptions {
  file_id?: string;
  file_unique_id?: string;
  /** Decides the default file_path extension; the download itself is always application/octet-stream. */
  mime?: string;
  file_path?: string;
  /** false: getFile leaves file_size out (it is optional in the Bot API's File). */
  reportSize?: boolean;
}
export interface FakeDraft {
  draftId: number;
  text: string;
  threadId?: number;
}
export interface FakeTelegramOptions {
  /** Overrides for getMe of every token not in `bots`; `Partial<UserFromGetMe>` is a superset of `Partial<User>`. */
  botUser?: Partial<UserFromGetMe>;
  /** token → its own identity, for several bots at once (a distinct id without a username gets one). */
  bots?: Record<string, Partial<UserFromGetMe>>;
  /**
   * Bot API 10 bot-to-bot messaging: a bot's message in a group is also a `message` update for every
   * other bot that has made a request. Off by default, as in Telegram, where bots never see each other.
   */
  botToBot?: boolean;
  /** Enforce Telegram's flood limits (off by default). */
  rateLimits?: TelegramRateLimits;
}

/** Thrown by method handlers; becomes `{ ok: false, error_code, description }`. */
class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
  }
}
const bad = (what: string): ApiError => new ApiError(400, `Bad Request: ${what}`);

type Params = Record<string, unknown>;
interface StoredMessage {
  /** The bot that sent it (undefined: a user's); only that bot may edit it. */
  sender: { token: string; botId: number } | undefined;
  message: Record<string, unknown>;
  text: string | undefined;
  markup: string; // JSON of the inline keyboard, to detect "not modified"
}
interface ChatState {
  chat: Record<string, unknown>;
  lastId: number; // message ids are shared by user and bot messages, as in Telegram
  messages: Map<number, StoredMessage>;
}
const incomingSchema = z.looseObject({
  message_id: z.number().int(),
  chat: z.looseObject({ id: z.number() }),
  text: z.string().optional(),
});

/** A menu's key: its language ('' = default), prefixed by its scope type unless it is the default scope. */
function menuKey(p: Params): string {
  const lang = typeof p.language_code === 'string' ? p.language_code : '';
  const scope = typeof p.scope === 'string' ? (JSON.parse(p.scope) as unknown) : p.scope;
  const type =
    scope && typeof scope === 'object' && 'type' in scope && typeof scope.type === 'string' ? scope.type : 'default';
  return type === 'default' ? lang : `${type}:${lang}`;
}

const nowSec = (): number => Math.floor(Date.now() / 1000);
const intOf = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : undefined;
const isTrue = (v: unknown): boolean => v === true || v === 'true';

function checkText(v: unknown): string {
  const text = typeof v === 'string' ? v : '';
  if (text.trim() === '') throw bad('message text is empty');
  if (text.length > 4096) throw bad('message is too long');
  return text;
}
/** Only inline keyboards are echoed back on a Message; other markups are not stored. */
function inlineMarkup(v: unknown): object | undefined {
  const markup: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return typeof markup === 'object' && markup !== null && 'inline_keyboard' in markup ? markup : undefined;
}

/** Tags of Telegram's HTML parse mode (https://core.telegram.org/bots/api#html-style). */
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'tg-emoji',
  'code',
  'pre',
  'blockquote',
]);
const HTML_TAG =
  /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*>/y;
const HTML_ENTITY = /&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/y;
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** What a user sees for a parse_mode=HTML text; refuses what Telegram refuses, with its message. */
export function parseTelegramHtml(html: string): string {
  const refuse = (what: string): ApiError => bad(`can't parse entities: ${what}`);
  const at = (i: number): number => Buffer.byteLength(html.slice(0, i));
  const open: string[] = [];
  let out = '';
  for (let i = 0; i < html.length;) {
    const c = html[i]!;
    if (c === '<') {
      HTML_TAG.lastIndex = i;
      const m = HTML_TAG.exec(html);
      if (!m) throw refuse(`Unsupported start tag "" at byte offset ${at(i)}`);
      const name = (m[2] ?? '').toLowerCase();
      if (m[1]) {
        const top = open.pop();
        if (top === undefined) throw refuse(`Unexpected end tag at byte offset ${at(i)}`);
        if (top !== name)
          throw refuse(`Unmatched end tag at byte offset ${at(i)}, expected "</${top}>", found "</${name}>"`);
      } else {
        const spoiler = name !== 'span' || /class\s*=\s*["']?tg-spoiler/.test(m[3] ?? '');
        if (!HTML_TAGS.has(name) || !spoiler) throw refuse(`Unsupported start tag "${name}" at byte offset ${at(i)}`);
        open.push(name);
      }
      i += m[0].length;
      continue;
    }
    if (c === '&') {
      HTML_ENTITY.lastIndex = i;
      const m = HTML_ENTITY.exec(html);
      if (m) {
        const e = m[1] ?? '';
        out +=
          NAMED_ENTITIES[e] ?? String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  const unclosed = open.at(-1);
  if (unclosed !== undefined) throw refuse(`Can't find end tag corresponding to start tag "${unclosed}"`);
  return out;
}
/** The text as shown: parse_mode HTML is parsed (and may be refused); Markdown modes are stored as sent. */
function visibleText(p: Params): unknown {
  const mode = typeof p.parse_mode === 'string' ? p.parse_mode : '';
  if (mode === '' || /^markdown(v2)?$/i.test(mode)) return p.text;
  if (!/^html$/i.test(mode)) throw bad('unsupported parse_mode');
  return typeof p.text === 'string' ? parseTelegramHtml(p.text) : p.text;
}
const MIME_EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'audio/ogg': '.oga',
  'audio/mpeg': '.mp3',
  'video/mp4': '.mp4',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'text/markdown': '.md',
};
/** The Bot API's own download limit: getFile refuses larger files. */
const FILE_DOWNLOAD_LIMIT = 20 * 1024 * 1024;
interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_path: string;
  bytes: Buffer;
  reportSize: boolean;
}

/** JSON and urlencoded bodies become params (urlencoded JSON values are decoded, as Telegram does). */
async function readParams(req: IncomingMessage, query: URLSearchParams): Promise<Params> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(String(part)));
  const raw = Buffer.concat(parts).toString('utf8');
  const type = req.headers['content-type'] ?? '';
  const params: Params = {};
  const addForm = (form: URLSearchParams): void =>
    form.forEach((value, key) => {
      try {
        params[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
      } catch {
        params[key] = value;
      }
    });
  addForm(query);
  if (type.startsWith('multipart/')) params._multipart = type;
  else if (type.startsWith('application/x-www-form-urlencoded')) addForm(new URLSearchParams(raw));
  else if (raw.trim() !== '') {
    const body: unknown = JSON.parse(raw);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) Object.assign(params, body);
  }
  return params;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startFakeTelegram(opts: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const bots = new FakeBots(opts);
  let webhooksSet = 0;
  const calls: BotApiCall[] = [];
  const failures = new Map<string, BotApiFailure[]>();
  const chats = new Map<string, ChatState>();
  const files = new Map<string, StoredFile>();
  const downloads: string[] = [];
  const draftsByChat = new Map<string, FakeDraft[]>();

  function chatFor(chatId: unknown): ChatState {
    const key = typeof chatId === 'number' || typeof chatId === 'string' ? String(chatId) : '';
    if (key === '') throw bad('chat_id is empty');
    const id = intOf(key);
    if (id === undefined) throw bad('chat not found');
    let state = chats.get(key);
    if (!state) {
      const chat = id > 0 ? { id, type: 'private' } : { id, type: 'supergroup', title: 'Fake Group' };
      state = { chat, lastId: 0, messages: new Map() };
      chats.set(key, state);
    }
    return state;
  }
  /** Bots may delete others' messages (as group admins) but edit only their own. */
  function botMessage(p: Params, bot: FakeBot, what: 'edit' | 'delete'): { state: ChatState; stored: StoredMessage } {
    const state = chats.get(String(p.chat_id));
    const stored = state?.messages.get(intOf(p.message_id) ?? NaN);
    if (!state || !stored) throw bad(`message to ${what} not found`);
    if (what === 'edit' && stored.sender?.botId !== bot.me.id) throw bad("message can't be edited");
    return { state, stored };
  }

  function getUpdates(p: Params, bot: FakeBot, gone: AbortSignal): object[] | Promise<object[]> {
    if (bot.webhookUrl !== '') {
      throw new ApiError(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    // offset confirms everything before it; a negative offset keeps only the last -offset updates
    const offset = intOf(p.offset) ?? 0;
    if (offset > 0) bot.updates = bot.updates.filter((u) => updateSchema.parse(u).update_id >= offset);
    if (offset < 0) bot.updates = bot.updates.slice(offset);
    const limit = Math.min(100, Math.max(1, intOf(p.limit) ?? 100));
    const timeout = Math.max(0, intOf(p.timeout) ?? 0);
    if (bot.updates.length > 0 || timeout === 0) return bot.updates.slice(0, limit);

    // Only the same token's long poll is a second instance; other bots poll side by side.
    const conflict =
      'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';
    bot.poller?.reject(new ApiError(409, conflict));
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(self.timer);
        if (bot.poller === self) bot.poller = undefined;
      };
      const self: Poller = {
        limit,
        resolve: (u) => (settle(), resolve(u)),
        reject: (e) => (settle(), reject(e)),
        timer: setTimeout(() => self.resolve([]), timeout * 1000),
      };
      bot.poller = self;
      gone.addEventListener('abort', () => self.resolve([]), { once: true }); // client aborted the long poll
    });
  }

  /** Stores what a bot sent; with botToBot, the other bots in a group see it as an update. */
  function sent(bot: FakeBot, state: ChatState, message: Record<string, unknown>, text: string, markup: string): void {
    const sender = { token: bot.token, botId: bot.me.id };
    state.messages.set(intOf(message.message_id) ?? NaN, { sender, message, text, markup });
    if (opts.botToBot && (state.chat.type === 'group' || state.chat.type === 'supergroup')) {
      bots.pushFromBot(bot, message);
    }
  }

  const methods: Record<string, (p: Params, bot: FakeBot, gone: AbortSignal) => unknown> = {
    getMe: (_p, bot) => bot.me,
    getUpdates,
    setWebhook: (p, bot) => {
      const url = typeof p.url === 'string' ? p.url : '';
      if (bot.webhookUrl === '' && url !== '') bot.webhookSeq = ++webhooksSet;
      bot.webhookUrl = url;
      bot.webhookSecret = typeof p.secret_token === 'string' && p.secret_token !== '' ? p.secret_token : undefined;
      return true;
    },
    deleteWebhook: (p, bot) => {
      bot.webhookUrl = '';
      if (isTrue(p.drop_pending_updates)) bot.updates = [];
      return true;
    },
    getWebhookInfo: (_p, bot) => ({
      url: bot.webhookUrl,
      has_custom_certificate: false,
      pending_update_count: bot.updates.length,
      ...(bot.webhookUrl ? { max_connections: 40, ip_address: '127.0.0.1' } : {}),
    }),
    setMyCommands: (p, bot) => {
      bot.commandsByLang.set(menuKey(p), p.commands ?? []);
      return true;
    },
    getMyCommands: (p, bot) => bot.commandsByLang.get(menuKey(p)) ?? [],
    sendChatAction: (p) => (chatFor(p.chat_id), true),
    sendMessage: (p, bot) => {
      const state = chatFor(p.chat_id);
      const text = checkText(visibleText(p));
      const markup = inlineMarkup(p.reply_markup);
      const message = {
        message_id: ++state.lastId,
        from: bot.from,
        chat: state.chat,
        date: nowSec(),
        text,
        ...(markup ? { reply_markup: markup } : {}),
      };
      sent(bot, state, message, text, JSON.stringify(markup ?? null));
      return message;
    },
    editMessageText: (p, bot) => {
      const text = checkText(visibleText(p));
      if (p.inline_message_id !== undefined) return true;
      const { stored } = botMessage(p, bot, 'edit');
      const markup = inlineMarkup(p.reply_markup);
      if (text === stored.text && JSON.stringify(markup ?? null) === stored.markup) {
        throw bad(
          'message is not modified: specified new message content and reply markup of the message' +
            ' are exactly the same as a current content and reply markup of the message',
        );
      }
      const { reply_markup: _old, ...rest } = stored.message;
      stored.message = { ...rest, text, edit_date: nowSec(), ...(markup ? { reply_markup: markup } : {}) };
      stored.text = text;
      stored.markup = JSON.stringify(markup ?? null);
      return stored.message;
    },
    getFile: (p) => {
      const file = files.get(typeof p.file_id === 'string' ? p.file_id : '');
      if (!file) throw bad('invalid file_id');
      if (file.bytes.length > FILE_DOWNLOAD_LIMIT) throw bad('file is too big');
      const { file_id, file_unique_id, file_path } = file;
      return { file_id, file_unique_id, ...(file.reportSize ? { file_size: file.bytes.length } : {}), file_path };
    },
    sendMessageDraft: (p) => {
      const state = chatFor(p.chat_id);
      if (state.chat.type !== 'private') throw bad('TEXTDRAFT_PEER_INVALID');
      const draftId = intOf(p.draft_id);
      if (draftId === undefined || draftId === 0) throw bad('draft_id must be non-zero');
      const shown = visibleText(p);
      const text = typeof shown === 'string' ? shown : '';
      if (text.length > 4096) throw bad('message is too long');
      const threadId = intOf(p.message_thread_id);
      const key = String(p.chat_id);
      draftsByChat.set(key, [
        ...(draftsByChat.get(key) ?? []),
        { draftId, text, ...(threadId === undefined ? {} : { threadId }) },
      ]);
      return true;
    },
    deleteMessage: (p, bot) => {
      const { state } = botMessage(p, bot, 'delete');
      state.messages.delete(intOf(p.message_id) ?? NaN);
      return true;
    },
  };
  const byLowerName = new Map(Object.keys(methods).map((name) => [name.toLowerCase(), name]));

  /** `/file/bot<token>/<file_path>`, as the Bot API serves downloads. */
  function serveFile(pathname: string, res: ServerResponse): void {
    const m = /^\/file\/bot[^/]+\/(.+)$/.exec(pathname);
    const file = m?.[1] ? [...files.values()].find((f) => f.file_path === decodeURIComponent(m[1]!)) : undefined;
    if (!file) return send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    downloads.push(file.file_path);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(file.bytes.length) });
    res.end(file.bytes);
  }
  /** Remembers an incoming message so bot replies get the next shared message id and the real chat object. */
  function rememberIncoming(update: object): void {
    const u = update as Record<string, unknown>;
    const incoming = incomingSchema.safeParse(u.message ?? u.edited_message ?? u.channel_post);
    if (!incoming.success) return;
    const msg = incoming.data;
    const state = chatFor(msg.chat.id);
    state.chat = msg.chat;
    state.lastId = Math.max(state.lastId, msg.message_id);
    state.messages.set(msg.message_id, { sender: undefined, message: msg, text: msg.text, markup: 'null' });
  }

  const rateLimiter = opts.rateLimits ? new TelegramRateLimiter(opts.rateLimits) : undefined;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/file/')) return serveFile(url.pathname, res);
    const match = /^\/bot([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (!match?.[1] || !match[2]) return send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    const token = decodeURIComponent(match[1]);
    const name = byLowerName.get(match[2].toLowerCase()) ?? match[2]; // Bot API method names are case-insensitive
    let params: Params;
    try {
      params = await readParams(req, url.searchParams);
    } catch {
      return send(res, 400, { ok: false, error_code: 400, description: "Bad Request: can't parse JSON object" });
    }
    calls.push({ method: name, params, at: Date.now(), token });
    const bot = bots.request(token);

    const gone = new AbortController();
    res.on('close', () => gone.abort());
    try {
      const retryAfter = rateLimiter?.admit(name, params, token);
      if (retryAfter !== undefined) throw new ApiError(429, `Too Many Requests: retry after ${retryAfter}`, retryAfter);
      const failure = failures.get(name.toLowerCase())?.shift();
      if (failure) throw new ApiError(failure.error_code, failure.description, failure.retry_after);
      const fn = methods[name];
      if (!fn) throw new ApiError(404, 'Not Found');
      send(res, 200, { ok: true, result: await fn(params, bot, gone.signal) });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const parameters = err.retryAfter === undefined ? {} : { parameters: { retry_after: err.retryAfter } };
      send(res, err.code, { ok: false, error_code: err.code, description: err.description, ...parameters });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) =>
      send(res, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${String(err)}` }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** What bots sent into the chat and is still there, in message order. */
  function sentMessages(chatId: number | string): Array<{ token: string; botId: number; text: string }> {
    const state = chats.get(String(chatId));
    if (!state) return [];
    return [...state.messages.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, m]) => (m.sender ? [{ ...m.sender, text: m.text ?? '' }] : []));
  }

  let closed: Promise<void> | undefined;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    get tooManyRequests() {
      return rateLimiter?.rejected ?? 0;
    },
    calls,
    callsOf: (method) => calls.filter((c) => c.method.toLowerCase() === method.toLowerCase()),
    pushUpdate(update, o = {}) {
      updateSchema.parse(update);
      rememberIncoming(update);
      bots.push(update, o.tokens);
    },
    addBot: (token, user) => bots.addBot(token, user),
    async waitFor(pred, timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(calls)) {
        if (Date.now() > deadline) {
          throw new Error(`fakeTelegram: condition not met; calls: ${calls.map((c) => c.method).join(', ')}`);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    failNext(method, error) {
      const key = method.toLowerCase();
      failures.set(key, [...(failures.get(key) ?? []), error]);
    },
    sentText: (chatId) => sentMessages(chatId).map((m) => m.text),
    sentBy: sentMessages,
    downloads,
    addFile(bytes, o = {}) {
      const n = files.size + 1;
      const file_id =
        o.file_id ?? `BQACAgIAAxkBAAIC${String(n).padStart(4, '0')}fake${Buffer.from(String(n)).toString('base64url')}`;
      const file_unique_id = o.file_unique_id ?? `AgADfake${String(n).padStart(4, '0')}`;
      const file_path = o.file_path ?? `files/file_${n}${MIME_EXTENSIONS[o.mime ?? ''] ?? ''}`;
      files.set(file_id, { file_id, file_unique_id, file_path, bytes, reportSize: o.reportSize ?? true });
      return { file_id, file_unique_id, file_size: bytes.length };
    },
    drafts: (chatId) => [...(draftsByChat.get(String(chatId)) ?? [])],
    async deliverWebhook(update, o = {}) {
      const bot = bots.webhookBot(o.token);
      if (!bot) throw new Error(`fakeTelegram: no webhook is set${o.token === undefined ? '' : ` for ${o.token}`}`);
      updateSchema.parse(update);
      rememberIncoming(update);
      const secret = o.secret === undefined ? bot.webhookSecret : o.secret;
      const res = await fetch(bot.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
        },
        body: JSON.stringify(update),
      });
      return { status: res.status, body: await res.text() };
    },
    commandsFor(languageCode = '', token, scope = 'default') {
      const bot = token === undefined ? bots.all().find((b) => b.commandsByLang.size > 0) : bots.find(token);
      const key = menuKey({ language_code: languageCode, scope: { type: scope } });
      return bot?.commandsByLang.get(key) ?? (languageCode === '' && scope === 'default' ? [] : undefined);
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        bots.close();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // ends pending long polls and keep-alive sockets
      });
      return closed;
    },
  };
}
