// A fault rig over the real processes: its own FerretDB and redis-server (supervised, so a killed
// one comes back with its data), the gateway as a child process (all roles, as `npm start` runs
// it), the fake Telegram and OpenAI servers in this process. It sends private chats' messages
// while replies stream, lets a scenario break something, then checks what users got: every
// message stored once and answered by exactly one reply, replies in order per chat, and on
// Telegram one visible message per reply holding its final text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { ensureLocalServices, type LocalServices } from '../../src/localServices/index.js';
import { freePort } from '../../src/localServices/reachability.js';
import type { Message, Turn } from '../../src/domain/model.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../doubles/fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from '../doubles/fakeTelegram.js';
import { logLineProblems } from '../support/strictJson.js';
import { runMain, type Child } from '../support/childProcess.js';
import { rawTestEnv } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';

export interface Sent {
  chatId: number;
  text: string;
}

export interface FaultRig {
  services: LocalServices;
  /** The gateway's environment (PORT, tokens…). */
  raw: Record<string, string>;
  tg: FakeTelegram;
  llm: FakeOpenAI;
  db: Db;
  gateway: Child;
  /** Kills the gateway (SIGKILL) and starts a new one on the same stores. */
  restartGateway(): Promise<void>;
  /** The next update id (Telegram's are increasing: an update below the poller's offset is never delivered). */
  nextUpdateId(): number;
  /** Sends `perChat` messages in each of `chats` private chats, `gapMs` apart per chat; resolves once all are pushed. */
  load(o: { chats: number; perChat: number; gapMs: number }): Promise<Sent[]>;
  /** Waits until every sent message is stored and its turn closed; throws with what is missing. */
  settled(sent: Sent[], timeoutMs: number): Promise<void>;
  /**
   * What users got that they should not have, and gateway log lines that are not strict JSON
   * (empty when all is well).
   * `resentChunks`: a kill may land between Telegram accepting a send and its id being stored —
   * the README's documented limit (the Bot API has no idempotency key): then a reply's first
   * chunk, a prefix of its text, shows once more. Allowed at most once per chat when set.
   */
  problems(sent: Sent[], o?: { resentChunks?: boolean }): Promise<string[]>;
  stop(): Promise<void>;
}

const FIRST_CHAT = 700_000;

/** Resolves once the gateway polls Telegram (its adapters are up), so the load meets a running gateway. */
async function gatewayPolling(tg: FakeTelegram, gateway: Child, timeoutMs = 30_000): Promise<void> {
  const before = tg.callsOf('getUpdates').length;
  const until = Date.now() + timeoutMs;
  while (tg.callsOf('getUpdates').length === before) {
    if (Date.now() > until || gateway.process.exitCode !== null)
      throw new Error(`the gateway did not start polling:\n${gateway.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startFaultRig(
  o: { env?: Record<string, string>; llm?: FakeOpenAIOptions; telegram?: FakeTelegramOptions } = {},
): Promise<FaultRig> {
  const dir = mkdtempSync(join(tmpdir(), 'rgw-fault-'));
  const services = await ensureLocalServices({
    mongoUri: undefined,
    redisUrl: `redis://127.0.0.1:${await freePort()}`,
    dataDir: join(dir, 'ferretdb'),
    redisDataDir: join(dir, 'redis'),
    mongoPort: await freePort(),
    probeDefaultMongo: false,
  });
  const tg = await startFakeTelegram(o.telegram);
  // Replies name the message they answer and stream in several chunks, so faults land mid-reply.
  const llm = await startFakeOpenAI({
    defaultChunkDelayMs: 60,
    defaultReply: (body) => {
      const last = body.messages.findLast((m) => m.role === 'user');
      return `echo: ${typeof last?.content === 'string' ? last.content : ''} and a few more words to stream`;
    },
    ...o.llm,
  });
  const raw = rawTestEnv({
    MONGODB_URI: services.mongoUri,
    REDIS_URL: services.redisUrl,
    LOCAL_SERVICES: 'off',
    TELEGRAM_API_ROOT: tg.apiRoot,
    OPENAI_BASE_URL: llm.baseURL,
    WORKER_LOCK_MS: '2000',
    // The sweeper is part of recovery (a job lost with a killed process is queued again); at
    // the default 60 s it would take the whole settle budget. One SIGKILL run with 200 replies
    // in flight needed it once.
    SWEEP_AFTER_MS: '15000',
    LOG_LEVEL: 'warn',
    ...o.env,
  });
  const client = await MongoClient.connect(services.mongoUri, { serverSelectionTimeoutMS: 30_000 });
  const db = client.db(raw.MONGODB_DB);
  let gateway = runMain(raw);
  /** Every gateway process's output, killed ones included (their log lines are checked too). */
  const first = gateway;
  const outputs: Array<() => string> = [() => first.output()];
  await gatewayPolling(tg, gateway);
  let updateId = 0;
  let messageId = 0;

  const rig: FaultRig = {
    services,
    raw,
    tg,
    llm,
    db,
    get gateway() {
      return gateway;
    },
    nextUpdateId: () => ++updateId,
    async restartGateway() {
      gateway.process.kill('SIGKILL');
      await gateway.exited;
      gateway = runMain(raw);
      const next = gateway;
      outputs.push(() => next.output());
      // The settle budget starts once it runs again: a process start under a loaded machine
      // (the whole suite in two forks) took up to a minute of it before.
      await gatewayPolling(tg, gateway, 120_000);
    },
    async load({ chats, perChat, gapMs }) {
      const sent: Sent[] = [];
      for (let m = 0; m < perChat; m++) {
        for (let c = 0; c < chats; c++) {
          const chatId = FIRST_CHAT + c;
          const text = `c${c}-m${m}`;
          // Telegram numbers a chat's messages together: leave room for the bot's between ours.
          messageId += 1000;
          tg.pushUpdate(privateText({ updateId: ++updateId, messageId, chatId, firstName: `U${c}`, text }));
          sent.push({ chatId, text });
        }
        await new Promise((r) => setTimeout(r, gapMs));
      }
      return sent;
    },
    async settled(sent, timeoutMs) {
      const until = Date.now() + timeoutMs;
      let missing = '';
      while (Date.now() < until) {
        missing = await unsettled(db, sent).catch((err: unknown) => `store not answering: ${String(err)}`);
        if (!missing) return;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`not settled in ${timeoutMs} ms: ${missing}\ngateway output:\n${gateway.output().slice(-4000)}`);
    },
    problems: async (sent, o) => [
      ...(await problemsOf(db, tg, sent, o?.resentChunks ?? false)),
      ...outputs.flatMap((out) => logLineProblems(out())),
    ],
    async stop() {
      await gateway.stop('SIGKILL');
      await client.close();
      await services.stop();
      await tg.close();
      await llm.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return rig;
}

const humanMessages = (db: Db) =>
  db.collection<Message>('messages').find({ senderRole: 'human', 'platformRef.platform': 'telegram' }).toArray();

/** '' when every sent message is stored and its turn closed; else what is still missing. */
async function unsettled(db: Db, sent: Sent[]): Promise<string> {
  const chats = new Set(sent.map((s) => String(s.chatId)));
  const stored = (await humanMessages(db)).filter((m) => chats.has(m.platformRef?.chatId ?? ''));
  if (stored.length < sent.length) return `${stored.length}/${sent.length} messages stored`;
  const turnIds = [...new Set(stored.map((m) => m.turnId).filter((t): t is string => t !== undefined))];
  const open = await db.collection<Turn>('turns').countDocuments({ _id: { $in: turnIds }, status: 'pending' });
  return open > 0 ? `${open} turns still pending` : '';
}

async function problemsOf(db: Db, tg: FakeTelegram, sent: Sent[], resentChunks: boolean): Promise<string[]> {
  const out: string[] = [];
  const stored = await humanMessages(db);
  const turns = new Map((await db.collection<Turn>('turns').find({}).toArray()).map((t) => [t._id, t] as const));
  const replies = await db.collection<Message>('messages').find({ senderRole: 'ai' }).toArray();
  const repliesOf = new Map<string, Message[]>();
  for (const r of replies) if (r.turnId) repliesOf.set(r.turnId, [...(repliesOf.get(r.turnId) ?? []), r]);

  const byChat = new Map<number, Sent[]>();
  for (const s of sent) byChat.set(s.chatId, [...(byChat.get(s.chatId) ?? []), s]);
  for (const [chatId, msgs] of byChat) {
    const mine = stored.filter((m) => m.platformRef?.chatId === String(chatId));
    // Stored once each.
    for (const s of msgs) {
      const copies = mine.filter((m) => m.content === s.text);
      if (copies.length !== 1) out.push(`${s.text}: stored ${copies.length} times`);
    }
    // Each message's turn answered by exactly one reply; turns in the order of their messages.
    const order: Array<{ turn: Turn; reply: Message }> = [];
    for (const s of msgs) {
      const m = mine.find((x) => x.content === s.text);
      const turn = m?.turnId ? turns.get(m.turnId) : undefined;
      if (!turn) {
        out.push(`${s.text}: in no turn`);
        continue;
      }
      if (turn.status !== 'responded') out.push(`${s.text}: its turn is ${turn.status}`);
      const rs = repliesOf.get(turn._id) ?? [];
      if (rs.length !== 1) out.push(`${s.text}: answered by ${rs.length} replies`);
      else if (!order.some((x) => x.turn._id === turn._id)) {
        order.push({ turn, reply: rs[0]! });
        // A failed reply still tells the user something (its notice): never silence.
        if (!(rs[0]!.delivery?.shown ?? rs[0]!.content).trim())
          out.push(`${s.text}: its reply (${rs[0]!.delivery?.state ?? 'no state'}) showed nothing`);
      }
    }
    for (let i = 1; i < order.length; i++) {
      const prev = order[i - 1]!;
      const next = order[i]!;
      if ((prev.reply.delivery?.completedAt?.getTime() ?? Infinity) > next.reply.createdAt.getTime())
        out.push(`chat ${chatId}: the reply to ${next.turn._id} began before the one to ${prev.turn._id} ended`);
    }
    // On Telegram: one message per reply that shows text, in order, each holding its final text.
    const shown = order.map(({ reply }) => reply.delivery?.shown ?? reply.content).filter((t) => t.trim().length > 0);
    const visible = withoutResentChunk(tg.sentText(chatId), shown, resentChunks);
    if (visible.length !== shown.length)
      out.push(
        `chat ${chatId}: ${visible.length} bot messages for ${shown.length} replies: ${JSON.stringify(visible)}; ` +
          `replies as stored: ${JSON.stringify(order.map(({ turn, reply }) => ({ turn: turn._id, reply: reply._id, delivery: reply.delivery })))}`,
      );
    else
      for (const [i, text] of shown.entries())
        if (visible[i]?.trim() !== text.trim())
          out.push(`chat ${chatId}: message ${i} shows ${JSON.stringify(visible[i])}, stored ${JSON.stringify(text)}`);
  }
  return out;
}

/** The visible messages less one that is a strict prefix of the next reply's text (a first chunk sent again). */
function withoutResentChunk(visible: string[], shown: string[], allowed: boolean): string[] {
  if (!allowed || visible.length !== shown.length + 1) return visible;
  for (let i = 0; i < visible.length - 1; i++) {
    const extra = visible[i]!.trim();
    const next = shown[i]?.trim() ?? '';
    if (extra.length > 0 && extra !== next && next.startsWith(extra) && visible[i + 1]?.trim() === next)
      return [...visible.slice(0, i), ...visible.slice(i + 1)];
  }
  return visible;
}
