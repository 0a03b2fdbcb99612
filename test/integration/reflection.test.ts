// Self-reflection end to end: the worker and API roles of a real app on the shared MongoDB-wire
// server and Redis, the fake OpenAI server as the model (a scripted brain for the reflect_*
// tasks, the project's task brain for memory reconciliation), driven through GraphQL like an
// operator. A run over a seeded history stores every introspection turn with every field,
// writes reconciled memories with their provenance, and rolls back to the exact memory set; a
// budget stops a run and says so; two triggers at once run once; a failing or garbling model
// fails the run with its reason and loses nothing; unknown ids are named; the schedule starts a
// run only when switched on, at its slot, once, and not in quiet hours; live events arrive.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import { createClient, type Client } from 'graphql-sse';
import { createLogger } from '../../src/log.js';
import { startApp, type RunningApp } from '../../app/startApp.js';
import type { Env } from '../../src/config/env.js';
import type { Agent, Human, MemoryEntry, MemoryKind, Message, Turn } from '../../src/domain/model.js';
import type { Store } from '../../src/store/store.js';
import { memoryIdOf } from '../../src/store/memories.js';
import { dedupeKeyOf } from '../../src/memory/normalize.js';
import { RedisMemoryVersions } from '../../src/memory/versions.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';
import { DEFAULT_MOOD, DEFAULT_VALUES } from '../../src/domain/reflection.js';
import { stablePrefix } from '../../src/context/buildContext.js';
import { reflectOnSchedule } from '../../src/reflection/schedule.js';
import { RedisReflectionLock } from '../../jobs/reflectionLock.js';
import { ReflectionQueue } from '../../jobs/reflectionJobs.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { defaultTaskReply } from '../doubles/fakeTaskBrain.js';
import { startFakeTelegram, type FakeTelegram } from '../doubles/fakeTelegram.js';
import { gqlRequest, type GqlBody } from '../support/harness.js';
import { dialogueRecord, sessionRecord } from '../support/records.js';
import { TEST_OPS_TOKEN, TEST_VIEWER_TOKEN, eventually, testEnv } from '../support/testEnv.js';

const AGENT = 'agt_rainbow';
const ALICE = 'hum_alice';
const BOB = 'hum_bob';
const MIN = 60_000;

// ---------------------------------------------------------------- the model

/** What the scripted brain proposes about each person (by display name). */
const ABOUT: Record<string, Array<{ kind: string; text: string; importance: number; basisOf?: string }>> = {
  Alice: [
    // Contradicts the seeded "lives in Berlin": reconciliation supersedes it.
    { kind: 'fact', text: 'Alice moved to Paris', importance: 0.8, basisOf: 'Alice lives in Berlin' },
    { kind: 'summary', text: 'Alice spent the week preparing for her cello exam and sounded nervous', importance: 0.6 },
    // Exactly a stored memory: a duplicate, whose provenance grows (the entry changes).
    { kind: 'fact', text: 'Alice plays the cello', importance: 0.5 },
  ],
  Bob: [{ kind: 'summary', text: 'Bob is getting back into chess with his club', importance: 0.5 }],
};

/** Tasks the brain answers with garbage (twice: runJsonTask's retry gets garbage too). */
const garble = new Set<string>();

function reflectionBrain(task: string, system: string, input: string): string {
  if (garble.has(task)) return 'certainly! here are my thoughts, not JSON';
  switch (task) {
    case 'reflect_summarize_human': {
      const name = /^Person: (.+)$/m.exec(input)?.[1] ?? '?';
      const ids = new Map([...input.matchAll(/^- id=(\S+) \([^)]*\) (.*)$/gm)].map((m) => [m[2]!, m[1]!]));
      return JSON.stringify({
        summary: `${name} has had a busy week`,
        memories: (ABOUT[name] ?? []).map((m) => ({
          kind: m.kind,
          text: m.text,
          importance: m.importance,
          basis: m.basisOf && ids.has(m.basisOf) ? [ids.get(m.basisOf)] : [],
        })),
      });
    }
    case 'reflect_evaluate_persona':
      return JSON.stringify({
        evaluation: 'I was warm with both of them but slow to ask how they felt.',
        traits: [{ trait: 'empathy', trend: 'up', note: 'asked about the exam' }],
        memories: [{ kind: 'reflection', text: 'I listen better when I ask about their day first', importance: 0.5 }],
      });
    case 'reflect_adjust_values':
      return JSON.stringify({
        values: [
          { name: 'companionship', weight: 0.7, reason: 'they rely on me' },
          { name: 'patience', weight: 0.95, reason: 'exams take time' },
        ],
        mood: { label: 'content', valence: 0.5, arousal: 0.3 },
        reason: 'a good week',
      });
    case 'reflect_write_report':
      return JSON.stringify({ report: 'I looked back at Alice and Bob, grew more patient, and felt content.' });
    default:
      return defaultTaskReply(task, system, input);
  }
}

// ---------------------------------------------------------------- the app

let env: Env;
let app: RunningApp;
let store: Store;
let llm: FakeOpenAI;
let tg: FakeTelegram;
let redis: Redis;
const clients: Client[] = [];

const gql = <T>(query: string, variables?: Record<string, unknown>, token: string | null = TEST_OPS_TOKEN) =>
  gqlRequest<T>(`${app.apiUrl}/graphql`, query, variables, token);

beforeAll(async () => {
  tg = await startFakeTelegram();
  llm = await startFakeOpenAI({ taskReply: reflectionBrain });
  env = testEnv({
    TELEGRAM_API_ROOT: tg.apiRoot,
    OPENAI_BASE_URL: llm.baseURL,
    EMBEDDINGS: 'offline',
    MEMORY_TASK_TIMEOUT_MS: '10000',
  });
  app = await startApp(env, {
    roles: new Set(['worker', 'api']),
    log: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    mongoUri: env.MONGODB_URI!,
    redisUrl: env.REDIS_URL,
  });
  store = app.store;
  redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
});

afterAll(async () => {
  for (const c of clients) c.dispose();
  await app.stop();
  const client = await MongoClient.connect(env.MONGODB_URI!);
  await client
    .db(env.MONGODB_DB)
    .dropDatabase()
    .catch(() => {});
  await client.close();
  redis.disconnect();
  await llm.close();
  await tg.close();
});

// ---------------------------------------------------------------- the seeded history

const ago = (ms: number) => new Date(Date.now() - ms);
let seededMessages: Record<string, string[]>;
let seededMemories: { berlin: string; cello: string; chess: string };

async function seedMemory(subjectId: string, kind: MemoryKind, text: string, at: Date): Promise<string> {
  const dedupeKey = dedupeKeyOf(AGENT, subjectId, text);
  // The app's own (offline) embedder's vector: its index has nothing to write back.
  const embedder = new HashedNgramEmbedder(env.EMBEDDING_DIMS);
  const [vector] = await embedder.embed([text]);
  const { entry } = await store.memories.insertOnce({
    _id: memoryIdOf(dedupeKey),
    ownerId: AGENT,
    subjectId,
    kind,
    text,
    dedupeKey,
    embedding: toMemoryEmbedding(embedder.id, vector!),
    importance: 0.7,
    sources: { dialogueId: `dlg_${subjectId}` },
    occurredAt: at,
    status: 'active',
    recall: { count: 2, lastAt: at },
    createdAt: at,
    updatedAt: at,
  });
  return entry._id;
}

async function seedTurn(humanId: string, n: number, text: string, reply: string, at: Date): Promise<void> {
  const dialogueId = `dlg_${humanId}`;
  const sessionId = `ses_${humanId}`;
  const turnId = `trn_${humanId}_${n}`;
  const turn: Turn = {
    _id: turnId,
    dialogueId,
    sessionId,
    kind: 'dialogue',
    initiatorRole: 'human',
    initiatorId: humanId,
    responderRole: 'ai',
    responderId: AGENT,
    startedAt: at,
    responseWindowMs: 3 * 3_600_000,
    deadlineAt: new Date(at.getTime() + 3 * 3_600_000),
    status: 'responded',
    closedAt: new Date(at.getTime() + MIN),
  };
  const base = { dialogueId, sessionId, turnId, contentType: 'text' as const, mentions: [], visible: true };
  const messages: Message[] = [
    {
      ...base,
      _id: `${turnId}_h`,
      senderRole: 'human',
      senderId: humanId,
      content: text,
      createdAt: at,
      updatedAt: at,
    },
    {
      ...base,
      _id: `${turnId}_a`,
      senderRole: 'ai',
      senderId: AGENT,
      content: reply,
      delivery: { state: 'complete', platformMessageIds: [] },
      createdAt: new Date(at.getTime() + MIN),
      updatedAt: new Date(at.getTime() + MIN),
    },
  ];
  await store.c.turns.insertOne(turn);
  await store.c.messages.insertMany(messages);
  (seededMessages[humanId] ??= []).push(...messages.map((m) => m._id));
}

async function seed(): Promise<void> {
  seededMessages = {};
  const old = ago(30 * 86_400_000);
  await store.c.agents.insertOne({
    _id: AGENT,
    name: 'Rainbow',
    basePersona: 'You are Rainbow, a warm companion who loves music.',
    isDefault: false,
    createdAt: old,
    updatedAt: old,
  } satisfies Agent);
  await store.c.humans.insertMany([
    {
      _id: ALICE,
      identities: [{ platform: 'telegram', userId: '1' }],
      displayName: 'Alice',
      createdAt: old,
      updatedAt: old,
    },
    {
      _id: BOB,
      identities: [{ platform: 'telegram', userId: '2' }],
      displayName: 'Bob',
      createdAt: old,
      updatedAt: old,
    },
  ] satisfies Human[]);
  for (const h of [ALICE, BOB]) {
    await store.c.dialogues.insertOne(
      dialogueRecord({ id: `dlg_${h}`, humanIds: [h], agentIds: [AGENT], at: old, currentSessionId: `ses_${h}` }),
    );
    await store.c.sessions.insertOne(sessionRecord({ id: `ses_${h}`, dialogueId: `dlg_${h}`, at: old }));
  }
  seededMemories = {
    berlin: await seedMemory(ALICE, 'fact', 'Alice lives in Berlin', ago(10 * 86_400_000)),
    cello: await seedMemory(ALICE, 'fact', 'Alice plays the cello', ago(5 * 86_400_000)),
    chess: await seedMemory(BOB, 'preference', 'Bob loves chess', ago(3 * 3_600_000)),
  };
  await seedTurn(ALICE, 1, 'My cello exam is on Friday and I am so nervous', 'You will do great!', ago(5 * 3_600_000));
  await seedTurn(ALICE, 2, 'I moved to Paris last month, did I tell you?', 'Paris! How exciting.', ago(4 * 3_600_000));
  await seedTurn(BOB, 1, 'Chess club starts again tomorrow', 'Good luck at the board!', ago(3 * 3_600_000));
  // Every process's memory index re-reads the scopes (the seed wrote behind their back).
  const versions = new RedisMemoryVersions(redis, `${env.QUEUE_PREFIX}:`);
  for (const s of [ALICE, BOB]) await versions.bump({ ownerId: AGENT, subjectId: s });
  await versions.bump({ ownerId: AGENT });
}

/** The agent's whole memory set (every status), as stored, in id order. */
async function memorySet(): Promise<MemoryEntry[]> {
  return store.c.memories.find({ ownerId: AGENT }).sort({ _id: 1 }).toArray();
}

beforeEach(async () => {
  llm.reset();
  garble.clear();
  await store.config.reset(new Date());
  await seed();
});

afterEach(async () => {
  // No run of this test may still hold the agent when the next one seeds.
  await eventually(
    async () => !(await redis.exists(`${env.QUEUE_PREFIX}:lock:reflection:${AGENT}`)),
    20_000,
    'lock free',
  );
  const names = [
    'agents',
    'humans',
    'dialogues',
    'sessions',
    'turns',
    'messages',
    'memories',
    'memoryScopes',
    'events',
    'reflections',
    'introspectionTurns',
    'reflectionAgents',
    'reflectionSchedule',
  ] as const;
  await Promise.all(names.map((n) => store.c[n].deleteMany({})));
});

// ---------------------------------------------------------------- GraphQL

const TURN_FIELDS = `id kind reflectionId seq step purpose subjectId tool toolInput toolOutput status error { code message }
  inputContext { memoryIds messageIds turnIds humanIds omitted }
  generatedMemoryIds supersededMemoryIds notes model tokens startedAt durationMs
  moodShift { before { label valence arousal } after { label valence arousal } }
  valueImpact { changes { name before proposed after limited } }`;
const REFLECTION = `id kind agentId trigger triggeredBy goal status report queuedAt startedAt endedAt
  budget { maxTokens maxMemories usedTokens usedMemories calls }
  budgetHit { resource limit used wanted seq step when }
  failure { code message seq step }
  moodAtStart { label }
  memoryChanges { memoryId seq turnId created }
  rollback { by restoredIds removedIds innerRestored }
  turns { ${TURN_FIELDS} }`;

interface TurnView {
  id: string;
  kind: string;
  seq: number;
  step: string;
  purpose: string;
  subjectId: string | null;
  tool: string;
  toolInput: unknown;
  toolOutput: Record<string, unknown> | null;
  status: string;
  error: { code: string; message: string } | null;
  inputContext: { memoryIds: string[]; messageIds: string[]; turnIds: string[]; humanIds: string[] };
  generatedMemoryIds: string[];
  supersededMemoryIds: string[];
  notes: string[];
  model: string | null;
  tokens: number;
  startedAt: string;
  durationMs: number;
  moodShift: { before: { label: string }; after: { label: string; valence: number } } | null;
  valueImpact: { changes: Array<{ name: string; before: number | null; after: number; limited: boolean }> } | null;
}
interface ReflectionView {
  id: string;
  kind: string;
  status: string;
  trigger: string;
  triggeredBy: string | null;
  report: string | null;
  budget: { maxTokens: number; maxMemories: number; usedTokens: number; usedMemories: number; calls: number };
  budgetHit: {
    resource: string;
    limit: number;
    used: number;
    wanted: number;
    seq: number;
    step: string;
    when: string;
  } | null;
  failure: { code: string; message: string; seq: number | null; step: string | null } | null;
  memoryChanges: Array<{ memoryId: string; created: boolean }>;
  rollback: { by: string; restoredIds: string[]; removedIds: string[]; innerRestored: boolean } | null;
  turns: TurnView[];
}

async function trigger(
  agentId = AGENT,
): Promise<{ status: number; body: GqlBody<{ triggerReflection: ReflectionView }> }> {
  return gql<{ triggerReflection: ReflectionView }>(
    `mutation ($a: ID!) { triggerReflection(agentId: $a) { ${REFLECTION} } }`,
    { a: agentId },
  );
}

async function reflection(id: string): Promise<ReflectionView> {
  const r = await gql<{ reflection: ReflectionView }>(`query ($id: ID!) { reflection(id: $id) { ${REFLECTION} } }`, {
    id,
  });
  expect(r.body.errors).toBeUndefined();
  return r.body.data!.reflection;
}

/** Waits until the run ends (and its lock is free). */
async function finished(id: string): Promise<ReflectionView> {
  const run = await eventually(
    async () => {
      const r = await reflection(id);
      return r.status === 'queued' || r.status === 'running' ? undefined : r;
    },
    30_000,
    `reflection ${id} to end`,
  );
  await eventually(async () => !(await redis.exists(`${env.QUEUE_PREFIX}:lock:reflection:${AGENT}`)), 10_000, 'lock');
  return run;
}

async function runOnce(): Promise<ReflectionView> {
  const t = await trigger();
  expect(t.body.errors).toBeUndefined();
  expect(t.body.data!.triggerReflection.status).toBe('queued');
  return finished(t.body.data!.triggerReflection.id);
}

async function rollback(id: string) {
  return gql<{ rollbackReflection: ReflectionView }>(
    `mutation ($id: ID!) { rollbackReflection(reflectionId: $id) { ${REFLECTION} } }`,
    { id },
  );
}

const stateQuery = `query ($a: ID!) { reflectionState(agentId: $a) {
  agentId settings { enabled cron timezone quietHours { start end } lookbackHours }
  values { name weight } mood { label valence arousal } valuesSetBy } }`;
interface StateView {
  settings: {
    enabled: boolean;
    cron: string;
    timezone: string | null;
    quietHours: { start: string; end: string } | null;
  };
  values: Array<{ name: string; weight: number }>;
  mood: { label: string; valence: number; arousal: number };
  valuesSetBy: string | null;
}
async function state(): Promise<StateView> {
  const r = await gql<{ reflectionState: StateView }>(stateQuery, { a: AGENT });
  expect(r.body.errors).toBeUndefined();
  return r.body.data!.reflectionState;
}
const valuesMap = (s: StateView) => Object.fromEntries(s.values.map((v) => [v.name, v.weight]));

// ---------------------------------------------------------------- tests

describe('self-reflection', () => {
  it('runs its introspection turns over the history, writes reconciled memories with provenance, and rolls back exactly', async () => {
    const before = await memorySet();
    const run = await runOnce();
    expect(run).toMatchObject({
      kind: 'self_reflection',
      status: 'completed',
      trigger: 'operator',
      triggeredBy: 'tester',
    });
    expect(run.report).toMatch(/Alice and Bob/);
    expect(run.failure).toBeNull();
    expect(run.budgetHit).toBeNull();

    // Seed 000's steps in order, one summary per person (most recent conversation first).
    expect(run.turns.map((t) => [t.seq, t.step, t.subjectId])).toEqual([
      [0, 'search_memories', null],
      [1, 'summarize_human', BOB],
      [2, 'summarize_human', ALICE],
      [3, 'evaluate_persona', null],
      [4, 'adjust_values', null],
      [5, 'write_report', null],
    ]);
    for (const t of run.turns) {
      expect(t).toMatchObject({ kind: 'introspection', status: 'done', error: null });
      expect(t.purpose.length).toBeGreaterThan(0);
      expect(t.tool).toMatch(/^\w+\.\w+$/);
      expect(t.toolInput).not.toBeNull();
      expect(t.toolOutput).not.toBeNull();
      expect(t.durationMs).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(t.startedAt))).toBe(false);
      expect(Array.isArray(t.generatedMemoryIds)).toBe(true);
      expect(t).toHaveProperty('moodShift');
      expect(t).toHaveProperty('valueImpact');
    }
    const [search, bob, alice, evaluate, adjust, report] = run.turns as [
      TurnView,
      TurnView,
      TurnView,
      TurnView,
      TurnView,
      TurnView,
    ];
    expect(search.tool).toBe('memory.search');
    expect(search.tokens).toBe(0);
    expect(search.inputContext.turnIds.sort()).toEqual(['trn_hum_alice_1', 'trn_hum_alice_2', 'trn_hum_bob_1']);
    expect(search.inputContext.humanIds).toEqual([BOB, ALICE]);
    expect(alice.toolInput).toEqual(expect.stringContaining('I moved to Paris last month'));
    expect(alice.inputContext.messageIds.sort()).toEqual([...seededMessages[ALICE]!].sort());
    expect(alice.inputContext.memoryIds).toEqual(expect.arrayContaining([seededMemories.berlin, seededMemories.cello]));
    expect(alice.tokens).toBeGreaterThan(0);
    expect(alice.model).toBeTruthy();

    // Alice: a new fact that supersedes Berlin (kept, never deleted), a summary, and the duplicate
    // cello fact settled onto the stored entry.
    const paris = memoryIdOf(dedupeKeyOf(AGENT, ALICE, 'Alice moved to Paris'));
    expect(alice.generatedMemoryIds).toEqual(expect.arrayContaining([paris]));
    expect(alice.supersededMemoryIds).toEqual([seededMemories.berlin]);
    const berlin = (await store.memories.get(seededMemories.berlin))!;
    expect(berlin).toMatchObject({ status: 'superseded', supersededBy: paris });
    const parisEntry = (await store.memories.get(paris))!;
    expect(parisEntry.status).toBe('active');
    expect(parisEntry.sources.messageIds?.sort()).toEqual([...seededMessages[ALICE]!].sort());
    expect(parisEntry.sources.turnIds?.sort()).toEqual(['trn_hum_alice_1', 'trn_hum_alice_2']);
    expect(parisEntry.sources.dialogueId).toBe(`dlg_${ALICE}`);
    expect(parisEntry.sources.memoryIds).toEqual([seededMemories.berlin]);
    const summary = (await store.memories.get(memoryIdOf(dedupeKeyOf(AGENT, ALICE, ABOUT.Alice![1]!.text))))!;
    expect(summary).toMatchObject({ kind: 'summary', status: 'active' });
    // No basis named: every memory the step was shown led to it.
    expect(summary.sources.memoryIds?.sort()).toEqual([...alice.inputContext.memoryIds].sort());
    expect(summary.sources.messageIds?.sort()).toEqual([...seededMessages[ALICE]!].sort());
    const cello = (await store.memories.get(seededMemories.cello))!;
    expect(cello.sources.turnIds?.sort()).toEqual(['trn_hum_alice_1', 'trn_hum_alice_2']);
    expect((await memorySet()).filter((m) => m.subjectId === ALICE && m.text === 'Alice plays the cello')).toHaveLength(
      1,
    );
    expect(bob.generatedMemoryIds).toHaveLength(1);

    // The agent's own insight, and values and mood moved within their bounds.
    const insight = (await store.memories.get(evaluate.generatedMemoryIds[0]!))!;
    expect(insight).toMatchObject({ kind: 'reflection', status: 'active' });
    expect(insight.subjectId).toBeUndefined();
    expect(adjust.moodShift).toMatchObject({ before: { label: DEFAULT_MOOD.label }, after: { label: 'content' } });
    expect(adjust.valueImpact!.changes).toEqual([
      { name: 'companionship', before: 0.6, proposed: 0.7, after: 0.7, limited: false },
      { name: 'patience', before: null, proposed: 0.95, after: 0.7, limited: true },
    ]);
    expect(adjust.notes.join(' ')).toMatch(/patience: proposed 0.95, moved to 0.7/);
    expect(report.toolOutput).toMatchObject({ report: run.report });
    const moved = await state();
    expect(valuesMap(moved)).toEqual({ ...DEFAULT_VALUES, companionship: 0.7, patience: 0.7 });
    expect(moved.mood.label).toBe('content');
    expect(moved.valuesSetBy).toBe(run.id);
    // The agent's replies carry the mood and values the run left.
    const reflected = (await store.participants.getAgent(AGENT))!;
    expect(stablePrefix({ agent: reflected, groupChat: false })).toContain(
      '[Your inner state]\nMood: content. What you value most (0–1): companionship 0.7, honesty 0.7, patience 0.7, empathy 0.6',
    );

    // The budget counted every call; the ledger names every entry the run wrote or changed.
    expect(run.budget.calls).toBeGreaterThanOrEqual(5);
    expect(run.budget.usedTokens).toBeGreaterThan(0);
    expect(run.budget.usedMemories).toBe(5);
    expect(run.memoryChanges.filter((c) => c.created).map((c) => c.memoryId)).toEqual(
      expect.arrayContaining([paris, insight._id]),
    );
    expect(
      run.memoryChanges
        .filter((c) => !c.created)
        .map((c) => c.memoryId)
        .sort(),
    ).toEqual([seededMemories.berlin, seededMemories.cello].sort());

    // Rollback: the memory set is exactly what it was, values and mood too.
    const r = await rollback(run.id);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!.rollbackReflection.rollback).toMatchObject({ by: 'tester', innerRestored: true });
    expect(await memorySet()).toEqual(before);
    const back = await state();
    expect(valuesMap(back)).toEqual(DEFAULT_VALUES);
    expect(back.mood).toEqual(DEFAULT_MOOD);
    expect(stablePrefix({ agent: (await store.participants.getAgent(AGENT))!, groupChat: false })).toContain(
      `Mood: ${DEFAULT_MOOD.label}.`,
    );
    // The run's record stays, with its turns; a second rollback is refused.
    expect((await reflection(run.id)).turns).toHaveLength(6);
    const again = await rollback(run.id);
    expect(again.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  });

  it('refuses to roll back an older run while a newer one changed the same memories, then rolls back in order', async () => {
    const before = await memorySet();
    const first = await runOnce();
    const second = await runOnce();
    expect(second.status).toBe('completed');
    const refused = await rollback(first.id);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('REFLECTION_ROLLBACK_CONFLICT');
    expect(refused.body.errors?.[0]?.message).toMatch(/roll that back first|after the reflection/);
    expect((await rollback(second.id)).body.errors).toBeUndefined();
    expect((await rollback(first.id)).body.errors).toBeUndefined();
    expect(await memorySet()).toEqual(before);
  });

  it('stops at the memory budget, records where, and writes none of that step', async () => {
    await store.config.update({ limits: { reflection_max_memories: 2 } }, new Date());
    const before = await memorySet();
    const run = await runOnce();
    expect(run.status).toBe('budget_exceeded');
    // Bob's one summary fits; Alice's three would pass the limit of 2.
    expect(run.budgetHit).toEqual({
      resource: 'memories',
      limit: 2,
      used: 1,
      wanted: 3,
      seq: 2,
      step: 'summarize_human',
      when: 'before_write',
    });
    expect(run.turns.map((t) => [t.seq, t.status])).toEqual([
      [0, 'done'],
      [1, 'done'],
      [2, 'budget_exceeded'],
    ]);
    expect(run.turns[2]!.error?.code).toBe('BUDGET_EXCEEDED');
    expect(run.turns[2]!.generatedMemoryIds).toEqual([]);
    // Its proposals are kept in the turn's output, not silently dropped.
    expect(JSON.stringify(run.turns[2]!.toolOutput)).toContain('Alice moved to Paris');
    expect(run.report).toBeNull();
    const after = await memorySet();
    expect(after.filter((m) => !before.some((b) => b._id === m._id)).map((m) => m.text)).toEqual([ABOUT.Bob![0]!.text]);
    expect((await store.memories.get(seededMemories.berlin))!.status).toBe('active');
  });

  it('stops at the token budget before a call that would not fit', async () => {
    await store.config.update({ limits: { reflection_max_tokens: 1_000 } }, new Date());
    const run = await runOnce();
    expect(run.status).toBe('budget_exceeded');
    // Bob's summary and its reconcile call fit; Alice's prompt would not, so it is never sent.
    expect(run.budgetHit).toMatchObject({
      resource: 'tokens',
      limit: 1_000,
      seq: 2,
      step: 'summarize_human',
      when: 'before_call',
    });
    const hit = run.budgetHit!;
    expect(hit.used + hit.wanted).toBeGreaterThan(1_000);
    expect(run.budget.usedTokens).toBe(hit.used);
    expect(run.budget.usedTokens).toBeLessThanOrEqual(1_000);
    expect(run.turns.map((t) => [t.seq, t.status])).toEqual([
      [0, 'done'],
      [1, 'done'],
      [2, 'budget_exceeded'],
    ]);
    expect(run.turns[2]).toMatchObject({ tokens: 0, toolOutput: null });
    expect(run.turns[2]!.toolInput).toEqual(expect.stringContaining('Person: Alice'));
    expect(run.turns[2]!.error?.message).toMatch(/tokens limit 1000/);
  });

  it('runs one reflection when two are triggered at once; the other is refused with REFLECTION_RUNNING', async () => {
    const [a, b] = await Promise.all([trigger(), trigger()]);
    const won = [a, b].filter((r) => r.body.data?.triggerReflection);
    const lost = [a, b].filter((r) => r.body.errors);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const id = won[0]!.body.data!.triggerReflection.id;
    expect(lost[0]!.body.errors![0]!.extensions?.code).toBe('REFLECTION_RUNNING');
    expect(lost[0]!.body.errors![0]!.message).toContain(id);
    // A rollback is refused while it runs too.
    const early = await rollback(id);
    expect(early.body.errors?.[0]?.extensions?.code).toBe('REFLECTION_RUNNING');
    expect((await finished(id)).status).toBe('completed');
    const list = await gql<{ reflections: { edges: Array<{ node: { id: string } }> } }>(
      `query ($a: ID!) { reflections(agentId: $a, first: 10) { edges { node { id } } } }`,
      { a: AGENT },
    );
    expect(list.body.data!.reflections.edges.map((e) => e.node.id)).toEqual([id]);
  });

  it('fails the run with the model’s error, keeps its turns, and changes no memory', async () => {
    const before = await memorySet();
    llm.enqueueTask({ kind: 'error', status: 400, message: 'the model is unwell' });
    const run = await runOnce();
    expect(run.status).toBe('failed');
    expect(run.failure).toMatchObject({ code: 'LLM_SERVICE_ERROR', seq: 1, step: 'summarize_human' });
    expect(run.failure!.message).toMatch(/unwell|400/);
    expect(run.turns.map((t) => [t.seq, t.status])).toEqual([
      [0, 'done'],
      [1, 'failed'],
    ]);
    expect(run.turns[1]!.error?.code).toBe('LLM_SERVICE_ERROR');
    expect(run.turns[1]!.toolInput).toEqual(expect.stringContaining('Chess club starts again tomorrow'));
    expect(await memorySet()).toEqual(before);
    expect(valuesMap(await state())).toEqual(DEFAULT_VALUES);
  });

  it('fails on garbage from the model after earlier steps wrote, keeps what they wrote, and rolls that back', async () => {
    garble.add('reflect_evaluate_persona');
    const before = await memorySet();
    const run = await runOnce();
    expect(run.status).toBe('failed');
    expect(run.failure).toMatchObject({ code: 'LLM_SERVICE_ERROR', seq: 3, step: 'evaluate_persona' });
    expect(run.failure!.message).toMatch(/unusable output/);
    expect(run.turns.map((t) => t.status)).toEqual(['done', 'done', 'done', 'failed']);
    // What the summaries wrote stays (nothing lost), reconciled and in the ledger.
    const written = run.turns.flatMap((t) => t.generatedMemoryIds);
    expect(written.length).toBeGreaterThan(0);
    for (const id of written) expect((await store.memories.get(id))?.status).toBe('active');
    expect((await rollback(run.id)).body.errors).toBeUndefined();
    expect(await memorySet()).toEqual(before);
  });

  it('names unknown agents and reflections', async () => {
    const t = await trigger('agt_nobody');
    expect(t.body.errors?.[0]).toMatchObject({
      message: 'no agent with id agt_nobody',
      extensions: { code: 'NOT_FOUND' },
    });
    const list = await gql(`query { reflections(agentId: "agt_nobody") { edges { node { id } } } }`);
    expect(list.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const r = await rollback('rfl_nothing');
    expect(r.body.errors?.[0]).toMatchObject({
      message: 'no reflection with id rfl_nothing',
      extensions: { code: 'NOT_FOUND' },
    });
    const one = await gql(`query { reflection(id: "rfl_nothing") { id } }`);
    expect(one.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // Viewers read but may not trigger.
    const viewer = await gql(`mutation { triggerReflection(agentId: "${AGENT}") { id } }`, {}, TEST_VIEWER_TOKEN);
    expect(viewer.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('schedules only when switched on: at its slot, once per slot, never in quiet hours', async () => {
    const deps = {
      store,
      lock: new RedisReflectionLock(redis, env.QUEUE_PREFIX, 60_000),
      queue: new ReflectionQueue(redis, env.QUEUE_PREFIX),
      log: createLogger('silent'),
      defaultTimezone: 'UTC',
    };
    try {
      expect((await state()).settings).toMatchObject({ enabled: false, cron: '0 3 * * *' });
      const now = new Date();
      expect(await reflectOnSchedule(deps, now)).toEqual({ started: [], skipped: [] });

      const set = (settings: Record<string, unknown>) =>
        gql<{ setReflectionSettings: StateView }>(
          `mutation ($a: ID!, $s: ReflectionSettingsInput!) { setReflectionSettings(agentId: $a, settings: $s) { settings { enabled cron quietHours { start end } } } }`,
          { a: AGENT, s: settings },
        );
      const bad = await set({ cron: '61 * * * *', timezone: 'Mars/Base' });
      expect(bad.body.errors?.[0]?.extensions?.code).toBe('CONFIG_INVALID');
      expect(bad.body.errors?.[0]?.message).toMatch(/minute.*Mars\/Base|Mars\/Base.*minute/s);

      const hh = (d: Date) => d.toISOString().slice(11, 16);
      const quiet = { start: hh(new Date(now.getTime() - 30 * MIN)), end: hh(new Date(now.getTime() + 30 * MIN)) };
      expect((await set({ enabled: true, cron: '* * * * *', quietHours: quiet })).body.errors).toBeUndefined();
      expect(await reflectOnSchedule(deps, now)).toEqual({
        started: [],
        skipped: [{ agentId: AGENT, reason: 'quiet_hours' }],
      });

      expect((await set({ quietHours: null })).body.data!.setReflectionSettings.settings.quietHours).toBeNull();
      const tick = await reflectOnSchedule(deps, now);
      expect(tick.started).toHaveLength(1);
      // The same slot again (a second scheduler, or a late tick) starts nothing more.
      expect((await reflectOnSchedule(deps, now)).started).toEqual([]);
      const run = await finished(tick.started[0]!);
      expect(run).toMatchObject({ status: 'completed', trigger: 'schedule', triggeredBy: null });
    } finally {
      await deps.queue.close();
    }
  });

  it('sends live events of a run to viewers: queued, started, each turn, finished', async () => {
    const client = createClient({
      url: `${app.apiUrl}/graphql`,
      headers: { authorization: `Bearer ${TEST_VIEWER_TOKEN}` },
      singleConnection: false,
      retryAttempts: 0,
    });
    clients.push(client);
    const got: Array<{ change: string; reflection: { id: string; status: string }; turn: { seq: number } | null }> = [];
    client.subscribe<{ reflectionEvents: (typeof got)[number] }>(
      {
        query: `subscription ($a: ID!) { reflectionEvents(agentId: $a) { change reflection { id status } turn { seq } } }`,
        variables: { a: AGENT },
      },
      { next: (r) => void (r.data && got.push(r.data.reflectionEvents)), error: () => {}, complete: () => {} },
    );
    const channel = `${env.QUEUE_PREFIX}:feed:reflections:${AGENT}`;
    await eventually(
      async () => Number(((await redis.pubsub('NUMSUB', channel)) as [string, number])[1]) === 1,
      5_000,
      'subscriber',
    );
    const run = await runOnce();
    await eventually(() => Promise.resolve(got.some((e) => e.change === 'FINISHED')), 5_000, 'finished event');
    expect(got[0]).toMatchObject({ change: 'QUEUED', reflection: { id: run.id } });
    expect(got.filter((e) => e.change === 'TURN').map((e) => e.turn?.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(got.at(-1)).toMatchObject({ change: 'FINISHED', reflection: { status: 'completed' } });
    client.dispose();
  });
});
