// A client of the web channel's REST + SSE API over real HTTP (fetch), reading the event
// stream as a browser's client would: events split on blank lines, `id`, `event`, `data` fields.
export interface SseEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

export interface WebResponse {
  status: number;
  contentType: string;
  /** Parsed JSON body (non-stream answers). */
  json?: Record<string, unknown>;
  /** Events read, in order (stream answers). */
  events: SseEvent[];
}

export function webApi(baseUrl: string, token: string | null) {
  const headers = (extra: Record<string, string> = {}) => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  });
  const json = async (method: string, path: string, body?: unknown): Promise<WebResponse> => {
    const res = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      ...(text ? { json: JSON.parse(text) as Record<string, unknown> } : {}),
      events: [],
    };
  };
  return {
    createConversation: (body: unknown = {}) => json('POST', '/conversations', body),
    list: () => json('GET', '/conversations'),
    get: (id: string) => json('GET', `/conversations/${id}`),
    remove: (id: string) => json('DELETE', `/conversations/${id}`),
    abort: (id: string) => json('POST', `/conversations/${id}/abort`),
    raw: json,
    /**
     * POSTs a message and reads its answer: JSON, or the event stream until it ends. `until`
     * is asked after each event: true closes the connection there (a client going away).
     */
    async send(
      id: string,
      body: unknown,
      o: { lastEventId?: string; until?: (e: SseEvent, all: SseEvent[]) => boolean | Promise<boolean> } = {},
    ): Promise<WebResponse> {
      const controller = new AbortController();
      const res = await fetch(`${baseUrl}/api/conversations/${id}/messages`, {
        method: 'POST',
        headers: headers({
          'content-type': 'application/json',
          ...(o.lastEventId ? { 'last-event-id': o.lastEventId } : {}),
        }),
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      const contentType = res.headers.get('content-type') ?? '';
      if (!contentType.startsWith('text/event-stream')) {
        const text = await res.text();
        return {
          status: res.status,
          contentType,
          ...(text ? { json: JSON.parse(text) as Record<string, unknown> } : {}),
          events: [],
        };
      }
      const events: SseEvent[] = [];
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const e = parseBlock(block);
            if (!e) continue;
            events.push(e);
            if (await o.until?.(e, events)) {
              controller.abort();
              return { status: res.status, contentType, events };
            }
          }
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err;
      }
      return { status: res.status, contentType, events };
    },
  };
}

function parseBlock(block: string): SseEvent | null {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  return { ...(id ? { id } : {}), event, data: JSON.parse(data.join('\n')) as Record<string, unknown> };
}

/** The text the content_delta events carry, joined. */
export const streamedText = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'content_delta')
    .map((e) => String(e.data.delta))
    .join('');
