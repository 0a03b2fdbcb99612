// POST /v1/embeddings of the fake OpenAI server, in OpenAI's wire format. Vectors are
// deterministic and come from this file's own hashing of words, characters and a few topics
// (nothing from src/), so texts sharing words, Chinese characters or a topic get similar vectors. The openai SDK sends
// `encoding_format: 'base64'` when the caller sets none and decodes Float32 LE base64 itself,
// so both encodings are answered. Steps script failures: an HTTP error or an empty `data`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';

export type EmbeddingsStep =
  | { kind: 'error'; status: number; message: string }
  /** 200 with `data: []`. */
  | { kind: 'empty' }
  /** Never answered (a timeout); the server's close() drops the socket. */
  | { kind: 'hang' };

export interface RecordedEmbeddingsRequest {
  model: string;
  input: string[];
  dimensions?: number;
  encodingFormat?: 'float' | 'base64';
  receivedAt: number;
}

/** text-embedding-3-small's native size, used when the request sets no `dimensions`. */
export const FAKE_DEFAULT_DIMS = 1536;

const bodySchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1).max(2048)]),
  dimensions: z.number().int().min(1).max(3072).optional(),
  encoding_format: z.enum(['float', 'base64']).optional(),
  user: z.string().optional(),
});

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': `req_${randomBytes(8).toString('hex')}`,
  });
  res.end(JSON.stringify(body));
}
function sendError(res: ServerResponse, status: number, message: string): void {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, { error: { message, type, param: null, code: null } });
}

function hash32(s: string, seed: number): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

// A real embedding model puts "lives in Berlin" near "moved to Paris" and "where do I live"
// near both, across languages. Bag-of-words hashing cannot, so a few topic neighbourhoods are
// added as shared features (weighted like several words), as the real model's semantics would.
const TOPICS: Array<{ topic: string; re: RegExp }> = [
  { topic: 'residence', re: /\b(live[sd]?|living|moved?|moving|relocated?|reside[sd]?)\b|住|搬|家/i },
  { topic: 'job', re: /\b(work(s|ed|ing)?|jobs?|career|profession|nurse|teacher|hospital|office)\b|工作|职业|上班/i },
  { topic: 'name', re: /\b(name[sd]?|called)\b|名字|叫/i },
  { topic: 'pet', re: /\b(cats?|dogs?|pets?|kitten|puppy)\b|猫|狗|宠物/i },
  { topic: 'food', re: /\b(food|eat|eating|dish|meal|cook(ing)?)\b|吃|食物|菜/i },
  { topic: 'morning', re: /\b(wake|woke|morning|get up|gets up|run(ning)?)\b|起床|早上|跑步/i },
];
const TOPIC_WEIGHT = 3;

/** Lowercased words, every CJK character and character pair and topic neighbourhoods, each hashed to a signed bucket. */
export function fakeEmbedding(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  const features: string[] = [];
  for (const t of TOPICS) if (t.re.test(text)) for (let i = 0; i < TOPIC_WEIGHT; i++) features.push(`topic:${t.topic}`);
  for (const m of text.toLowerCase().matchAll(/[\p{Script=Han}]+|[\p{L}\p{N}]+/gu)) {
    const t = m[0];
    if (/\p{Script=Han}/u.test(t)) {
      const c = [...t];
      c.forEach((ch, i) => {
        features.push(ch);
        if (i + 1 < c.length) features.push(ch + c[i + 1]!);
      });
    } else features.push(t);
  }
  for (const f of features) {
    const i = hash32(f, 1) % dims;
    v[i] = v[i]! + (hash32(f, 2) & 1 ? 1 : -1);
  }
  let n = 0;
  for (const x of v) n += x * x;
  // A text with no features still gets a valid unit vector (as the real API would).
  if (n === 0) v[hash32(text, 3) % dims] = 1;
  else for (let i = 0; i < dims; i++) v[i] = v[i]! / Math.sqrt(n);
  return v;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(String(part)));
  return Buffer.concat(parts).toString('utf8');
}

export async function answerEmbeddings(
  req: IncomingMessage,
  res: ServerResponse,
  o: { script: EmbeddingsStep[]; recorded: RecordedEmbeddingsRequest[] },
): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(await readBody(req));
  } catch {
    return sendError(res, 400, 'We could not parse the JSON body of your request.');
  }
  const parsed = bodySchema.safeParse(json);
  if (!parsed.success) return sendError(res, 400, `Invalid request: ${parsed.error.issues[0]?.message ?? 'bad body'}`);
  const body = parsed.data;
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  o.recorded.push({
    model: body.model,
    input,
    ...(body.dimensions !== undefined ? { dimensions: body.dimensions } : {}),
    ...(body.encoding_format ? { encodingFormat: body.encoding_format } : {}),
    receivedAt: Date.now(),
  });
  if (input.some((t) => t === ''))
    return sendError(
      res,
      400,
      "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
    );

  const step = o.script.shift();
  if (step?.kind === 'hang') return;
  if (step?.kind === 'error') return sendError(res, step.status, step.message);
  const dims = body.dimensions ?? FAKE_DEFAULT_DIMS;
  const data =
    step?.kind === 'empty'
      ? []
      : input.map((text, index) => {
          const v = fakeEmbedding(text, dims);
          const embedding =
            body.encoding_format === 'base64'
              ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')
              : Array.from(v);
          return { object: 'embedding', index, embedding };
        });
  const tokens = input.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  sendJson(res, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
