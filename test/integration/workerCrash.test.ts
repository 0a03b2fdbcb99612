// A worker process killed mid-reply (SIGKILL, not a mock): another worker picks the turn up,
// reuses the reply message and its platform message, and the user ends up with exactly one
// Telegram message holding the stored, complete reply.
import { afterEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { createLogger } from '../../src/log.js';
import { startApp, type RunningApp } from '../../app/startApp.js';
import { loadEnv } from '../../src/config/env.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { eventually, rawTestEnv } from '../support/testEnv.js';
import { runMain, type Child } from '../support/childProcess.js';
import { privateText } from '../fixtures/telegramUpdates.js';

const CHAT = 909090;

describe('worker killed mid-reply', () => {
  let tg: FakeTelegram;
  let llm: FakeOpenAI;
  let gateway: RunningApp | undefined;
  const children: Child[] = [];
  let raw: Record<string, string>;

  afterEach(async () => {
    for (const c of children) await c.stop('SIGKILL');
    await gateway?.stop();
    const client = await MongoClient.connect(raw.MONGODB_URI!);
    await client.db(raw.MONGODB_DB).dropDatabase();
    await client.close();
    await tg.close();
    await llm.close();
  });

  /** The fakes and a gateway-only process here; workers are started as child processes by each test. */
  async function startGatewayOnly(): Promise<RunningApp> {
    tg = await startFakeTelegram();
    llm = await startFakeOpenAI();
    raw = rawTestEnv({
      TELEGRAM_API_ROOT: tg.apiRoot,
      OPENAI_BASE_URL: llm.baseURL,
      WORKER_LOCK_MS: '1000',
      LOCAL_SERVICES: 'off',
      LOG_LEVEL: 'warn',
    });
    const env = loadEnv(raw);
    return startApp(env, {
      roles: new Set(['gateway']),
      log: createLogger('silent'),
      mongoUri: env.MONGODB_URI!,
      redisUrl: env.REDIS_URL,
    });
  }

  it('completes the turn after the worker dies, with exactly one platform message', async () => {
    gateway = await startGatewayOnly();

    // Worker 1 starts streaming a slow reply; we kill it once the user can see part of it.
    llm.enqueue({
      kind: 'reply',
      chunks: ['Partial', ' words', ' that', ' never', ' finish', ' because', ' the', ' worker', ' dies.'],
      chunkDelayMs: 300,
    });
    const first = runMain(raw, ['--role', 'worker']);
    children.push(first);
    tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'please answer' }));
    await tg
      .waitFor((calls) => calls.some((c) => c.method === 'sendMessage'), 20_000)
      .catch((err: unknown) => {
        throw new Error(`${String(err)}\nworker output:\n${first.output()}`);
      });
    const store = gateway.store;
    const streaming = await eventually(async () => {
      const m = await store.c.messages.findOne({ senderRole: 'ai' });
      return m?.delivery?.platformMessageIds.length ? m : undefined;
    });
    first.process.kill('SIGKILL');
    expect(await first.exited).toBeNull(); // killed by a signal, no exit code
    expect(streaming.delivery?.state).toBe('streaming');

    // Worker 2 finds the stalled job, waits out the dead worker's dialogue lease, and finishes.
    llm.enqueue({ kind: 'reply', chunks: ['Recovered:', ' the complete answer.'] });
    const second = runMain(raw, ['--role', 'worker']);
    children.push(second);
    const turn = await eventually(
      async () => (await store.c.turns.findOne({ status: 'responded' })) ?? undefined,
      25_000,
      'turn responded by the second worker',
    );

    const ai = await store.c.messages.find({ senderRole: 'ai' }).toArray();
    expect(ai).toHaveLength(1);
    expect(ai[0]).toMatchObject({
      _id: streaming._id,
      content: 'Recovered: the complete answer.',
      delivery: { state: 'complete' },
    });
    expect(ai[0]!.delivery?.platformMessageIds).toEqual(streaming.delivery?.platformMessageIds);
    expect(turn.outcome).toBe('complete');

    await tg.waitFor(() => tg.sentText(CHAT).join('') === 'Recovered: the complete answer.', 5_000);
    expect(tg.callsOf('sendMessage')).toHaveLength(1);
    expect(tg.sentText(CHAT)).toEqual(['Recovered: the complete answer.']);
    // Two attempts are on the record: each built its context and called the model.
    // The reply's own trace (the post-turn memory extraction records its own llm_call, at any time).
    const kinds = (await store.events.ofTurn(turn._id)).filter((e) => e.data.task === undefined).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'context_built')).toHaveLength(2);
    expect(kinds.at(-1)).toBe('delivery');
  }, 60_000);

  it('after a worker dies mid-reply, a later message is answered only after the interrupted turn, once each', async () => {
    gateway = await startGatewayOnly();
    const store = gateway.store;

    llm.enqueue({
      kind: 'reply',
      chunks: ['First', ' answer', ' cut', ' short', ' by', ' the', ' crash.'],
      chunkDelayMs: 300,
    });
    const first = runMain(raw, ['--role', 'worker']);
    children.push(first);
    tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'first question' }));
    await eventually(async () => {
      const m = await store.c.messages.findOne({ senderRole: 'ai' });
      return m?.delivery?.platformMessageIds.length ? m : undefined;
    }, 20_000);
    first.process.kill('SIGKILL');
    await first.exited;

    // The user goes on while nothing is answering: this opens the next turn.
    // Telegram numbers a chat's messages together: after the bot's, the user's next is 10 here.
    tg.pushUpdate(privateText({ updateId: 2, messageId: 10, chatId: CHAT, text: 'second question' }));
    const later = await eventually(
      async () => (await store.c.turns.findOne({ after: { $exists: true } })) ?? undefined,
      10_000,
      'the second turn',
    );
    llm.enqueue(
      { kind: 'reply', chunks: ['First answer,', ' finished.'] },
      { kind: 'reply', chunks: ['Second answer.'] },
    );
    const second = runMain(raw, ['--role', 'worker']);
    children.push(second);
    await eventually(
      async () => ((await store.c.turns.countDocuments({ status: 'responded' })) === 2 ? true : undefined),
      30_000,
      'both turns answered',
    ).catch(async (err: unknown) => {
      const turns = await store.c.turns.find({}).toArray();
      throw new Error(`${String(err)}\nturns: ${JSON.stringify(turns)}\nworker output:\n${second.output()}`);
    });

    const earlier = (await store.c.turns.findOne({ _id: later.after! }))!;
    const replies = await store.c.messages.find({ senderRole: 'ai' }).sort({ createdAt: 1 }).toArray();
    expect(replies.map((m) => [m.turnId, m.content])).toEqual([
      [earlier._id, 'First answer, finished.'],
      [later._id, 'Second answer.'],
    ]);
    // In order: the second reply's prompt already held the finished first answer.
    const secondPrompt = JSON.stringify(llm.requests.at(-1)!.body.messages);
    expect(secondPrompt).toContain('First answer, finished.');
    expect(earlier.closedAt!.getTime()).toBeLessThanOrEqual(replies[1]!.createdAt.getTime());
    // On Telegram: the first message edited to its finished text, one more message for the second.
    await tg.waitFor(() => tg.sentText(CHAT).join('|') === 'First answer, finished.|Second answer.', 10_000);
    expect(tg.callsOf('sendMessage')).toHaveLength(2);
  }, 90_000);
});
