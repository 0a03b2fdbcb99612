// Writes a reply's events to a client as text/event-stream. A comment line every few seconds
// keeps proxies from closing a quiet stream (a model thinking, a tool running).
import type { ServerResponse } from 'node:http';
import { formatEvent, RETRY_MS, type WebStreamEvent } from './streamEvents.js';

const HEARTBEAT_MS = 15_000;

export async function streamEvents(
  res: ServerResponse,
  first: WebStreamEvent,
  rest: AsyncGenerator<WebStreamEvent>,
  gone: AbortSignal,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies: pass each event on at once.
    'x-accel-buffering': 'no',
  });
  const write = (chunk: string) => {
    if (!gone.aborted && !res.writableEnded) res.write(chunk);
  };
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  try {
    write(`retry: ${RETRY_MS}\n\n`);
    write(formatEvent(first));
    for await (const e of rest) write(formatEvent(e));
  } finally {
    clearInterval(heartbeat);
    await rest.return(undefined);
    if (!res.writableEnded) res.end();
  }
}
