// Many private chats at once against the real gateway process with a streaming model (issue 16 C):
// every message answered once, in order per chat, and the process's memory and open file
// descriptors bounded afterwards. CI runs LOAD_CHATS=100; `npm run soak` runs 1 000. Throughput
// and p99 are printed (timed figures belong to the bench, so nothing here asserts a speed).
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message, Turn } from '../../src/domain/model.js';
import { startFaultRig, type FaultRig } from './faultRig.js';

const CHATS = Number(process.env.LOAD_CHATS ?? 100);
const PER_CHAT = Number(process.env.LOAD_PER_CHAT ?? 2);

let rig: FaultRig | undefined;
afterAll(() => rig?.stop());

/** Resident memory (MiB) and open descriptors of a Linux process. */
function usage(pid: number): { rssMiB: number; fds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return { rssMiB: rssKiB / 1024, fds: readdirSync(`/proc/${pid}/fd`).length };
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.99) - 1)] ?? NaN;

describe('load', () => {
  it(`${CHATS} private chats at once: all answered once and in order, memory and handles bounded`, async () => {
    rig = await startFaultRig({
      // One bot may send 25 messages a second by default; the platform's pace is not under test here.
      env: { TELEGRAM_GLOBAL_PER_SECOND: '400', WORKER_CONCURRENCY: '16' },
      llm: { defaultChunkDelayMs: 40 },
    });
    const r = rig;
    const pid = r.gateway.process.pid!;
    const before = usage(pid);
    const t0 = Date.now();
    const sent = await r.load({ chats: CHATS, perChat: PER_CHAT, gapMs: 300 });
    await r.settled(sent, 60_000 + CHATS * PER_CHAT * 60);
    const spanMs = Date.now() - t0;
    expect(await r.problems(sent)).toEqual([]);

    // Reply latency: a turn's start to its reply's completion, from the record.
    const turns = await r.db.collection<Turn>('turns').find({ status: 'responded' }).toArray();
    const replies = new Map(
      (await r.db.collection<Message>('messages').find({ senderRole: 'ai' }).toArray()).map((m) => [m.turnId, m]),
    );
    const latencies = turns.flatMap((t) => {
      const done = replies.get(t._id)?.delivery?.completedAt;
      return done ? [done.getTime() - t.startedAt.getTime()] : [];
    });
    const after = usage(pid);
    console.log(
      `load: ${sent.length} messages in ${CHATS} chats, ${turns.length} turns answered in ${spanMs} ms ` +
        `(${((turns.length * 1000) / spanMs).toFixed(1)} turns/s), reply p99 ${p99(latencies)} ms; ` +
        `gateway RSS ${before.rssMiB.toFixed(0)} → ${after.rssMiB.toFixed(0)} MiB, fds ${before.fds} → ${after.fds}`,
    );
    // Bounded: the pools (MongoDB's at most 100 connections, Redis, HTTP keep-alive to the
    // fakes) grow with concurrency, not with chats; nothing per chat or message is kept.
    expect(after.fds).toBeLessThan(before.fds + 250);
    expect(after.rssMiB).toBeLessThan(before.rssMiB + 400 + CHATS * 0.5);
  }, 600_000);
});
