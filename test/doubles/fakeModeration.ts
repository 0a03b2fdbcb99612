// An OpenAI-compatible POST /v1/moderations on 127.0.0.1, answering in OpenAI's own shape
// (`{ id, model, results: [{ flagged, categories, category_scores }] }`), so the real `openai`
// client runs against it unmodified. A text is flagged when it holds one of the trigger words
// (each under its category); `mode` makes it fail with a 500 or never answer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OpenAI's categories for omni-moderation (a server that knows fewer would send fewer). */
const CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

export interface FakeModeration {
  /** Base URL for MODERATION_BASE_URL (ends in /v1). */
  baseURL: string;
  /** Every request's body, in order. */
  requests: Array<{ model?: string; input?: unknown; authorization?: string }>;
  /** `judge` (default): flag trigger words; `error`: 500 with OpenAI's error body; `hang`: never answer. */
  mode: 'judge' | 'error' | 'hang';
  close(): Promise<void>;
}

function answer(triggers: Record<string, string>, model: string, input: string) {
  const text = input.toLowerCase();
  const hits = new Set(
    Object.entries(triggers)
      .filter(([word]) => text.includes(word))
      .map(([, category]) => category),
  );
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c, hits.has(c)]));
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, hits.has(c) ? 0.97 : 0.0004]));
  return {
    id: `modr-${Math.random().toString(36).slice(2, 10)}`,
    model,
    results: [
      {
        flagged: hits.size > 0,
        categories,
        category_scores: scores,
        category_applied_input_types: Object.fromEntries(CATEGORIES.map((c) => [c, ['text']])),
      },
    ],
  };
}

/** `triggers`: word → the category it flags (e.g. `{ hurt: 'violence' }`). */
export async function startFakeModeration(triggers: Record<string, string> = {}): Promise<FakeModeration> {
  const requests: FakeModeration['requests'] = [];
  const hanging: ServerResponse[] = [];
  const fake = { mode: 'judge' } as FakeModeration;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = (raw ? JSON.parse(raw) : {}) as { model?: string; input?: unknown };
      requests.push({ ...body, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      if (req.method !== 'POST' || !req.url?.endsWith('/moderations')) return void res.writeHead(404).end();
      if (fake.mode === 'hang') return void hanging.push(res);
      res.setHeader('content-type', 'application/json');
      if (fake.mode === 'error') {
        res.writeHead(500);
        return void res.end(JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } }));
      }
      const input = typeof body.input === 'string' ? body.input : JSON.stringify(body.input);
      res.end(JSON.stringify(answer(triggers, body.model ?? 'omni-moderation-latest', input)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
