// Reads a text/event-stream from a fetch body (EventSource cannot POST): splits it into events
// (`event:`, `data:` lines, `id:`), ignoring comments (heartbeats), per the SSE format.
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body
    .pipeThrough<string>(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  let buffer = '';
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const e = parseBlock(block);
        if (e) yield e;
      }
    }
    const last = parseBlock(buffer);
    if (last) yield last;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

export function parseBlock(block: string): SseEvent | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  return data.length ? { event, data: data.join('\n'), ...(id !== undefined ? { id } : {}) } : null;
}
