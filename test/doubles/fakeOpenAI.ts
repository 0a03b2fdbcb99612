// An OpenAI-compatible HTTP server on 127.0.0.1 so the real `openai` client runs against it unmodified.
// Each POST /v1/chat/completions or POST /v1/responses consumes one step of a single shared FIFO script;
// with an empty script it echoes the user. Media calls have their own scripts and never consume that
// one: chat requests carrying an `image_url` part (vision) and POST /v1/audio/transcriptions.
// A request's output limit (`max_tokens`, `max_output_tokens`) is honoured like the real API: a
// longer scripted answer stops at it (counted with o200k_base) and is reported cut.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  Response,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseOutputText,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses.js';
import { z } from 'zod';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { defaultTaskReply, taskNameOf } from './fakeTaskBrain.js';
import { answerEmbeddings, type EmbeddingsStep, type RecordedEmbeddingsRequest } from './fakeEmbeddings.js';

export type ToolCallSpec = { id?: string; name: string; arguments: string };
export type ScriptStep =
  | { kind: 'reply'; chunks: string[]; chunkDelayMs?: number; firstByteDelayMs?: number }
  | { kind: 'tool_calls'; calls: ToolCallSpec[] }
  | { kind: 'error'; status: number; message: string }
  | { kind: 'hang' }
  | { kind: 'break'; chunks: string[] };
/** A step the model answers (with text or tool calls). */
type SpokenStep = Exclude<ScriptStep, { kind: 'error' } | { kind: 'hang' }>;

const messageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
});
const chatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(messageSchema),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z.array(z.unknown()).optional(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
});
const textPartSchema = z.object({ type: z.literal('text'), text: z.string() });

// Responses API input items: easy messages ({role, content}) have no `type`; others
// (function_call, function_call_output, message, ...) do. Everything else is kept as sent.
const responsesInputItemSchema = z.looseObject({ type: z.string().optional(), role: z.string().optional() });
const responsesRequestSchema = z.looseObject({
  model: z.string(),
  input: z.union([z.string(), z.array(responsesInputItemSchema)]),
  instructions: z.string().nullish(),
  tools: z.array(z.unknown()).optional(),
  stream: z.boolean().nullish(),
  // The real endpoint refuses fewer than 16.
  max_output_tokens: z.number().int().min(16).nullish(),
});
const responsesTextPartSchema = z.object({ type: z.enum(['input_text', 'output_text', 'text']), text: z.string() });

/** The request body as the client sent it; unknown fields are kept. */
export type ChatRequestBody = z.infer<typeof chatRequestSchema>;
/** A POST /v1/responses body as the client sent it; unknown fields (and item fields) are kept. */
export type ResponsesRequestBody = z.infer<typeof responsesRequestSchema>;
/** One element of an array `input`, e.g. `{ type: 'function_call_output', call_id, output }`. */
export type ResponsesInputItem = z.infer<typeof responsesInputItemSchema>;
export interface RecordedChatRequest {
  endpoint: 'chat';
  body: ChatRequestBody;
  receivedAt: number;
  /** `performance.now()` at the same moment: sub-millisecond, for timings taken in this process. */
  receivedAtPrecise: number;
}
export interface RecordedResponsesRequest {
  endpoint: 'responses';
  body: ResponsesRequestBody;
  receivedAt: number;
  receivedAtPrecise: number;
}
export type RecordedRequest = RecordedChatRequest | RecordedResponsesRequest;
/** An image sent in an `image_url` part, decoded from its data URL (undefined bytes: a remote URL). */
export interface SentImage {
  url: string;
  mime?: string;
  bytes?: Buffer;
}
export interface RecordedVisionRequest {
  endpoint: 'vision';
  body: ChatRequestBody;
  images: SentImage[];
  receivedAt: number;
}
export interface RecordedTranscriptionRequest {
  endpoint: 'transcription';
  model: string;
  fileName: string;
  /** The uploaded file's content type as the client declared it. */
  mime: string;
  bytes: Buffer;
  /** Every other form field (language, prompt, response_format, ...). */
  fields: Record<string, string>;
  receivedAt: number;
}
export type TranscriptionStep =
  { kind: 'text'; text: string } | { kind: 'error'; status: number; message: string } | { kind: 'hang' };
export interface FakeOpenAI {
  baseURL: string;
  /** Appends steps to the one FIFO script that both endpoints consume, one step per request. */
  enqueue(...steps: ScriptStep[]): void;
  /** POST /v1/chat/completions requests, in arrival order. */
  requests: RecordedChatRequest[];
  /** POST /v1/responses requests, in arrival order. */
  responsesRequests: RecordedResponsesRequest[];
  /** Resolves once `n` requests have been recorded in total, chat and responses together. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Steps for chat requests that carry an image (vision); the main script is left alone. */
  enqueueVision(...steps: ScriptStep[]): void;
  /** Vision chat requests, in arrival order (not in `requests`, not counted by waitForRequests). */
  visionRequests: RecordedVisionRequest[];
  /** Steps for POST /v1/audio/transcriptions; empty: the file's bytes read as UTF-8 are the transcription. */
  enqueueTranscription(...steps: TranscriptionStep[]): void;
  transcriptionRequests: RecordedTranscriptionRequest[];
  /**
   * Background JSON tasks (chat or responses requests in JSON mode: memory extraction,
   * summaries…) have their own script and never consume the reply script. Empty script: the
   * deterministic task brain of fakeTaskBrain.ts answers (or `taskReply` when given).
   */
  enqueueTask(...steps: ScriptStep[]): void;
  taskRequests: RecordedTaskRequest[];
  /** Steps for POST /v1/embeddings; empty: deterministic vectors (fakeEmbeddings.ts). */
  enqueueEmbeddings(...steps: EmbeddingsStep[]): void;
  embeddingsRequests: RecordedEmbeddingsRequest[];
  reset(): void;
  close(): Promise<void>;
}
export interface RecordedTaskRequest {
  endpoint: 'chat' | 'responses';
  /** The `TASK: <name>` line of the system prompt (src/llm/jsonTask.ts), or '' when absent. */
  task: string;
  system: string;
  input: string;
  receivedAt: number;
}
export interface FakeOpenAIOptions {
  /** Answer to a background JSON task when the task script is empty (default: fakeTaskBrain). */
  taskReply?: (task: string, system: string, input: string) => string;
  /** How long that default task answer takes to start (a hosted model's first token); default none. */
  taskFirstByteDelayMs?: () => number;
  /** Text of the reply to a chat request when the script is empty; defaults to `echo: <last user message>`. */
  defaultReply?: (body: ChatRequestBody) => string;
  /** Pause between the default reply's chunks (a model that streams slowly); default none. */
  defaultChunkDelayMs?: number;
  /** The whole step for a chat request when the script is empty (a latency profile); overrides the two above. */
  defaultStep?: (body: ChatRequestBody) => ScriptStep;
  /** Text of the reply to a responses request when the script is empty; defaults to `echo: <last user input>`. */
  defaultResponsesReply?: (body: ResponsesRequestBody) => string;
  /** Description of an image when the vision script is empty; defaults to `describeFakeImage` of the first image. */
  defaultVisionReply?: (images: SentImage[], body: ChatRequestBody) => string;
}

const MODELS = ['gpt-4o-mini', 'gpt-4o', 'fake-model'];
const nowSec = (): number => Math.floor(Date.now() / 1000);
const randomId = (): string => randomBytes(12).toString('hex');
const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
// Scripted text may hold strings like "<|endoftext|>": plain text here too.
const countOutputTokens = (text: string): number => countTokens(text, { disallowedSpecial: new Set<string>() });

/** The longest prefix of `text` within `limit` tokens (the whole text when it fits), never splitting a surrogate pair. */
function prefixWithin(text: string, limit: number): string {
  if (countOutputTokens(text) <= limit) return text;
  let fits = 0;
  let over = text.length;
  while (over - fits > 1) {
    const mid = (fits + over) >> 1;
    if (countOutputTokens(text.slice(0, mid)) <= limit) fits = mid;
    else over = mid;
  }
  const last = text.charCodeAt(fits - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? fits - 1 : fits);
}

/**
 * A step as a model limited to `limit` output tokens says it: text (or tool-call arguments, in
 * order) stops at the limit and `cut` is set; no limit, or an answer within it: unchanged.
 */
function withinLimit(step: SpokenStep, limit: number | null | undefined): { step: SpokenStep; cut: boolean } {
  if (!limit) return { step, cut: false };
  if (step.kind === 'reply' || step.kind === 'break') {
    const text = step.chunks.join('');
    const kept = prefixWithin(text, limit);
    if (kept === text) return { step, cut: false };
    const chunks: string[] = [];
    for (let at = 0, i = 0; at < kept.length; i++) {
      const chunk = step.chunks[i]!.slice(0, kept.length - at);
      if (chunk) chunks.push(chunk);
      at += chunk.length;
    }
    return { step: { ...step, chunks }, cut: true };
  }
  const calls: ToolCallSpec[] = [];
  let left = limit;
  for (const call of step.calls) {
    const args = prefixWithin(call.arguments, Math.max(0, left));
    calls.push({ ...call, arguments: args });
    if (args !== call.arguments) return { step: { kind: 'tool_calls', calls }, cut: true };
    left -= countOutputTokens(call.arguments);
  }
  return { step, cut: false };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => textPartSchema.safeParse(p).data?.text ?? '').join('');
}

/** `echo: <last user message>` split on word boundaries, so it streams in a few chunks. */
function echoReply(body: ChatRequestBody): string {
  const lastUser = body.messages.findLast((m) => m.role === 'user');
  return `echo: ${contentText(lastUser?.content)}`;
}
const splitWords = (text: string): string[] => text.split(/(?<=\s)/).filter((s) => s.length > 0);
function splitInto(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Text of a Responses API message content: a string or parts like `{type: 'input_text', text}`. */
function responsesContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => responsesTextPartSchema.safeParse(p).data?.text ?? '').join('');
}
function inputItemText(item: ResponsesInputItem): string {
  if (item.type === 'function_call_output')
    return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
  if (item.type === 'function_call') return `${String(item.name)}${String(item.arguments)}`;
  return responsesContentText(item.content);
}
function echoResponsesReply(body: ResponsesRequestBody): string {
  if (typeof body.input === 'string') return `echo: ${body.input}`;
  const lastUser = body.input.findLast((item) => item.role === 'user');
  return `echo: ${lastUser ? responsesContentText(lastUser.content) : ''}`;
}
function responsesUsage(body: ResponsesRequestBody, completion: string): ResponseUsage {
  const input = typeof body.input === 'string' ? body.input : body.input.map(inputItemText).join('\n');
  const input_tokens = estimateTokens([body.instructions ?? '', input].join('\n'));
  const output_tokens = Math.min(estimateTokens(completion), body.max_output_tokens ?? Infinity);
  return {
    input_tokens,
    output_tokens,
    total_tokens: input_tokens + output_tokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}

function usageFor(body: ChatRequestBody, completion: string) {
  const prompt_tokens = estimateTokens(body.messages.map((m) => contentText(m.content)).join('\n'));
  const completion_tokens = Math.min(
    estimateTokens(completion),
    body.max_tokens ?? body.max_completion_tokens ?? Infinity,
  );
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** `response_format: {type: 'json_object'}` (chat) or `text.format` of the same shape (responses). */
function isJsonMode(format: unknown): boolean {
  return z.looseObject({ type: z.enum(['json_object', 'json_schema']) }).safeParse(format).success;
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${randomId()}` });
  res.end(JSON.stringify(body));
}
function sendError(res: ServerResponse, status: number, message: string, code: string | null = null): void {
  sendJson(res, status, { error: { message, type: errorType(status), param: null, code } });
}

/** Resolves after `ms`, or early once `signal` aborts (client gone or server closing). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(String(part)));
  return Buffer.concat(parts);
}
async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString('utf8');
}

const imagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string(), detail: z.string().optional() }),
});
/** The images of a chat request (`image_url` content parts), decoded when they are data URLs. */
function imagesOf(body: ChatRequestBody): SentImage[] {
  return body.messages.flatMap((m) =>
    Array.isArray(m.content)
      ? m.content.flatMap((p) => {
          const part = imagePartSchema.safeParse(p);
          if (!part.success) return [];
          const url = part.data.image_url.url;
          const data = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url);
          if (!data) return [{ url }];
          const bytes = data[2]
            ? Buffer.from(data[3] ?? '', 'base64')
            : Buffer.from(decodeURIComponent(data[3] ?? ''), 'utf8');
          return [{ url, bytes, ...(data[1] ? { mime: data[1] } : {}) }];
        })
      : [],
  );
}

/**
 * A deterministic "description" of an image: a test image whose bytes are readable text is
 * described as showing that text; real image bytes get their type, size and a hash prefix.
 */
export function describeFakeImage(image: SentImage | undefined): string {
  if (!image?.bytes) return image ? `An image at ${image.url}.` : 'No image was sent.';
  const text = image.bytes.toString('utf8');
  // Control characters or invalid UTF-8 mark binary image data.
  if (text.length > 0 && !text.includes('\ufffd') && !/[\u0000-\u0008\u000e-\u001f]/.test(text))
    return `An image showing ${text.trim()}.`;
  const hash = createHash('sha256').update(image.bytes).digest('hex').slice(0, 12);
  return `An image (${image.mime ?? 'unknown type'}, ${image.bytes.length} bytes, sha256 ${hash}).`;
}

// What the real endpoint accepts, by the uploaded file's extension.
const TRANSCRIPTION_EXTENSIONS = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'];

/** POST /v1/audio/transcriptions: multipart form as the SDK sends it, answered like OpenAI. */
async function answerTranscription(
  req: IncomingMessage,
  res: ServerResponse,
  o: { script: TranscriptionStep[]; recorded: RecordedTranscriptionRequest[] },
): Promise<void> {
  const raw = await readBytes(req);
  let form: FormData;
  try {
    form = await new Request('http://fake/v1/audio/transcriptions', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: new Uint8Array(raw),
    }).formData();
  } catch {
    return sendError(res, 400, 'Could not parse multipart form');
  }
  const file = form.get('file');
  const model = form.get('model');
  if (!(file instanceof File))
    return sendError(res, 400, "[{'type': 'missing', 'loc': ('body', 'file'), 'msg': 'Field required'}]");
  if (typeof model !== 'string' || !model) return sendError(res, 400, 'you must provide a model parameter');
  const fields: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === 'string' && k !== 'model') fields[k] = v;
  const bytes = Buffer.from(await file.arrayBuffer());
  o.recorded.push({
    endpoint: 'transcription',
    model,
    fileName: file.name,
    mime: file.type,
    bytes,
    fields,
    receivedAt: Date.now(),
  });

  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (!TRANSCRIPTION_EXTENSIONS.includes(ext)) {
    return sendError(res, 400, `Invalid file format. Supported formats: ${JSON.stringify(TRANSCRIPTION_EXTENSIONS)}`);
  }
  const step = o.script.shift() ?? { kind: 'text', text: bytes.toString('utf8') };
  if (step.kind === 'hang') return; // never answered; close() destroys the socket
  if (step.kind === 'error') return sendError(res, step.status, step.message);
  const format = fields.response_format ?? 'json';
  if (format === 'text' || format === 'srt' || format === 'vtt') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-request-id': `req_${randomId()}` });
    return void res.end(step.text);
  }
  if (format === 'verbose_json') {
    return sendJson(res, 200, { task: 'transcribe', language: 'english', duration: 1, text: step.text, segments: [] });
  }
  return sendJson(res, 200, { text: step.text, usage: { type: 'duration', seconds: 1 } });
}

/** Writes one chat completion (streamed or not) for a step; `signal` stops it when the peer is gone. */
async function answer(
  scripted: ScriptStep,
  body: ChatRequestBody,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  if (scripted.kind === 'hang') return; // never answered; close() destroys the socket
  if (scripted.kind === 'error') return sendError(res, scripted.status, scripted.message);
  if (scripted.kind === 'reply') await sleep(scripted.firstByteDelayMs ?? 0, signal);
  if (signal.aborted) return;
  const { step, cut } = withinLimit(scripted, body.max_tokens ?? body.max_completion_tokens);

  const id = `chatcmpl-${randomId()}`;
  const base = { id, created: nowSec(), model: body.model, system_fingerprint: 'fp_fake' };
  const calls = step.kind === 'tool_calls' ? step.calls.map((c) => ({ ...c, id: c.id ?? `call_${randomId()}` })) : [];
  const text = step.kind === 'tool_calls' ? '' : step.chunks.join('');
  const finish = cut ? 'length' : step.kind === 'tool_calls' ? 'tool_calls' : 'stop';

  if (!body.stream) {
    if (step.kind === 'break') return void res.socket?.destroy();
    const toolCalls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
    const message = {
      role: 'assistant',
      content: step.kind === 'tool_calls' ? null : text,
      refusal: null,
      annotations: [],
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    const completion = { ...base, object: 'chat.completion', service_tier: 'default' };
    const choices = [{ index: 0, message, logprobs: null, finish_reason: finish }];
    return sendJson(res, 200, { ...completion, choices, usage: usageFor(body, text + JSON.stringify(toolCalls)) });
  }

  // With include_usage every chunk carries `usage: null` and one extra chunk carries the totals.
  const includeUsage = body.stream_options?.include_usage === true;
  const write = (choices: unknown[], usage: unknown = null): Promise<void> =>
    new Promise((resolve) => {
      if (res.destroyed) return resolve();
      const chunk = { ...base, object: 'chat.completion.chunk', choices, ...(includeUsage ? { usage } : {}) };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => resolve());
    });
  const delta = (d: object, finish_reason: string | null = null) => [
    { index: 0, delta: d, logprobs: null, finish_reason },
  ];

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': `req_${randomId()}`,
  });
  if (step.kind === 'tool_calls') {
    for (const [index, call] of calls.entries()) {
      const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
      const first = index === 0 ? { role: 'assistant', content: null, refusal: null } : {};
      await write(delta({ ...first, tool_calls: [head] }));
      for (const piece of splitInto(call.arguments, 3)) {
        await write(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
  } else {
    await write(delta({ role: 'assistant', content: '', refusal: null }));
    for (const [i, piece] of step.chunks.entries()) {
      if (i > 0 && step.kind === 'reply') await sleep(step.chunkDelayMs ?? 0, signal);
      if (signal.aborted) return;
      await write(delta({ content: piece }));
    }
    if (step.kind === 'break') return void res.socket?.destroy(); // chunks flushed; cut before the terminator
  }
  await write(delta({}, finish));
  if (includeUsage) await write([], usageFor(body, text + calls.map((c) => c.name + c.arguments).join('')));
  res.end('data: [DONE]\n\n');
}

// The wire never carries `output_text` (the SDK derives it) and the server numbers events itself.
type WireResponse = Omit<Response, 'output_text'>;
type Wire<E> = E extends { response: Response }
  ? Omit<E, 'response' | 'sequence_number'> & { response: WireResponse }
  : Omit<E, 'sequence_number'>;
type WireEvent = Wire<ResponseStreamEvent>;

function responseSkeleton(body: ResponsesRequestBody): WireResponse {
  return {
    id: `resp_${randomId()}`,
    object: 'response',
    created_at: nowSec(),
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output: [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: (body.tools ?? []) as Response['tools'],
    top_p: 1,
    truncation: 'disabled',
    metadata: {},
  };
}

/** Writes one Responses API answer (SSE events or the final response object) for a step. */
async function answerResponses(
  scripted: ScriptStep,
  body: ResponsesRequestBody,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  if (scripted.kind === 'hang') return; // never answered; close() destroys the socket
  if (scripted.kind === 'error') return sendError(res, scripted.status, scripted.message);
  if (scripted.kind === 'reply') await sleep(scripted.firstByteDelayMs ?? 0, signal);
  if (signal.aborted) return;
  // Cut at the limit: every item and the response end `incomplete` (reason max_output_tokens).
  const { step, cut } = withinLimit(scripted, body.max_output_tokens);
  const itemDone = cut ? 'incomplete' : 'completed';

  const started = responseSkeleton(body);
  const messageId = `msg_${randomId()}`;
  const text = step.kind === 'tool_calls' ? '' : step.chunks.join('');
  const calls = (step.kind === 'tool_calls' ? step.calls : []).map((c) => ({
    itemId: `fc_${randomId()}`,
    callId: c.id ?? `call_${randomId()}`,
    name: c.name,
    arguments: c.arguments,
  }));
  const callItem = (c: (typeof calls)[number], done: boolean): ResponseFunctionToolCall => ({
    type: 'function_call',
    id: c.itemId,
    call_id: c.callId,
    name: c.name,
    arguments: done ? c.arguments : '',
    status: done ? itemDone : 'in_progress',
  });
  const textPart = (t: string): ResponseOutputText => ({ type: 'output_text', text: t, annotations: [] });
  const message = (done: boolean): ResponseOutputMessage => ({
    id: messageId,
    type: 'message',
    status: done ? itemDone : 'in_progress',
    role: 'assistant',
    content: done ? [textPart(text)] : [],
  });
  const output: ResponseOutputItem[] =
    step.kind === 'tool_calls' ? calls.map((c) => callItem(c, true)) : [message(true)];
  const usage = responsesUsage(body, text + calls.map((c) => c.name + c.arguments).join(''));
  const completed = (): WireResponse =>
    cut
      ? { ...started, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output, usage }
      : { ...started, status: 'completed', completed_at: nowSec(), output, usage };

  if (!body.stream) {
    if (step.kind === 'break') return void res.socket?.destroy();
    return sendJson(res, 200, completed());
  }

  let sequence = 0;
  const emit = (event: WireEvent): Promise<void> =>
    new Promise((resolve) => {
      if (res.destroyed) return resolve();
      const data = JSON.stringify({ ...event, sequence_number: sequence++ });
      res.write(`event: ${event.type}\ndata: ${data}\n\n`, () => resolve());
    });

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': `req_${randomId()}`,
  });
  await emit({ type: 'response.created', response: started });
  await emit({ type: 'response.in_progress', response: started });
  if (step.kind === 'tool_calls') {
    for (const [output_index, call] of calls.entries()) {
      const item_id = call.itemId;
      await emit({ type: 'response.output_item.added', output_index, item: callItem(call, false) });
      for (const delta of splitInto(call.arguments, 3)) {
        await emit({ type: 'response.function_call_arguments.delta', item_id, output_index, delta });
      }
      const { name, arguments: args } = call;
      await emit({ type: 'response.function_call_arguments.done', item_id, output_index, name, arguments: args });
      await emit({ type: 'response.output_item.done', output_index, item: callItem(call, true) });
    }
  } else {
    const at = { item_id: messageId, output_index: 0, content_index: 0 };
    await emit({ type: 'response.output_item.added', output_index: 0, item: message(false) });
    await emit({ type: 'response.content_part.added', ...at, part: textPart('') });
    for (const [i, delta] of step.chunks.entries()) {
      if (i > 0 && step.kind === 'reply') await sleep(step.chunkDelayMs ?? 0, signal);
      if (signal.aborted) return;
      await emit({ type: 'response.output_text.delta', ...at, delta, logprobs: [] });
    }
    if (step.kind === 'break') return void res.socket?.destroy(); // deltas flushed; cut before completion
    await emit({ type: 'response.output_text.done', ...at, text, logprobs: [] });
    await emit({ type: 'response.content_part.done', ...at, part: textPart(text) });
    await emit({ type: 'response.output_item.done', output_index: 0, item: message(true) });
  }
  await emit({ type: cut ? 'response.incomplete' : 'response.completed', response: completed() });
  res.end();
}

export async function startFakeOpenAI(opts: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const script: ScriptStep[] = [];
  const requests: RecordedChatRequest[] = [];
  const responsesRequests: RecordedResponsesRequest[] = [];
  const visionScript: ScriptStep[] = [];
  const visionRequests: RecordedVisionRequest[] = [];
  const transcriptionScript: TranscriptionStep[] = [];
  const transcriptionRequests: RecordedTranscriptionRequest[] = [];
  const taskScript: ScriptStep[] = [];
  const taskRequests: RecordedTaskRequest[] = [];
  const embeddingsScript: EmbeddingsStep[] = [];
  const embeddingsRequests: RecordedEmbeddingsRequest[] = [];
  const closing = new AbortController();
  const taskStep = (endpoint: 'chat' | 'responses', system: string, input: string, receivedAt: number): ScriptStep => {
    const task = taskNameOf(system);
    taskRequests.push({ endpoint, task, system, input, receivedAt });
    return (
      taskScript.shift() ?? {
        kind: 'reply',
        chunks: splitInto((opts.taskReply ?? defaultTaskReply)(task, system, input), 3),
        ...(opts.taskFirstByteDelayMs ? { firstByteDelayMs: opts.taskFirstByteDelayMs() } : {}),
      }
    );
  };

  const defaultStep = (body: ChatRequestBody): ScriptStep =>
    opts.defaultStep?.(body) ?? {
      kind: 'reply',
      chunks: splitWords((opts.defaultReply ?? echoReply)(body)),
      ...(opts.defaultChunkDelayMs ? { chunkDelayMs: opts.defaultChunkDelayMs } : {}),
    };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
    if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) {
      return sendError(res, 401, "You didn't provide an API key. Provide it in an Authorization header (Bearer auth).");
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const data = MODELS.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
      return answerTranscription(req, res, { script: transcriptionScript, recorded: transcriptionRequests });
    }
    if (req.method === 'POST' && path === '/v1/embeddings') {
      return answerEmbeddings(req, res, { script: embeddingsScript, recorded: embeddingsRequests });
    }
    const isChat = path === '/v1/chat/completions';
    if (req.method !== 'POST' || (!isChat && path !== '/v1/responses')) {
      return sendError(res, 404, `Invalid URL (${req.method ?? 'GET'} ${path})`, 'unknown_url');
    }
    let json: unknown;
    // Received once the whole body is in, before this fake validates it: a real endpoint's
    // validation is on its side of the wire, so it is no part of the gateway's time to the model.
    let receivedAt = Date.now();
    let receivedAtPrecise = performance.now();
    try {
      const body = await readBody(req);
      receivedAt = Date.now();
      receivedAtPrecise = performance.now();
      json = JSON.parse(body);
    } catch {
      return sendError(res, 400, 'We could not parse the JSON body of your request.');
    }
    const invalid = (error: z.ZodError): void =>
      sendError(res, 400, `Invalid request: ${error.issues[0]?.message ?? 'bad body'}`);
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const signal = AbortSignal.any([gone.signal, closing.signal]);

    if (isChat) {
      const parsed = chatRequestSchema.safeParse(json);
      if (!parsed.success) return invalid(parsed.error);
      const images = imagesOf(parsed.data);
      if (images.length > 0) {
        visionRequests.push({ endpoint: 'vision', body: parsed.data, images, receivedAt });
        const step = visionScript.shift() ?? {
          kind: 'reply',
          chunks: splitWords((opts.defaultVisionReply ?? ((imgs) => describeFakeImage(imgs[0])))(images, parsed.data)),
        };
        return answer(step, parsed.data, res, signal);
      }
      if (isJsonMode(parsed.data.response_format)) {
        const system = parsed.data.messages
          .filter((m) => m.role === 'system')
          .map((m) => contentText(m.content))
          .join('\n');
        const input = parsed.data.messages
          .filter((m) => m.role === 'user')
          .map((m) => contentText(m.content))
          .join('\n');
        return answer(taskStep('chat', system, input, receivedAt), parsed.data, res, signal);
      }
      requests.push({ endpoint: 'chat', body: parsed.data, receivedAt, receivedAtPrecise });
      const step = script.shift() ?? defaultStep(parsed.data);
      return answer(step, parsed.data, res, signal);
    }
    const parsed = responsesRequestSchema.safeParse(json);
    if (!parsed.success) return invalid(parsed.error);
    const format = z.looseObject({ format: z.unknown() }).safeParse(parsed.data.text).data?.format;
    if (isJsonMode(format) && Array.isArray(parsed.data.input)) {
      const items = parsed.data.input;
      const system = [
        parsed.data.instructions ?? '',
        ...items.filter((i) => i.role === 'system' || i.role === 'developer').map(inputItemText),
      ]
        .join('\n')
        .trim();
      const input = items
        .filter((i) => i.role === 'user')
        .map(inputItemText)
        .join('\n');
      return answerResponses(taskStep('responses', system, input, receivedAt), parsed.data, res, signal);
    }
    responsesRequests.push({ endpoint: 'responses', body: parsed.data, receivedAt, receivedAtPrecise });
    const step = script.shift() ?? {
      kind: 'reply',
      chunks: splitWords((opts.defaultResponsesReply ?? echoResponsesReply)(parsed.data)),
    };
    return answerResponses(step, parsed.data, res, signal);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, `fake server error: ${String(err)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    enqueue: (...steps) => void script.push(...steps),
    requests,
    responsesRequests,
    async waitForRequests(n, timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      const count = (): number => requests.length + responsesRequests.length;
      while (count() < n) {
        if (Date.now() > deadline) {
          const got = `${requests.length} chat + ${responsesRequests.length} responses`;
          throw new Error(`fakeOpenAI: expected ${n} requests, got ${count()} (${got})`);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    enqueueVision: (...steps) => void visionScript.push(...steps),
    visionRequests,
    enqueueTranscription: (...steps) => void transcriptionScript.push(...steps),
    transcriptionRequests,
    enqueueTask: (...steps) => void taskScript.push(...steps),
    taskRequests,
    enqueueEmbeddings: (...steps) => void embeddingsScript.push(...steps),
    embeddingsRequests,
    reset() {
      taskScript.length = 0;
      taskRequests.length = 0;
      embeddingsScript.length = 0;
      embeddingsRequests.length = 0;
      visionScript.length = 0;
      visionRequests.length = 0;
      transcriptionScript.length = 0;
      transcriptionRequests.length = 0;
      script.length = 0;
      requests.length = 0; // in place: callers may hold the arrays
      responsesRequests.length = 0;
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // ends hanging and keep-alive sockets
      });
      return closed;
    },
  };
}
