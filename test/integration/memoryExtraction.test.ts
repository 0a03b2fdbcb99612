// Post-turn memory extraction against the real MongoDB-wire server and Redis, with the fake
// OpenAI server's task brain as the model: facts with the conversation's own timestamps, a
// contradicted memory superseded (never deleted), exact duplicates stored once, the model down,
// oversized memories clamped.
import { startMemoryRig, type MemoryRig } from '../support/memoryRig.js';
import { dialogueRecord, sessionRecord } from '../support/records.js';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { Agent, Human, MemoryEntry, Message, Turn } from '../../src/domain/model.js';
import { findSimilar } from '../../src/memory/similar.js';
import { extractTurnMemories, turnFactsOf, type MemoryWriteDeps } from '../../src/memory/extraction.js';
import { type FakeOpenAI } from '../doubles/fakeOpenAI.js';

const AGENT = 'agt_default';
const HUMAN = 'hum_alice';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);

let rig: MemoryRig;
let store: Store;
let llm: FakeOpenAI;
let deps: MemoryWriteDeps;

beforeAll(async () => {
  rig = await startMemoryRig();
  ({ store, llm } = rig);
});

afterAll(() => rig.close());

let dialogueId: string;
let sessionId: string;

beforeEach(async () => {
  llm.reset();
  deps = { ...rig.taskDeps(), now: () => new Date(T0 + 30 * DAY) };
  dialogueId = `dlg_${randomBytes(4).toString('hex')}`;
  sessionId = `ses_${randomBytes(4).toString('hex')}`;
  const at = new Date(T0);
  await store.c.agents.insertOne({
    _id: AGENT,
    name: 'Rainbow',
    basePersona: 'A kind companion.',
    isDefault: true,
    createdAt: at,
    updatedAt: at,
  } satisfies Agent);
  await store.c.humans.insertOne({
    _id: HUMAN,
    identities: [{ platform: 'telegram', userId: '42' }],
    displayName: 'Alice',
    createdAt: at,
    updatedAt: at,
  } satisfies Human);
  await store.c.dialogues.insertOne(dialogueRecord({ id: dialogueId, humanIds: [HUMAN], agentIds: [AGENT], at }));
  await store.c.sessions.insertOne(sessionRecord({ id: sessionId, dialogueId, at }));
});

afterEach(() => rig.clear());

let turnNo = 0;
/** One answered turn: the human's messages (a minute apart from `at`) and the AI reply. */
async function answeredTurn(at: number, texts: string[], reply = 'I see, thanks for telling me.'): Promise<Turn> {
  const turnId = `trn_${++turnNo}_${randomBytes(3).toString('hex')}`;
  const start = new Date(at);
  const turn: Turn = {
    _id: turnId,
    dialogueId,
    sessionId,
    kind: 'dialogue',
    initiatorRole: 'human',
    initiatorId: HUMAN,
    responderRole: 'ai',
    responderId: AGENT,
    startedAt: start,
    responseWindowMs: 3 * 3_600_000,
    deadlineAt: new Date(at + 3 * 3_600_000),
    status: 'responded',
    closedAt: new Date(at + texts.length * 60_000 + 5_000),
  };
  await store.c.turns.insertOne(turn);
  const msg = (i: number, role: 'human' | 'ai', content: string, time: number): Message => ({
    _id: `${turnId}_m${i}`,
    dialogueId,
    sessionId,
    turnId,
    senderRole: role,
    senderId: role === 'human' ? HUMAN : AGENT,
    contentType: 'text',
    content,
    mentions: [],
    visible: true,
    createdAt: new Date(time),
    updatedAt: new Date(time),
  });
  // Stored as the app stores them: each message also enters its session's working window.
  for (const m of [
    ...texts.map((t, i) => msg(i, 'human', t, at + i * 60_000)),
    msg(texts.length, 'ai', reply, at + texts.length * 60_000),
  ])
    await store.messages.insertOnce(m);
  return turn;
}

/** Every memory about Alice, any status, by conversation time then text (entries of one run share createdAt). */
const all = async (): Promise<MemoryEntry[]> =>
  (await store.c.memories.find({ ownerId: AGENT, subjectId: HUMAN }).toArray()).sort(
    (a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.text.localeCompare(b.text),
  );
const withText = async (needle: string): Promise<MemoryEntry[]> => (await all()).filter((m) => m.text.includes(needle));
const taskNames = (): string[] => llm.taskRequests.map((r) => r.task);

describe('post-turn memory extraction', () => {
  it('stores a fact with the conversation time, its sources and vector, and marks the turn done', async () => {
    const turn = await answeredTurn(T0, ['Hi there!', 'I live in Berlin.']);
    const summary = await extractTurnMemories(deps, { turnId: turn._id });
    expect(summary).toMatchObject({ added: 1, candidates: 1, superseded: 0 });

    const [berlin] = await all();
    expect(berlin).toMatchObject({
      kind: 'fact',
      text: 'User lives in Berlin.',
      status: 'active',
      recall: { count: 0 },
      // The message's own time (a minute after the turn opened), not the extraction time 30 days later.
      occurredAt: new Date(T0 + 60_000),
      sources: {
        dialogueId,
        sessionId,
        turnIds: [turn._id],
        messageIds: [`${turn._id}_m0`, `${turn._id}_m1`, `${turn._id}_m2`],
      },
    });
    expect(berlin!.embedding?.model).toBe(deps.embedder.id);
    // The model saw the turn with its timestamps.
    const extract = llm.taskRequests.find((r) => r.task === 'extract_memories')!;
    expect(extract.input).toContain(`[${new Date(T0 + 60_000).toISOString()}] user (Alice): I live in Berlin.`);
    expect(extract.input).toContain('assistant (Rainbow): I see, thanks for telling me.');

    // Operators see the call in the turn's events; it also marks the turn as extracted.
    const events = await store.events.ofTurn(turn._id);
    const calls = events.filter((e) => e.kind === 'llm_call');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.data).toMatchObject({ task: 'extract_memories', ops: { added: 1 }, memoryIds: [berlin!._id] });
    const again = await extractTurnMemories(deps, { turnId: turn._id });
    expect(again.skipped).toBe('already_extracted');
    expect(taskNames()).toEqual(['extract_memories']);

    // The writer's own process sees the new memory at once.
    const similar = await findSimilar(
      { embedder: deps.embedder, cache: deps.cache },
      { ownerId: AGENT, subjectId: HUMAN },
      ['Where does the user live? Berlin'],
      3,
    );
    expect(similar[0]!.map((h) => h.entry.id)).toContain(berlin!._id);
  });

  it('with the facts the reply carried, reads no turn, dialogue or participant again and stores the same', async () => {
    const turn = await answeredTurn(T0, ['I live in Berlin.']);
    const facts = turnFactsOf(turn, {
      groupChat: false,
      agentName: 'Rainbow',
      userName: 'Alice',
      origin: { dialogueId: turn.dialogueId, scope: 'private' },
    })!;
    const read: string[] = [];
    const spy = (coll: 'turns' | 'dialogues' | 'agents' | 'humans') => {
      const c = store.c[coll] as unknown as { findOne: (...a: unknown[]) => unknown };
      const original = c.findOne.bind(c);
      c.findOne = (...a: unknown[]) => {
        read.push(coll);
        return original(...a);
      };
      return () => void (c.findOne = original);
    };
    const restore = (['turns', 'dialogues', 'agents', 'humans'] as const).map(spy);
    try {
      const summary = await extractTurnMemories(deps, { turnId: turn._id, facts });
      expect(summary).toMatchObject({ added: 1, candidates: 1 });
    } finally {
      restore.forEach((r) => r());
    }
    expect(read).toEqual([]);
    expect((await all()).map((m) => m.text)).toEqual(['User lives in Berlin.']);
    const extract = llm.taskRequests.find((r) => r.task === 'extract_memories')!;
    expect(extract.input).toContain('user (Alice): I live in Berlin.');
    expect(extract.input).toContain('assistant (Rainbow):');
  });

  it('supersedes a contradicted memory (kept stored) and keeps the new one active', async () => {
    await extractTurnMemories(deps, { turnId: (await answeredTurn(T0, ['I live in Berlin.']))._id });
    const later = await answeredTurn(T0 + 10 * DAY, ['Big news: I moved to Paris!']);
    const summary = await extractTurnMemories(deps, { turnId: later._id });
    expect(summary).toMatchObject({ added: 1, superseded: 1 });

    const [berlin] = await withText('Berlin');
    const [paris] = await withText('Paris');
    expect(paris).toMatchObject({ status: 'active', occurredAt: new Date(T0 + 10 * DAY) });
    expect(berlin).toMatchObject({ status: 'superseded', supersededBy: paris!._id });
    expect(berlin!.supersededAt).toBeInstanceOf(Date);
    // The model was shown the stored Berlin memory by id.
    const reconcile = llm.taskRequests.find((r) => r.task === 'reconcile_memories')!;
    expect(reconcile.input).toContain(`id=${berlin!._id}`);
    expect(await store.memories.countActive({ ownerId: AGENT, subjectId: HUMAN })).toBe(1);

    // Saying the old fact again makes it current and retires Paris in turn.
    await extractTurnMemories(deps, { turnId: (await answeredTurn(T0 + 20 * DAY, ['I live in Berlin.']))._id });
    expect((await withText('Berlin'))[0]).toMatchObject({ _id: berlin!._id, status: 'active' });
    expect((await withText('Paris'))[0]).toMatchObject({ status: 'superseded', supersededBy: berlin!._id });
    expect(await all()).toHaveLength(2);
  });

  it('supersedes in Chinese too', async () => {
    await extractTurnMemories(deps, { turnId: (await answeredTurn(T0, ['我住在上海。']))._id });
    await extractTurnMemories(deps, { turnId: (await answeredTurn(T0 + DAY, ['我搬到北京了。']))._id });
    expect((await withText('上海'))[0]).toMatchObject({ status: 'superseded' });
    expect((await withText('北京'))[0]).toMatchObject({ status: 'active' });
  });

  it('stores the same fact once, wherever it is said again, and a retried run adds nothing', async () => {
    const first = await answeredTurn(T0, ['I have a dog named Rex.']);
    const second = await answeredTurn(T0 + DAY, ['  i have a dog named rex!! ', 'I work as a nurse.']);
    await extractTurnMemories(deps, { turnId: first._id });
    const summary = await extractTurnMemories(deps, { turnId: second._id });
    expect(summary).toMatchObject({ added: 1, noops: 1 });
    const rex = await withText('Rex');
    expect(rex).toHaveLength(1);
    // Restating it adds the turn to the memory's provenance.
    expect(rex[0]!.sources.turnIds).toEqual([first._id, second._id]);

    // A crash after writing but before the turn was marked: the rerun stores no duplicates.
    await store.c.events.deleteMany({ turnId: second._id });
    await extractTurnMemories(deps, { turnId: second._id });
    expect((await all()).map((m) => m.text).sort()).toEqual(['User has a dog named Rex.', 'User works as a nurse.']);
  });

  it('adds new memories when the model is down for the comparison, and retries extraction later when it is down for that', async () => {
    await extractTurnMemories(deps, { turnId: (await answeredTurn(T0, ['I live in Berlin.']))._id });
    const later = await answeredTurn(T0 + DAY, ['I moved to Paris.']);
    llm.enqueueTask(
      {
        kind: 'reply',
        chunks: [
          JSON.stringify({
            memories: [
              {
                kind: 'fact',
                text: 'User moved to Paris.',
                importance: 0.9,
                occurredAt: new Date(T0 + DAY).toISOString(),
              },
            ],
          }),
        ],
      },
      { kind: 'error', status: 500, message: 'reconcile is down' },
    );
    const summary = await extractTurnMemories(deps, { turnId: later._id });
    expect(summary).toMatchObject({ added: 1, superseded: 0 });
    // Nothing lost: both stay active until a later comparison or the nightly consolidation.
    expect((await all()).map((m) => [m.text, m.status])).toEqual([
      ['User lives in Berlin.', 'active'],
      ['User moved to Paris.', 'active'],
    ]);
    const event = (await store.events.ofTurn(later._id)).find((e) => e.kind === 'llm_call')!;
    expect(event.data).toMatchObject({ fallback: true });

    // Extraction itself failing: nothing stored, the turn is not marked, the job's retry runs it.
    const third = await answeredTurn(T0 + 2 * DAY, ['I love jazz.']);
    llm.enqueueTask({ kind: 'error', status: 503, message: 'down' });
    await expect(extractTurnMemories(deps, { turnId: third._id })).rejects.toMatchObject({ code: 'LLM_SERVICE_ERROR' });
    expect(await store.events.ofTurn(third._id)).toEqual([]);
    await extractTurnMemories(deps, { turnId: third._id });
    expect(await withText('jazz')).toHaveLength(1);
  });

  it('cuts an oversized memory at a sentence within the configured limit and drops invalid entries', async () => {
    await store.config.update({ limits: { memory_max_chars: 120 } }, new Date(T0));
    const long = `User is writing a novel about a lighthouse keeper. ${'The story follows three generations of one family on the coast. '.repeat(20)}`;
    llm.enqueueTask({
      kind: 'reply',
      chunks: [
        JSON.stringify({
          memories: [
            { kind: 'fact', text: long, importance: 0.7 },
            { kind: 'rumour', text: 'User is secretly a spy.', importance: 0.5 },
            { kind: 'preference', text: 'User prefers tea over coffee.', importance: 0.6 },
          ],
        }),
      ],
    });
    const turn = await answeredTurn(T0, ['Let me tell you about my novel...']);
    const summary = await extractTurnMemories(deps, { turnId: turn._id });
    expect(summary).toMatchObject({ candidates: 2, added: 2 });
    const texts = (await all()).map((m) => m.text);
    expect(texts).toEqual([
      'User is writing a novel about a lighthouse keeper. The story follows three generations of one family on the coast.',
      'User prefers tea over coffee.',
    ]);
    expect(texts.every((t) => t.length <= 120)).toBe(true);
    expect(texts.join(' ')).not.toContain('spy');
    // No time from the model: the message's own time.
    expect((await all())[0]!.occurredAt).toEqual(new Date(T0));
  });

  it('applies an update the model asks for, and ignores an operation on an id it was not shown', async () => {
    await extractTurnMemories(deps, { turnId: (await answeredTurn(T0, ['I work as a nurse.']))._id });
    const [nurse] = await all();
    const later = await answeredTurn(T0 + DAY, ['I work as a nurse at the Charité, nights mostly.']);
    llm.enqueueTask(
      {
        kind: 'reply',
        chunks: [
          JSON.stringify({
            memories: [
              { kind: 'fact', text: 'User works night shifts as a nurse at the Charité.', importance: 0.9 },
              { kind: 'preference', text: 'User likes night shifts.', importance: 0.4 },
            ],
          }),
        ],
      },
      {
        kind: 'reply',
        chunks: [
          JSON.stringify({
            operations: [
              {
                candidate: 0,
                op: 'update',
                targetId: nurse!._id,
                text: 'User works as a nurse at the Charité, mostly night shifts.',
              },
              { candidate: 1, op: 'invalidate', targetId: 'mem_not_shown' },
            ],
          }),
        ],
      },
    );
    const summary = await extractTurnMemories(deps, { turnId: later._id });
    expect(summary).toMatchObject({ updated: 1, added: 1, superseded: 0 });
    const rows = await all();
    expect(rows.map((m) => [m.text, m.status])).toEqual([
      ['User works as a nurse at the Charité, mostly night shifts.', 'active'],
      ['User likes night shifts.', 'active'],
    ]);
    expect(rows[0]!._id).toBe(nurse!._id);
    expect(rows[0]!.sources.turnIds).toHaveLength(2);
    expect(rows[0]!.embedding?.model).toBe(deps.embedder.id);
  });
});
