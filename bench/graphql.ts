// The ops API against the bare driver, in one run on the same MongoDB-wire server:
//  - a nested dialogue query (20 sessions × 25 turns × 2 messages = 1 000 messages, pages of up
//    to 50) over HTTP through yoga, auth, limits and the batching loaders, next to the driver
//    queries that return the same documents (sessions, their turns, the turns' messages);
//  - a message search over 100 000 stored messages (first page of 20, newest first), next to the
//    core's index search (src/store/indexSearch.ts) called directly.
import { loadEnv } from '../src/config/env.js';
import { createLogger } from '../src/log.js';
import { startApp, type RunningApp } from '../app/startApp.js';
import type { Dialogue, Message, Session, Turn } from '../src/domain/model.js';
import { indexUntilCaughtUp } from '../src/store/searchIndexer.js';
import { searchMessages } from '../src/store/indexSearch.js';
import { planMessageSearch } from '../src/search/messageSearch.js';
import { percentile } from './stats.js';
import { fmt, table } from './report.js';

const TOKEN = 'bench-admin-token-0123456789abcdef';

export interface GraphqlBenchResult {
  nested: { api: number[]; bare: number[]; messages: number };
  search?: { api: number[]; bare: number[]; stored: number; hits: number; text: string };
}

async function timed(n: number, warmup: number, f: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await f();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    out.push(performance.now() - t0);
  }
  return out;
}

function nestedDialogue(id: string, base: number) {
  const at = (n: number) => new Date(base + n * 1000);
  const dialogue: Dialogue = {
    _id: id,
    type: 'human_ai',
    chat: { platform: 'telegram', chatId: '777' },
    humanIds: ['hum_bench'],
    agentIds: ['agt_default'],
    status: 'active',
    messageCount: 1000,
    lastActivityAt: at(2000),
    createdAt: at(0),
    updatedAt: at(2000),
  };
  const sessions: Session[] = [];
  const turns: Turn[] = [];
  const messages: Message[] = [];
  let clock = 0;
  for (let s = 0; s < 20; s++) {
    const sessionId = `ses_gb_${s}`;
    sessions.push({
      _id: sessionId,
      dialogueId: id,
      kind: 'dialogue',
      status: s === 19 ? 'open' : 'closed',
      startedAt: at(clock),
      lastActivityAt: at(clock + 50),
      stats: { messageCount: 50, turnCount: 25 },
    });
    for (let t = 0; t < 25; t++) {
      const turnId = `trn_gb_${s}_${t}`;
      turns.push({
        _id: turnId,
        dialogueId: id,
        sessionId,
        kind: 'dialogue',
        initiatorRole: 'human',
        initiatorId: 'hum_bench',
        responderRole: 'ai',
        responderId: 'agt_default',
        startedAt: at(clock),
        responseWindowMs: 10_800_000,
        deadlineAt: at(clock + 10_800),
        status: 'responded',
        closedAt: at(clock + 1),
        responseTime: 1000,
      });
      for (let m = 0; m < 2; m++) {
        clock++;
        const human = m === 0;
        messages.push({
          _id: `msg_gb_${s}_${t}_${m}`,
          dialogueId: id,
          sessionId,
          turnId,
          senderRole: human ? 'human' : 'ai',
          senderId: human ? 'hum_bench' : 'agt_default',
          contentType: 'text',
          content: human
            ? `Session ${s}, turn ${t}: 今天过得怎么样？I went for a run by the river.`
            : `That sounds lovely — 跑步对身体很好。Tell me more about turn ${t}.`,
          mentions: [],
          visible: true,
          createdAt: at(clock),
          updatedAt: at(clock),
          ...(human
            ? {}
            : {
                delivery: { state: 'complete' as const, platformMessageIds: [String(clock)], completedAt: at(clock) },
              }),
        });
      }
    }
  }
  return { dialogue, sessions, turns, messages };
}

const NESTED_QUERY = `query ($id: ID!) { dialogue(id: $id) { id title sessions(first: 20) { edges { node { id status startedAt
  turns(first: 50) { edges { node { id status startedAt responseTimeMs
    messages(first: 50) { edges { node { id senderRole contentType content createdAt delivery { state } } } } } } } } } } } }`;

export async function runGraphqlBench(o: {
  mongoUri: string;
  redisUrl: string;
  dbName: string;
  prefix: string;
  samples: number;
  searchSize: number;
  progress: (l: string) => void;
}): Promise<GraphqlBenchResult> {
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    PORT: '0',
    MONGODB_URI: o.mongoUri,
    MONGODB_DB: o.dbName,
    REDIS_URL: o.redisUrl,
    QUEUE_PREFIX: o.prefix,
    OPS_TOKENS: `bench:admin:${TOKEN}`,
    LOCAL_SERVICES: 'off',
  });
  const app: RunningApp = await startApp(env, {
    roles: new Set(['api']),
    log: createLogger('silent'),
    mongoUri: o.mongoUri,
    redisUrl: o.redisUrl,
  });
  try {
    const c = app.store.c;
    const seed = nestedDialogue('dlg_gbench', Date.UTC(2026, 0, 1));
    await c.dialogues.insertOne(seed.dialogue);
    await c.sessions.insertMany(seed.sessions);
    await c.turns.insertMany(seed.turns);
    for (let i = 0; i < seed.messages.length; i += 500) await c.messages.insertMany(seed.messages.slice(i, i + 500));
    o.progress('graphql: seeded 1 dialogue, 20 sessions, 500 turns, 1 000 messages');

    const post = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${app.apiUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: unknown; errors?: unknown };
      if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
      return body.data;
    };
    let returned = 0;
    const api = await timed(o.samples, 5, async () => {
      const data = (await post(NESTED_QUERY, { id: 'dlg_gbench' })) as {
        dialogue: {
          sessions: {
            edges: Array<{ node: { turns: { edges: Array<{ node: { messages: { edges: unknown[] } } }> } } }>;
          };
        };
      };
      returned = data.dialogue.sessions.edges.reduce(
        (n, s) => n + s.node.turns.edges.reduce((k, t) => k + t.node.messages.edges.length, 0),
        0,
      );
    });
    if (returned !== 1000) throw new Error(`nested query returned ${returned} messages, expected 1000`);
    // The same documents, fetched the way a hand-written endpoint would: three indexed queries.
    const bare = await timed(o.samples, 5, async () => {
      const d = await c.dialogues.findOne({ _id: 'dlg_gbench' });
      const sessions = await c.sessions.find({ dialogueId: d!._id }).sort({ startedAt: 1, _id: 1 }).limit(20).toArray();
      const turns = await c.turns
        .find({ sessionId: { $in: sessions.map((s) => s._id) } })
        .sort({ startedAt: 1, _id: 1 })
        .toArray();
      const messages = await c.messages
        .find({ turnId: { $in: turns.map((t) => t._id) } })
        .sort({ createdAt: 1, _id: 1 })
        .batchSize(5_000)
        .toArray();
      if (messages.length !== 1000) throw new Error('bare query returned the wrong number of messages');
    });
    o.progress(`graphql: nested p50 ${fmt(percentile(api, 50))} ms vs bare ${fmt(percentile(bare, 50))} ms`);
    const search = o.searchSize > 0 ? await searchBench(app, post, o) : undefined;
    return { nested: { api, bare, messages: returned }, ...(search ? { search } : {}) };
  } finally {
    await app.stop();
  }
}

const SEARCH_TOPICS = ['跑步', 'marathon', '拉面', 'piano lessons', '成都旅行', 'the clinic', '猫豆豆', 'Lisbon'];

/** `size` messages over 200 dialogues, one topic in eight per message, then folded into the search index (as its backfill does). */
async function seedSearch(app: RunningApp, size: number, progress: (l: string) => void): Promise<void> {
  const base = Date.UTC(2026, 1, 1);
  const batch: Message[] = [];
  for (let i = 0; i < size; i++) {
    const topic = SEARCH_TOPICS[i % SEARCH_TOPICS.length]!;
    const content =
      i % 2 === 0
        ? `Message ${i}: yesterday I talked about ${topic} again, and it still makes me smile.`
        : `第${i}条：昨天我们又聊到了${topic}，想起来还是很开心。`;
    const at = new Date(base + i * 1000);
    const m: Message = {
      _id: `msg_sb_${i}`,
      dialogueId: `dlg_sb_${i % 200}`,
      sessionId: `ses_sb_${i % 200}`,
      turnId: `trn_sb_${Math.floor(i / 2)}`,
      senderRole: i % 2 === 0 ? 'human' : 'ai',
      senderId: 'hum_sb',
      contentType: 'text',
      content,
      mentions: [],
      visible: true,
      createdAt: at,
      updatedAt: at,
    };
    batch.push(m);
    if (batch.length === 1000) {
      await app.store.c.messages.insertMany(batch.splice(0));
      if ((i + 1) % 20_000 === 0) progress(`graphql: search seed ${i + 1} / ${size}`);
    }
  }
  if (batch.length) await app.store.c.messages.insertMany(batch);
  await indexUntilCaughtUp(app.store);
}

async function searchBench(
  app: RunningApp,
  post: (q: string, v: Record<string, unknown>) => Promise<unknown>,
  o: { samples: number; searchSize: number; progress: (l: string) => void },
): Promise<NonNullable<GraphqlBenchResult['search']>> {
  await seedSearch(app, o.searchSize, o.progress);
  const text = '豆豆';
  const samples = Math.max(5, Math.floor(o.samples / 5)); // each search reads the collection on FerretDB
  const query = `query ($text: String!) { searchMessages(text: $text, first: 20) { edges { node { id dialogueId senderRole content createdAt } } } }`;
  let hits = 0;
  const api = await timed(samples, 2, async () => {
    const data = (await post(query, { text })) as { searchMessages: { edges: unknown[] } };
    hits = data.searchMessages.edges.length;
  });
  const plan = planMessageSearch({ text }, new Date());
  const bare = await timed(samples, 2, async () => {
    const docs = (await searchMessages(app.store, plan, { limit: 20 })).messages;
    if (docs.length < hits) throw new Error('bare search returned fewer messages');
  });
  o.progress(`graphql: search p50 ${fmt(percentile(api, 50))} ms vs bare ${fmt(percentile(bare, 50))} ms`);
  return { api, bare, stored: o.searchSize + 1000, hits, text };
}

export function graphqlTable(r: GraphqlBenchResult): string {
  const row = (what: string, api: number[], bare: number[]) => {
    const [a50, a95, b50, b95] = [percentile(api, 50), percentile(api, 95), percentile(bare, 50), percentile(bare, 95)];
    return [what, `${fmt(a50)} / ${fmt(a95)}`, `${fmt(b50)} / ${fmt(b95)}`, `${fmt(a50 / b50)}× / ${fmt(a95 / b95)}×`];
  };
  const rows = [row(`nested dialogue query (${r.nested.messages} messages)`, r.nested.api, r.nested.bare)];
  if (r.search)
    rows.push(
      row(
        `message search over ${r.search.stored.toLocaleString('en')} messages ("${r.search.text}", ${r.search.hits} hits, page of 20)`,
        r.search.api,
        r.search.bare,
      ),
    );
  return table(['query', 'GraphQL over HTTP p50 / p95 (ms)', 'bare driver p50 / p95 (ms)', 'ratio p50 / p95'], rows);
}
