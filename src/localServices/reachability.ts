// Cheap "is something answering there?" probes used before deciding to start local services.
import { Socket, createServer } from 'node:net';
import { MongoClient } from 'mongodb';

export async function mongoReachable(uri: string, timeoutMs = 2_000): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
  try {
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => {});
  }
}

/** Sends a raw PING so we need no client library and no retry logic. */
export function redisReachable(url: string, timeoutMs = 1_000): Promise<boolean> {
  const u = new URL(url);
  return new Promise((res) => {
    const sock = new Socket();
    let seen = '';
    const done = (ok: boolean) => {
      sock.destroy();
      res(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('error', () => done(false));
    sock.connect(Number(u.port || 6379), u.hostname, () => {
      if (u.password) sock.write(`AUTH ${decodeURIComponent(u.password)}\r\n`);
      sock.write('PING\r\n');
    });
    sock.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('+PONG')) done(true);
      else if (/^-(NOAUTH|WRONGPASS|ERR)/m.test(seen)) done(false);
    });
  });
}

/** Asks the OS for a free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? res(addr.port) : rej(new Error('no port'))));
    });
  });
}

export function portFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const sock = new Socket();
    sock.setTimeout(500, () => {
      sock.destroy();
      res(true);
    });
    sock.once('error', () => res(true));
    sock.connect(port, '127.0.0.1', () => {
      sock.destroy();
      res(false);
    });
  });
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(message);
}
