// Subscriptions as an operator uses them: a real graphql-sse client (yoga's SSE transport,
// distinct connections) against the API running in this process, while the pipeline (gateway
// and worker roles) runs in ANOTHER process, app/main.ts as a child. Every live update crosses
// Redis pub/sub: the child's store announces its writes, the API reads the records fresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import { createClient, type Client } from 'graphql-sse';
import { createLogger } from '../../src/log.js';
import { startApp, type RunningApp } from '../../app/startApp.js';
import { loadEnv } from '../../src/config/env.js';
import { feedTopics } from '../../src/feed/changeFeed.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { TEST_OPS_TOKEN, TEST_VIEWER_TOKEN, eventually, rawTestEnv } from '../support/testEnv.js';
import { runMain, type Child } from '../support/childProcess.js';
import { privateText } from '../fixtures/telegramUpdates.js';

const CHAT = 515151;

/** `eventually` for a check over what has already arrived (no I/O of its own). */
const until = <T>(check: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> =>
  eventually(() => Promise.resolve(check()), timeoutMs, what);

interface Received<T> {
  data?: T | null;
  errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } }>;
}

/** One subscription over its own SSE connection, collecting what arrives. */
interface Live<T> {
  results: Array<Received<T>>;
  /** The data of every result, in order of arrival. */
  data(): T[];
  error(): unknown;
  completed(): boolean;
  dispose(): void;
}

interface MessageUpdate {
  messageUpdates: {
    change: 'CREATED' | 'UPDATED';
    message: {
      id: string;
      senderRole: string;
      content: string;
      turnId: string | null;
      delivery: { state: string } | null;
    };
  };
}
interface TurnUpdate {
  turnUpdates: { id: string; status: string; outcome: string | null };
}
interface TurnEvent {
  turnEvents: { id: string; kind: string; turnId: string | null; data: Record<string, unknown> };
}

const MESSAGE_UPDATES = `subscription ($d: ID!) { messageUpdates(dialogueId: $d) { change message { id senderRole content turnId delivery { state } } } }`;
const TURN_UPDATES = `subscription ($d: ID!) { turnUpdates(dialogueId: $d) { id status outcome } }`;
const TURN_EVENTS = `subscription ($t: ID!) { turnEvents(turnId: $t) { id kind turnId data } }`;

describe('GraphQL subscriptions across processes', () => {
  let tg: FakeTelegram;
  let llm: FakeOpenAI;
  let api: RunningApp;
  let pipeline: Child;
  let redis: Redis;
  let raw: Record<string, string>;
  let dialogueId: string;
  const clients: Client[] = [];

  function subscribe<T>(
    query: string,
    variables: Record<string, unknown>,
    token: string | null = TEST_VIEWER_TOKEN,
  ): Live<T> {
    const client = createClient({
      url: `${api.apiUrl}/graphql`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      singleConnection: false,
      retryAttempts: 0,
    });
    clients.push(client);
    const results: Array<Received<T>> = [];
    let error: unknown;
    let completed = false;
    client.subscribe<T>(
      { query, variables },
      {
        next: (r) => void results.push(r as Received<T>),
        error: (e) => void (error = e),
        complete: () => void (completed = true),
      },
    );
    return {
      results,
      data: () => results.flatMap((r) => (r.data ? [r.data] : [])),
      error: () => error,
      completed: () => completed,
      dispose: () => client.dispose(),
    };
  }

  const topics = () => feedTopics(raw.QUEUE_PREFIX!);
  /** How many Redis subscribers a channel has (only the API subscribes). */
  async function subscribers(channel: string): Promise<number> {
    const reply = (await redis.pubsub('NUMSUB', channel)) as [string, number];
    return Number(reply[1]);
  }
  const listening = (channel: string, n = 1) =>
    eventually(async () => (await subscribers(channel)) === n, 5_000, `${n} subscriber(s) on ${channel}`);

  beforeAll(async () => {
    tg = await startFakeTelegram();
    llm = await startFakeOpenAI();
    raw = rawTestEnv({
      TELEGRAM_API_ROOT: tg.apiRoot,
      OPENAI_BASE_URL: llm.baseURL,
      LOCAL_SERVICES: 'off',
      LOG_LEVEL: 'warn',
    });
    const env = loadEnv(raw);
    api = await startApp(env, {
      roles: new Set(['api']),
      log: createLogger('silent'),
      mongoUri: env.MONGODB_URI!,
      redisUrl: env.REDIS_URL,
    });
    redis = new Redis(env.REDIS_URL);
    pipeline = runMain(raw, ['--role', 'gateway', '--role', 'worker']);

    // A first exchange, so there is a dialogue to subscribe to.
    tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'hello there' }));
    const store = api.store;
    const turn = await eventually(
      async () => (await store.c.turns.findOne({ status: 'responded' })) ?? undefined,
      30_000,
      'first turn answered',
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\npipeline output:\n${pipeline.output()}`);
    });
    dialogueId = turn.dialogueId;
  }, 45_000);

  afterAll(async () => {
    for (const c of clients) c.dispose();
    await pipeline?.stop('SIGKILL');
    await api?.stop();
    await redis?.quit();
    const client = await MongoClient.connect(raw.MONGODB_URI!);
    await client.db(raw.MONGODB_DB).dropDatabase();
    await client.close();
    await tg?.close();
    await llm?.close();
  });

  it('delivers a reply streamed by the pipeline process: messages as they grow, turn statuses, the turn trace', async () => {
    const messages = subscribe<MessageUpdate>(MESSAGE_UPDATES, { d: dialogueId }, TEST_VIEWER_TOKEN);
    const turns = subscribe<TurnUpdate>(TURN_UPDATES, { d: dialogueId }, TEST_OPS_TOKEN);
    await listening(`${topics().messages}:${dialogueId}`);
    await listening(`${topics().turns}:${dialogueId}`);

    // B is answered slowly, chunk by chunk; C arrives while B streams and waits for the dialogue's lease.
    const chunks = ['The', ' answer', ' comes', ' in', ' several', ' slow', ' pieces.'];
    const full = chunks.join('');
    llm.enqueue({ kind: 'reply', chunks, chunkDelayMs: 350 });
    tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, text: 'tell me slowly' }));

    const updateOf = (pred: (u: MessageUpdate['messageUpdates']) => boolean) =>
      until(() => messages.data().find((d) => pred(d.messageUpdates))?.messageUpdates, 20_000, 'message update');
    const human = await updateOf(
      (u) => u.change === 'CREATED' && u.message.senderRole === 'human' && u.message.content === 'tell me slowly',
    );
    const replyCreated = await updateOf(
      (u) => u.change === 'CREATED' && u.message.senderRole === 'ai' && u.message.turnId === human.message.turnId,
    );
    expect(replyCreated.message.delivery?.state).toBe('streaming');
    const replyId = replyCreated.message.id;
    const turnB = human.message.turnId!;

    // C: a turn of its own (B's reply already started), pending until B's reply is done.
    tg.pushUpdate(privateText({ updateId: 3, chatId: CHAT, text: 'and then?' }));
    const turnC = await until(
      () => turns.data().find((d) => d.turnUpdates.id !== turnB && d.turnUpdates.status === 'pending')?.turnUpdates,
      10_000,
      'turn C pending',
    );
    const events = subscribe<TurnEvent>(TURN_EVENTS, { t: turnC.id }, TEST_VIEWER_TOKEN);
    await listening(`${topics().events}:${turnC.id}`);

    // B's reply: partial content while streaming, then the full text, complete, as the last word.
    await until(
      () =>
        messages
          .data()
          .some(
            (d) => d.messageUpdates.message.id === replyId && d.messageUpdates.message.delivery?.state === 'complete',
          ),
      20_000,
      'reply complete',
    );
    const ofReply = messages
      .data()
      .map((d) => d.messageUpdates)
      .filter((u) => u.message.id === replyId);
    const partial = ofReply.filter(
      (u) => u.change === 'UPDATED' && u.message.delivery?.state === 'streaming' && u.message.content.length > 0,
    );
    expect(partial.length).toBeGreaterThanOrEqual(1);
    for (const p of partial) {
      expect(full.startsWith(p.message.content)).toBe(true);
    }
    expect(partial.some((p) => p.message.content.length < full.length)).toBe(true);
    expect(ofReply.at(-1)).toMatchObject({
      change: 'UPDATED',
      message: { content: full, delivery: { state: 'complete' } },
    });

    // B's turn: pending, then responded (each status once, in that order).
    await until(
      () => turns.data().some((d) => d.turnUpdates.id === turnB && d.turnUpdates.status === 'responded'),
      10_000,
      'turn B responded',
    );
    expect(
      turns
        .data()
        .filter((d) => d.turnUpdates.id === turnB)
        .map((d) => d.turnUpdates.status),
    ).toEqual(['pending', 'responded']);
    expect(
      turns.data().find((d) => d.turnUpdates.id === turnB && d.turnUpdates.status === 'responded')!.turnUpdates.outcome,
    ).toBe('complete');

    // C's trace as it is recorded: the context build, then the model call that used it, then the delivery.
    await until(() => events.data().some((d) => d.turnEvents.kind === 'delivery'), 20_000, 'turn C delivered');
    const trace = events.data().map((d) => d.turnEvents);
    const kinds = trace.map((e) => e.kind);
    expect(kinds).toContain('context_built');
    expect(kinds).toContain('llm_call');
    expect(kinds.indexOf('context_built')).toBeLessThan(kinds.indexOf('llm_call'));
    // Only this turn's events reach this subscription.
    expect(trace.every((e) => e.turnId === turnC.id)).toBe(true);
    const contextEvent = trace.find((e) => e.kind === 'context_built')!;
    expect(trace.find((e) => e.kind === 'llm_call')!.data).toMatchObject({
      promptRef: { contextEventId: contextEvent.id },
    });
    expect(events.results.every((r) => !r.errors)).toBe(true);
    expect(messages.results.every((r) => !r.errors)).toBe(true);

    for (const live of [messages, turns, events]) live.dispose();
  }, 45_000);

  it('lets a viewer subscribe, answers 401 without a token, and names unknown dialogues and turns', async () => {
    const viewer = subscribe<TurnUpdate>(TURN_UPDATES, { d: dialogueId }, TEST_VIEWER_TOKEN);
    await listening(`${topics().turns}:${dialogueId}`);
    expect(viewer.error()).toBeUndefined();
    viewer.dispose();

    const anonymous = subscribe<MessageUpdate>(MESSAGE_UPDATES, { d: dialogueId }, null);
    const err = await until(
      () => anonymous.error() as { response?: { status: number } } | undefined,
      5_000,
      'anonymous refused',
    );
    expect(err.response?.status).toBe(401);
    expect(anonymous.results).toEqual([]);

    const unknownDialogue = subscribe<MessageUpdate>(MESSAGE_UPDATES, { d: 'dlg_does_not_exist' });
    await until(
      () => unknownDialogue.completed() || unknownDialogue.error() !== undefined,
      5_000,
      'unknown dialogue answered',
    );
    expect(unknownDialogue.results[0]?.errors?.[0]?.extensions?.code).toBe('CONVERSATION_NOT_FOUND');

    const unknownTurn = subscribe<TurnEvent>(TURN_EVENTS, { t: 'turn_does_not_exist' });
    await until(() => unknownTurn.completed() || unknownTurn.error() !== undefined, 5_000, 'unknown turn answered');
    expect(unknownTurn.results[0]?.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // Nothing was left subscribed for them.
    expect(await subscribers(`${topics().messages}:dlg_does_not_exist`)).toBe(0);
  });

  it('releases the Redis subscription when the last client disposes', async () => {
    const channel = `${topics().messages}:${dialogueId}`;
    for (const c of clients.splice(0)) c.dispose(); // earlier tests' clients, even after a failure
    await listening(channel, 0);
    const first = subscribe<MessageUpdate>(MESSAGE_UPDATES, { d: dialogueId });
    const second = subscribe<MessageUpdate>(MESSAGE_UPDATES, { d: dialogueId });
    // One Redis subscription serves both; give the API time to have registered both listeners.
    await listening(channel, 1);
    await new Promise((r) => setTimeout(r, 300));
    first.dispose();
    await new Promise((r) => setTimeout(r, 300));
    expect(await subscribers(channel)).toBe(1); // still needed by the second client

    // The remaining client still receives live updates from the pipeline process.
    tg.pushUpdate(privateText({ updateId: 4, chatId: CHAT, text: 'still there?' }));
    await until(
      () => second.data().some((d) => d.messageUpdates.message.content === 'still there?'),
      15_000,
      'update after the other client left',
    );
    expect(first.data().some((d) => d.messageUpdates.message.content === 'still there?')).toBe(false);

    second.dispose();
    await listening(channel, 0);
  }, 30_000);
});
