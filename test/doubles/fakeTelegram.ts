// A Telegram Bot API HTTP server on 127.0.0.1 so a real grammY Bot runs against it via `client: { apiRoot }`.
// It keeps per-chat message state, so tests can read what a user would currently see.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserFromGetMe } from 'grammy/types';
import { z } from 'zod';

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
  pushUpdate(update: object): void;
  waitFor(pred: (calls: BotApiCall[]) => boolean, timeoutMs?: number): Promise<void>;
  failNext(method: string, error: BotApiFailure): void;
  sentText(chatId: number | string): string[];
  close(): Promise<void>;
}
export interface FakeTelegramOptions {
  /** Overrides for getMe; `Partial<UserFromGetMe>` is a superset of `Partial<User>`. */
  botUser?: Partial<UserFromGetMe>;
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
  fromBot: boolean;
  message: Record<string, unknown>;
  text: string | undefined;
  markup: string; // JSON of the inline keyboard, to detect "not modified"
}
interface ChatState {
  chat: Record<string, unknown>;
  lastId: number; // message ids are shared by user and bot messages, as in Telegram
  messages: Map<number, StoredMessage>;
}
interface Poller {
  limit: number;
  resolve: (updates: object[]) => void;
  reject: (err: ApiError) => void;
  timer: NodeJS.Timeout;
}

const updateSchema = z.looseObject({ update_id: z.number().int() });
const incomingSchema = z.looseObject({
  message_id: z.number().int(),
  chat: z.looseObject({ id: z.number() }),
  text: z.string().optional(),
});

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
  const me: UserFromGetMe = {
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
    ...opts.botUser,
  };
  const botFrom = { id: me.id, is_bot: true, first_name: me.first_name, username: me.username };
  const calls: BotApiCall[] = [];
  const failures = new Map<string, BotApiFailure[]>();
  const chats = new Map<string, ChatState>();
  let updates: object[] = [];
  let poller: Poller | undefined;
  let webhookUrl = '';
  let commands: unknown = [];

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
  function botMessage(p: Params, what: 'edit' | 'delete'): { state: ChatState; stored: StoredMessage } {
    const state = chats.get(String(p.chat_id));
    const stored = state?.messages.get(intOf(p.message_id) ?? NaN);
    if (!state || !stored) throw bad(`message to ${what} not found`);
    if (what === 'edit' && !stored.fromBot) throw bad("message can't be edited");
    return { state, stored };
  }

  function getUpdates(p: Params, gone: AbortSignal): object[] | Promise<object[]> {
    if (webhookUrl !== '') {
      throw new ApiError(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    // offset confirms everything before it; a negative offset keeps only the last -offset updates
    const offset = intOf(p.offset) ?? 0;
    if (offset > 0) updates = updates.filter((u) => updateSchema.parse(u).update_id >= offset);
    if (offset < 0) updates = updates.slice(offset);
    const limit = Math.min(100, Math.max(1, intOf(p.limit) ?? 100));
    const timeout = Math.max(0, intOf(p.timeout) ?? 0);
    if (updates.length > 0 || timeout === 0) return updates.slice(0, limit);

    const conflict = 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';
    poller?.reject(new ApiError(409, conflict));
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(self.timer);
        if (poller === self) poller = undefined;
      };
      const self: Poller = {
        limit,
        resolve: (u) => (settle(), resolve(u)),
        reject: (e) => (settle(), reject(e)),
        timer: setTimeout(() => self.resolve([]), timeout * 1000),
      };
      poller = self;
      gone.addEventListener('abort', () => self.resolve([]), { once: true }); // client aborted the long poll
    });
  }

  const methods: Record<string, (p: Params, gone: AbortSignal) => unknown> = {
    getMe: () => me,
    getUpdates,
    setWebhook: (p) => ((webhookUrl = typeof p.url === 'string' ? p.url : ''), true),
    deleteWebhook: (p) => {
      webhookUrl = '';
      if (isTrue(p.drop_pending_updates)) updates = [];
      return true;
    },
    getWebhookInfo: () => ({
      url: webhookUrl,
      has_custom_certificate: false,
      pending_update_count: updates.length,
      ...(webhookUrl ? { max_connections: 40, ip_address: '127.0.0.1' } : {}),
    }),
    setMyCommands: (p) => ((commands = p.commands ?? []), true),
    getMyCommands: () => commands,
    sendChatAction: (p) => (chatFor(p.chat_id), true),
    sendMessage: (p) => {
      const state = chatFor(p.chat_id);
      const text = checkText(p.text);
      const markup = inlineMarkup(p.reply_markup);
      const message = {
        message_id: ++state.lastId,
        from: botFrom,
        chat: state.chat,
        date: nowSec(),
        text,
        ...(markup ? { reply_markup: markup } : {}),
      };
      state.messages.set(message.message_id, { fromBot: true, message, text, markup: JSON.stringify(markup ?? null) });
      return message;
    },
    editMessageText: (p) => {
      const text = checkText(p.text);
      if (p.inline_message_id !== undefined) return true;
      const { stored } = botMessage(p, 'edit');
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
    deleteMessage: (p) => {
      const { state } = botMessage(p, 'delete');
      state.messages.delete(intOf(p.message_id) ?? NaN);
      return true;
    },
  };
  const byLowerName = new Map(Object.keys(methods).map((name) => [name.toLowerCase(), name]));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
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

    const gone = new AbortController();
    res.on('close', () => gone.abort());
    try {
      const failure = failures.get(name.toLowerCase())?.shift();
      if (failure) throw new ApiError(failure.error_code, failure.description, failure.retry_after);
      const fn = methods[name];
      if (!fn) throw new ApiError(404, 'Not Found');
      send(res, 200, { ok: true, result: await fn(params, gone.signal) });
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

  let closed: Promise<void> | undefined;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    callsOf: (method) => calls.filter((c) => c.method.toLowerCase() === method.toLowerCase()),
    pushUpdate(update) {
      updateSchema.parse(update);
      // Remember incoming messages so bot replies get the next shared message id and the real chat object.
      const u = update as Record<string, unknown>;
      const incoming = incomingSchema.safeParse(u.message ?? u.edited_message ?? u.channel_post);
      if (incoming.success) {
        const msg = incoming.data;
        const state = chatFor(msg.chat.id);
        state.chat = msg.chat;
        state.lastId = Math.max(state.lastId, msg.message_id);
        state.messages.set(msg.message_id, { fromBot: false, message: msg, text: msg.text, markup: 'null' });
      }
      updates.push(update);
      if (poller) poller.resolve(updates.slice(0, poller.limit));
    },
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
    sentText(chatId) {
      const state = chats.get(String(chatId));
      if (!state) return [];
      return [...state.messages.entries()]
        .filter(([, m]) => m.fromBot)
        .sort(([a], [b]) => a - b)
        .map(([, m]) => m.text ?? '');
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        if (poller) clearTimeout(poller.timer);
        poller = undefined;
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // ends pending long polls and keep-alive sockets
      });
      return closed;
    },
  };
}
