// Faults mid-load over the real processes (issue 16 C, shortened for CI; `npm run soak` runs them
// at full size): while private chats send messages and replies stream, Redis is restarted, the
// MongoDB-wire server is killed, the gateway is SIGKILLed, the model fails and Telegram answers
// 429/502. Every user message must be stored once and answered by exactly one reply (or a clear
// notice), in order per chat, with one visible Telegram message per reply.
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultRig, type FaultRig } from './faultRig.js';

const CHATS = Number(process.env.FAULT_CHATS ?? 8);
const PER_CHAT = Number(process.env.FAULT_PER_CHAT ?? 3);
const GAP_MS = Number(process.env.FAULT_GAP_MS ?? 400);
const SETTLE_MS = Number(process.env.FAULT_SETTLE_MS ?? 60_000);

let rig: FaultRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends the load, breaks something once it is under way, and checks what users got. */
async function underLoad(
  r: FaultRig,
  fault: () => Promise<void>,
  faultAfterMs = 600,
  o: { resentChunks?: boolean } = {},
): Promise<void> {
  const loading = r.load({ chats: CHATS, perChat: PER_CHAT, gapMs: GAP_MS });
  await sleep(faultAfterMs);
  await fault();
  const sent = await loading;
  await r.settled(sent, SETTLE_MS);
  const problems = await r.problems(sent, o);
  // What the gateway logged (warn and up) says how a problem came about.
  expect(problems, problems.length > 0 ? `gateway log:\n${r.gateway.output().slice(-20_000)}` : undefined).toEqual([]);
}

describe('faults under load', () => {
  it('Redis restarted mid-load (AOF, fsync always): nothing lost, nothing answered twice', async () => {
    rig = await startFaultRig();
    const r = rig;
    await underLoad(r, async () => {
      process.kill(r.services.supervised.redis!.pid!, 'SIGKILL');
      await sleep(50);
    });
    expect(r.services.supervised.redis!.restarts).toBe(1);
  }, 120_000);

  it('the MongoDB-wire server killed and restarted mid-load', async () => {
    rig = await startFaultRig();
    const r = rig;
    await underLoad(r, async () => {
      process.kill(r.services.supervised.ferretdb!.pid!, 'SIGKILL');
      await sleep(50);
    });
    expect(r.services.supervised.ferretdb!.restarts).toBe(1);
  }, 120_000);

  it('the gateway SIGKILLed mid-reply and started again: each message answered once, in order', async () => {
    // A lock longer than the restart: the dead worker's jobs are found stalled only a while after
    // the new gateway starts, so later turns' jobs come first (the order bug seen in production).
    rig = await startFaultRig({ llm: { defaultChunkDelayMs: 150 }, env: { WORKER_LOCK_MS: '5000' } });
    const r = rig;
    // Killed once every message is stored and replies are streaming (mid-reply, as named). A
    // kill while the poller still holds fetched updates loses them on this machine under load,
    // on the version before too: a known gap of its own, not this scenario's.
    const stored = () => r.db.collection('messages').countDocuments({ senderRole: 'human' });
    await underLoad(
      r,
      async () => {
        const until = Date.now() + 30_000;
        while ((await stored()) < CHATS * PER_CHAT && Date.now() < until) await sleep(50);
        await r.restartGateway();
      },
      600,
      { resentChunks: true },
    );
  }, 240_000);

  it('the model failing (500s, a hang, a cut stream): each turn ends in its reply or a clear notice', async () => {
    rig = await startFaultRig({ env: { LLM_TIMEOUT_MS: '3000' } });
    const r = rig;
    await underLoad(r, () => {
      r.llm.enqueue(
        { kind: 'error', status: 500, message: 'upstream exploded' },
        { kind: 'hang' },
        { kind: 'break', chunks: ['half of ', 'an answer'] },
        { kind: 'error', status: 503, message: 'overloaded' },
      );
      return Promise.resolve();
    });
  }, 120_000);

  it('Telegram answering 429 and 502 to sends and edits: every reply delivered once', async () => {
    rig = await startFaultRig();
    const r = rig;
    await underLoad(r, () => {
      for (const method of ['sendMessage', 'editMessageText', 'sendMessage']) {
        r.tg.failNext(method, { error_code: 429, description: 'Too Many Requests: retry after 1', retry_after: 1 });
        r.tg.failNext(method, { error_code: 502, description: 'Bad Gateway' });
      }
      return Promise.resolve();
    });
  }, 120_000);
});
