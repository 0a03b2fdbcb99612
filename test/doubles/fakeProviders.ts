// OpenAI-compatible servers other than OpenAI's, with the quirks the gateway meets in the field,
// as local HTTP servers the real `openai` client talks to. Each stands in front of a FakeOpenAI
// (which streams the answers and keeps its scripts) and answers the way that server does where
// it differs; every request is counted here, with the status it got.
// - ollama: any key or none; a model without tool support answers 400 `{"error":{"message":
//   "registry.ollama.ai/library/<model> does not support tools","type":"api_error",…}}`; an
//   embeddings model it has not pulled answers 404 `model "<m>" not found, try pulling it first`;
//   a prompt over its context window (num_ctx) loses its oldest messages silently, system
//   messages and the latest one kept.
// - vllm: without --enable-auto-tool-choice a request with tools answers 400 with vLLM's
//   top-level error body `{"object":"error","message":"\"auto\" tool choice requires …",
//   "type":"BadRequestError","param":null,"code":400}` (before 0.10; the SDK reads no message
//   from it); a prompt over --max-model-len answers 400; /v1/embeddings is not served for a chat
//   model (FastAPI's 404 `{"detail":"Not Found"}`).
// - lmstudio: no key needed; tools and embeddings as loaded.
// - deepseek: its key required; under load 503 `{"error":{"message":"Service Unavailable",…}}`,
//   or a stream that sends only `: keep-alive` comments and no token.
// - dashscope (Qwen): its key required; its throttle is 429 with an OpenAI-like body carrying
//   `code`, `message`, `type` and a `request_id` beside it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from './fakeOpenAI.js';

export type ProviderKind = 'ollama' | 'vllm' | 'lmstudio' | 'deepseek' | 'dashscope';

export interface QuirkyProviderOptions {
  /** Chat models that take tools; for ollama and vllm every other model refuses them (default: none). */
  toolModels?: string[];
  /** Embedding models served (ollama, lmstudio); others answer as that server does (default: none). */
  embeddingModels?: string[];
  /** Context window in tokens (ollama: num_ctx, silently truncated; vllm: --max-model-len, refused). */
  contextTokens?: number;
  /** The key hosted providers require (deepseek, dashscope). */
  apiKey?: string;
  /** Options of the FakeOpenAI behind it (default replies, task brain…). */
  fake?: FakeOpenAIOptions;
}

export interface ProviderCall {
  path: string;
  model: string | null;
  /** The request offered tools. */
  tools: boolean;
  status: number;
  /** ollama: messages dropped to fit the context window. */
  truncated?: number;
}

export interface QuirkyProvider {
  kind: ProviderKind;
  baseURL: string;
  /** The answering fake: script replies on it. */
  inner: FakeOpenAI;
  calls: ProviderCall[];
  /** Chat completion calls, optionally of one model. */
  chatCalls(model?: string): ProviderCall[];
  /** Hosted ones: the next `n` chat requests get the provider's overload answer (503 / 429). */
  overload(n: number): void;
  /** deepseek: the next `n` chat requests get a stream of keep-alive comments and no token. */
  stall(n: number): void;
  close(): Promise<void>;
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
const id = (): string => randomBytes(8).toString('hex');

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${id()}` });
  res.end(JSON.stringify(body));
}

/** The text of a message's content, for token estimates. */
const textOf = (m: { content?: unknown }): string =>
  typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? JSON.stringify(m.content) : '';

type ChatBody = {
  model?: string;
  tools?: unknown[];
  messages?: Array<{ role: string; content?: unknown }>;
  max_tokens?: number;
};

/** Ollama's truncation: oldest messages out until the prompt fits, system messages and the last kept. */
function truncateToWindow(body: ChatBody, window: number): number {
  const messages = body.messages ?? [];
  let dropped = 0;
  const total = () => messages.reduce((n, m) => n + estimateTokens(textOf(m)), 0);
  while (total() > window) {
    const i = messages.findIndex((m, k) => m.role !== 'system' && k < messages.length - 1);
    if (i < 0) break;
    messages.splice(i, 1);
    dropped++;
  }
  return dropped;
}

interface Quirk {
  status: number;
  body: unknown;
}

/** The answer a server gives of its own to a chat request, before any model runs; undefined: none. */
function chatQuirk(kind: ProviderKind, body: ChatBody, o: QuirkyProviderOptions): Quirk | undefined {
  const model = body.model ?? '';
  const offersTools = (body.tools?.length ?? 0) > 0 && !(o.toolModels ?? []).includes(model);
  if (kind === 'ollama' && offersTools)
    return {
      status: 400,
      body: {
        error: {
          message: `registry.ollama.ai/library/${model} does not support tools`,
          type: 'api_error',
          param: null,
          code: null,
        },
      },
    };
  if (kind === 'vllm' && offersTools)
    return {
      status: 400,
      body: {
        object: 'error',
        message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    };
  if (kind === 'vllm' && o.contextTokens) {
    const inMessages = (body.messages ?? []).reduce((n, m) => n + estimateTokens(textOf(m)), 0);
    const completion = body.max_tokens ?? 0;
    if (inMessages + completion > o.contextTokens)
      return {
        status: 400,
        body: {
          object: 'error',
          message: `This model's maximum context length is ${o.contextTokens} tokens. However, you requested ${inMessages + completion} tokens (${inMessages} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
          type: 'BadRequestError',
          param: null,
          code: 400,
        },
      };
  }
  return undefined;
}

/** How a server answers /v1/embeddings for a model it does not serve; undefined: it does. */
function embeddingsQuirk(kind: ProviderKind, model: string, o: QuirkyProviderOptions): Quirk | undefined {
  if ((o.embeddingModels ?? []).includes(model)) return undefined;
  if (kind === 'ollama')
    return {
      status: 404,
      body: {
        error: {
          message: `model "${model}" not found, try pulling it first`,
          type: 'api_error',
          param: null,
          code: null,
        },
      },
    };
  if (kind === 'vllm') return { status: 404, body: { detail: 'Not Found' } };
  return undefined;
}

const OVERLOAD: Record<'deepseek' | 'dashscope', Quirk> = {
  deepseek: {
    status: 503,
    body: { error: { message: 'Service Unavailable', type: 'service_unavailable_error', param: null, code: null } },
  },
  dashscope: {
    status: 429,
    body: {
      error: {
        code: 'insufficient_quota',
        message:
          'You exceeded your current quota, please check your plan and billing details. For details, see: https://help.aliyun.com/zh/model-studio/error-code#token-limit',
        type: 'insufficient_quota',
        param: null,
      },
      request_id: 'req-fake',
    },
  },
};

/** A stream that keeps the connection alive and never sends a token (DeepSeek under load). */
function keepAliveOnly(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const timer = setInterval(() => res.write(': keep-alive\n\n'), 50);
  const stop = (): void => clearInterval(timer);
  req.on('close', stop);
  res.on('close', stop);
}

async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(String(part)));
  return Buffer.concat(parts);
}

/** Passes the request on to the fake behind (with a key, which it insists on), streaming its answer back. */
async function forward(req: IncomingMessage, res: ServerResponse, inner: FakeOpenAI, body: Buffer): Promise<number> {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const url = new URL(req.url ?? '/', inner.baseURL).href;
  const upstream = await fetch(url, {
    method: req.method ?? 'GET',
    headers: { 'content-type': req.headers['content-type'] ?? 'application/json', authorization: 'Bearer local' },
    ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
    signal: gone.signal,
  });
  const headers: Record<string, string> = {};
  upstream.headers.forEach((v, k) => {
    if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') headers[k] = v;
  });
  res.writeHead(upstream.status, headers);
  if (!upstream.body) {
    res.end();
    return upstream.status;
  }
  Readable.fromWeb(upstream.body as WebReadableStream)
    .on('error', () => res.destroy())
    .pipe(res);
  return upstream.status;
}

export async function startQuirkyProvider(kind: ProviderKind, o: QuirkyProviderOptions = {}): Promise<QuirkyProvider> {
  const inner = await startFakeOpenAI(o.fake);
  const calls: ProviderCall[] = [];
  let overloads = 0;
  let stalls = 0;
  const hosted = kind === 'deepseek' || kind === 'dashscope';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
    const raw = await readBytes(req);
    let body: ChatBody = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as ChatBody) : {};
    } catch {
      body = {};
    }
    const call: ProviderCall = { path, model: body.model ?? null, tools: (body.tools?.length ?? 0) > 0, status: 0 };
    calls.push(call);
    const answer = (q: Quirk): void => {
      call.status = q.status;
      send(res, q.status, q.body);
    };
    if (hosted && req.headers.authorization !== `Bearer ${o.apiKey ?? ''}`)
      return answer({
        status: 401,
        body: {
          error: {
            message: 'Authentication Fails, Your api key is invalid',
            type: 'authentication_error',
            param: null,
            code: 'invalid_request_error',
          },
        },
      });
    if (path === '/v1/chat/completions') {
      if (hosted && overloads > 0) {
        overloads--;
        return answer(OVERLOAD[kind]);
      }
      if (kind === 'deepseek' && stalls > 0) {
        stalls--;
        call.status = 200;
        return keepAliveOnly(req, res);
      }
      const quirk = chatQuirk(kind, body, o);
      if (quirk) return answer(quirk);
      if (kind === 'ollama') {
        call.truncated = truncateToWindow(body, o.contextTokens ?? 2048);
        call.status = await forward(req, res, inner, Buffer.from(JSON.stringify(body)));
        return;
      }
    }
    if (path === '/v1/embeddings') {
      const quirk = embeddingsQuirk(kind, body.model ?? '', o);
      if (quirk) return answer(quirk);
    }
    call.status = await forward(req, res, inner, raw);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: `fake provider error: ${String(err)}` } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kind,
    baseURL: `http://127.0.0.1:${port}/v1`,
    inner,
    calls,
    chatCalls: (model) => calls.filter((c) => c.path === '/v1/chat/completions' && (!model || c.model === model)),
    overload: (n) => void (overloads += n),
    stall: (n) => void (stalls += n),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await inner.close();
    },
  };
}
