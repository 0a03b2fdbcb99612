// The web channel's stream read by a standard client: the `eventsource` package (WHATWG
// EventSource over a fetch that POSTs with the bearer token, as a browser app would). A finished
// reply's stream ends for good (the reconnect after its last event gets 204, and the client
// stops); a stream dropped mid-reply resumes with nothing lost or repeated; the reconnect's
// empty JSON body is accepted. Issue 35.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { webApi } from '../support/webClient.js';

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness({});
  const r = await h.gql<{ issueWebToken: { token: string } }>(
    'mutation($n: String!) { issueWebToken(name: $n) { token } }',
    { n: 'Mei' },
  );
  token = r.body.data!.issueWebToken.token;
});
afterAll(() => h.stop());

interface Seen {
  event: string;
  id: string;
  data: Record<string, unknown>;
}

interface Request {
  lastEventId: string | null;
  body: string;
  status: number;
}

/**
 * Sends `content` through an EventSource and follows it until the client stops. `dropAfterFirstDelta`:
 * the first response's body breaks right after its first content_delta, as a network drop would.
 */
function converse(conversationId: string, content: string, o: { dropAfterFirstDelta?: boolean } = {}) {
  const seen: Seen[] = [];
  const requests: Request[] = [];
  const url = `${h.app.apiUrl}/api/conversations/${conversationId}/messages`;
  const es = new EventSource(url, {
    fetch: async (input, init) => {
      const headers = new Headers(init.headers);
      const lastEventId = headers.get('last-event-id');
      // The first request carries the message; a reconnect carries no body but keeps the JSON type.
      const body = lastEventId ? '' : JSON.stringify({ content });
      headers.set('authorization', `Bearer ${token}`);
      headers.set('content-type', 'application/json');
      const res = await fetch(input, { ...init, method: 'POST', headers, body });
      requests.push({ lastEventId, body, status: res.status });
      if (!o.dropAfterFirstDelta || requests.length > 1 || !res.body) return res;
      let delivered = false;
      const broken = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            if (delivered) return controller.error(new Error('connection reset'));
            controller.enqueue(chunk);
            if (new TextDecoder().decode(chunk).includes('event: content_delta')) delivered = true;
          },
        }),
      );
      return new Response(broken, { status: res.status, headers: res.headers });
    },
  });
  for (const event of ['message_start', 'content_delta', 'source_reference', 'message_complete', 'error'])
    es.addEventListener(event, (e) => {
      // EventSource's own `error` (a dropped or closed connection) carries no data; ours does.
      if (typeof e.data !== 'string') return;
      seen.push({ event, id: e.lastEventId, data: JSON.parse(e.data) as Record<string, unknown> });
    });
  const closed = eventually(
    () => Promise.resolve(es.readyState === EventSource.CLOSED ? true : undefined),
    30_000,
    'the EventSource to stop',
  );
  return { seen, requests, closed, close: () => es.close() };
}

const text = (seen: Seen[]) =>
  seen
    .filter((s) => s.event === 'content_delta')
    .map((s) => s.data.delta)
    .join('');
const count = (seen: Seen[], event: string) => seen.filter((s) => s.event === event).length;

async function newConversation(): Promise<string> {
  const r = await webApi(h.app.apiUrl!, token).createConversation();
  expect(r.status).toBe(201);
  return String(r.json!.id);
}

describe('the web stream through a standard EventSource', () => {
  it('ends for good after a finished reply: the reconnect gets 204 and the client stops', async () => {
    h.llm.enqueue({ kind: 'reply', chunks: ['你好，', '梅。'] });
    const c = converse(await newConversation(), '你好');
    await c.closed;
    expect(text(c.seen)).toBe('你好，梅。');
    expect(count(c.seen, 'message_start')).toBe(1);
    expect(count(c.seen, 'message_complete')).toBe(1);
    expect(c.requests.map((r) => r.status)).toEqual([200, 204]);
    expect(c.requests[1]!.lastEventId).toMatch(/:end$/);
    // Nothing more is asked afterwards (an EventSource that reconnected forever would).
    await new Promise((r) => setTimeout(r, 2500));
    expect(c.requests).toHaveLength(2);
  });

  it('resumes a stream dropped mid-reply with nothing lost or repeated, its empty JSON body accepted', async () => {
    const chunks = ['The lake ', 'is calm ', 'this morning, ', 'and the ', 'ridge is clear.'];
    h.llm.enqueue({ kind: 'reply', chunks, chunkDelayMs: 250 });
    const c = converse(await newConversation(), 'How is the weather?', { dropAfterFirstDelta: true });
    await c.closed;
    expect(text(c.seen)).toBe(chunks.join(''));
    expect(count(c.seen, 'message_start')).toBe(1); // a resume does not start the message again
    expect(count(c.seen, 'message_complete')).toBe(1);
    const [first, resume, end] = c.requests;
    expect(first).toMatchObject({ status: 200, lastEventId: null });
    expect(resume).toMatchObject({ status: 200, body: '' });
    expect(resume!.lastEventId).toMatch(/^msg_\w+:\d+$/);
    expect(end).toMatchObject({ status: 204 });
    expect(c.requests).toHaveLength(3);
  });
});
