// Rooms under faults (SPEC §8): a worker process killed mid-round (SIGKILL) loses nothing —
// the next worker answers the ask that was being generated, once, and the round goes on; an answer
// deadline that passes while no worker runs is still honoured by the delayed job after restart.
import { afterEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import { createLogger } from '../../src/log.js';
import { startApp, type RunningApp } from '../../app/startApp.js';
import { loadEnv } from '../../src/config/env.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { eventually, rawTestEnv } from '../support/testEnv.js';
import { runMain, type Child } from '../support/childProcess.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import { RedisReplyLease } from '../../jobs/replyLease.js';
import type { Room, RoomRound } from '../../src/domain/room.js';

const GROUP = PLACES.group.chatId;

describe('rooms: a worker killed mid-round', () => {
  let tg: FakeTelegram;
  let llm: FakeOpenAI;
  let gateway: RunningApp;
  let raw: Record<string, string>;
  const children: Child[] = [];

  afterEach(async () => {
    for (const c of children.splice(0)) await c.stop('SIGKILL');
    await gateway.stop();
    const client = await MongoClient.connect(raw.MONGODB_URI!);
    await client.db(raw.MONGODB_DB).dropDatabase();
    await client.close();
    await tg.close();
    await llm.close();
  });

  async function start(): Promise<Room> {
    tg = await startFakeTelegram();
    llm = await startFakeOpenAI();
    raw = rawTestEnv({
      TELEGRAM_API_ROOT: tg.apiRoot,
      OPENAI_BASE_URL: llm.baseURL,
      WORKER_LOCK_MS: '1000',
      LOCAL_SERVICES: 'off',
      LOG_LEVEL: 'warn',
      EMBEDDINGS: 'offline',
    });
    const env = loadEnv(raw);
    gateway = await startApp(env, {
      roles: new Set(['gateway']),
      log: createLogger('silent'),
      mongoUri: env.MONGODB_URI!,
      redisUrl: env.REDIS_URL,
    });
    const at = new Date();
    for (const [id, name] of [
      ['agt_aria', 'Aria'],
      ['agt_bo', 'Bo'],
      ['agt_cy', 'Cy'],
    ] as const)
      await gateway.store.participants.createAgent({ _id: id, name, basePersona: `You are ${name}.` }, at);
    return createRoom(
      gateway.store,
      {
        chat: { platform: 'telegram', chatId: String(GROUP) },
        name: 'Crash',
        mode: 'default',
        agentIds: ['agt_aria', 'agt_bo', 'agt_cy'],
      },
      at,
    );
  }

  const worker = () => {
    const w = runMain(raw, ['--role', 'worker']);
    children.push(w);
    return w;
  };
  const roundDone = (room: Room): Promise<RoomRound> =>
    eventually(
      async () => {
        const r = await gateway.store.rooms.getRound(`${room._id}.r1`);
        return r?.completed ? r : undefined;
      },
      40_000,
      'the round to complete',
    );

  it('the next worker answers the ask that was being generated, once, and the round goes on', async () => {
    const room = await start();
    llm.enqueue({
      kind: 'reply',
      chunks: ['Aria:', ' a', ' long', ' answer', ' that', ' the', ' crash', ' cuts', ' short.'],
      chunkDelayMs: 400,
    });
    const first = worker();
    tg.pushUpdate(textUpdate({ updateId: 1, place: PLACES.group, userId: 4242, firstName: 'Lin', text: 'Go?' }));
    // Aria is generating (an agent that may skip shows nothing until it has finished): kill now.
    await eventually(() => Promise.resolve(llm.requests.length > 0 || undefined), 30_000, 'Aria generating').catch(
      (err: unknown) => {
        throw new Error(`${String(err)}\nworker output:\n${first.output()}`);
      },
    );
    await new Promise((r) => setTimeout(r, 1_000));
    first.process.kill('SIGKILL');
    await first.exited;

    llm.enqueue(
      { kind: 'reply', chunks: ['Aria: recovered, complete.'] },
      { kind: 'reply', chunks: ['Bo: here.'] },
      { kind: 'reply', chunks: ['Cy: here.'] },
    );
    const second = worker();
    const round = await roundDone(room).catch(async (err: unknown) => {
      const r = await gateway.store.rooms.getRound(`${room._id}.r1`);
      const turns = await gateway.store.c.turns.find({ dialogueId: room.dialogueId }).toArray();
      throw new Error(
        `${String(err)}\nround: ${JSON.stringify(r)}\nturns: ${JSON.stringify(turns)}\nworker output:\n${second.output()}`,
      );
    });
    expect(round.answers.map((a) => a.agentId)).toEqual(['agt_aria', 'agt_bo', 'agt_cy']);
    // One platform message per agent; nothing of the killed attempt was shown.
    await tg.waitFor(() => tg.sentText(GROUP).length === 3 && tg.sentText(GROUP)[2] === 'Cy: here.', 10_000);
    expect(tg.sentText(GROUP)).toEqual(['Aria: recovered, complete.', 'Bo: here.', 'Cy: here.']);
    const ai = await gateway.store.c.messages.find({ dialogueId: room.dialogueId, senderRole: 'ai' }).toArray();
    expect(ai.map((m) => m.senderId).sort()).toEqual(['agt_aria', 'agt_bo', 'agt_cy']);
  }, 90_000);

  it('an answer deadline that passes while no worker runs skips the agent once a worker is back', async () => {
    const room = await start();
    await gateway.store.config.update({ thresholds: { room_answer_timeout_seconds: 5 } }, new Date());
    // Another reply holds the room's floor, so Aria's ask cannot start.
    const redis = new Redis(raw.REDIS_URL!, { maxRetriesPerRequest: null });
    const lock = new RedisReplyLease(redis, raw.QUEUE_PREFIX!, 60_000);
    const release = (await lock.acquire(room.dialogueId))!;
    const first = worker();
    tg.pushUpdate(textUpdate({ updateId: 2, place: PLACES.group, userId: 4242, firstName: 'Lin', text: 'Who?' }));
    await eventually(
      async () => ((await gateway.store.rooms.getRound(`${room._id}.r1`))?.asks.length ? true : undefined),
      20_000,
      'the first ask',
    );
    first.process.kill('SIGKILL');
    await first.exited;
    await new Promise((r) => setTimeout(r, 6_000)); // the deadline passes with no worker running

    llm.enqueue({ kind: 'reply', chunks: ['Bo: me.'] }, { kind: 'reply', chunks: ['Cy: me too.'] });
    worker();
    const skipped = await eventually(
      async () => {
        const r = await gateway.store.rooms.getRound(`${room._id}.r1`);
        return r?.skips.length ? r : undefined;
      },
      30_000,
      'the timeout skip after the restart',
    );
    expect(skipped.skips).toMatchObject([{ agentId: 'agt_aria', reason: 'timeout' }]);
    await release();
    const round = await roundDone(room);
    expect(round.answers.map((a) => a.agentId)).toEqual(['agt_bo', 'agt_cy']);
    await tg.waitFor(() => tg.sentText(GROUP).length >= 2, 10_000);
    expect(tg.sentText(GROUP)).toEqual(['Bo: me.', 'Cy: me too.']);
    await redis.quit();
  }, 90_000);
});
