// SPEC §3's access rule, kept by a test: every MongoDB command of a full turn — ingest through the
// Telegram adapter, the streamed reply, the post-turn jobs (memory extraction, rolling summary,
// tone, persona evolution) — addresses exactly one document by `_id`. A query on any other field
// scans the whole collection on the embedded FerretDB, so one slipping in makes every turn cost
// grow with the record. Anything that truly cannot be by `_id` goes on the allow-list with why.
import { Redis } from 'ioredis';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { watchCommands, withCommandMonitoring, type Classified, type CommandWatch } from '../support/commandWatch.js';
import { MemoryQueue } from '../../jobs/memoryJobs.js';
import { extractionEventIdOf } from '../../src/memory/extraction.js';
import type { EventLog, Message, Turn } from '../../src/domain/model.js';
import type { RoomRound } from '../../src/domain/room.js';
import { createRoom } from '../../src/rooms/createRoom.js';

/**
 * Commands allowed on the hot path although they are not an `_id` lookup, by shape (see
 * commandWatch.ts, e.g. `turns find {sessionId,status}`), each with its reason. Empty: nothing
 * on the path needs one.
 */
const ALLOWED: Array<{ shape: string; why: string }> = [];

const allowed = (c: Classified) => c.cls === 'idOnly' || ALLOWED.some((a) => a.shape === c.shape);

const CHAT = 770_123;

describe('hot path access rule (SPEC §3)', () => {
  let h: Harness;
  let watch: CommandWatch;
  let redis: Redis;
  let memory: MemoryQueue;
  // The test reads through its own client, so its queries are not counted as the app's.
  let reader: MongoClient;
  let db: Db;

  beforeAll(async () => {
    // No api role (its search-keys backfill scans by design); sweepers far apart so none runs here.
    h = await startHarness({ MONGODB_URI: withCommandMonitoring(inject('mongoUri')), SWEEP_AFTER_MS: '600000' }, [
      'gateway',
      'worker',
    ]);
    await h.app.backfilled;
    // Persona evolution after every reply, so the full turn covers that post-turn job too.
    await h.app.store.config.update({ thresholds: { persona_evolve_every_turns: 1 } }, new Date());
    watch = watchCommands(h.app.store.client, h.env.MONGODB_DB);
    redis = new Redis(h.env.REDIS_URL, { maxRetriesPerRequest: null });
    memory = new MemoryQueue(redis, h.env.QUEUE_PREFIX);
    reader = await MongoClient.connect(inject('mongoUri'));
    db = reader.db(h.env.MONGODB_DB);
  });
  afterAll(async () => {
    await reader.close();
    await memory.close();
    await redis.quit();
    await h.stop();
  });

  /** Until nothing waits or runs on the memory queue. */
  const memoryJobsDone = () =>
    eventually(
      async () => {
        const c = await memory.queue.getJobCounts('waiting', 'active', 'prioritized');
        return (c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0) === 0;
      },
      20_000,
      'memory jobs done',
    );

  /** Until the turn is answered and its post-turn jobs (extraction, rolling summary) have run. */
  async function turnDone(nth: number): Promise<Turn> {
    const turn = await eventually(
      async () => {
        const turns = await db.collection<Turn>('turns').find({}).sort({ startedAt: 1 }).toArray();
        const t = turns[nth];
        return t?.status === 'responded' ? t : undefined;
      },
      20_000,
      `turn ${nth + 1} answered`,
    );
    await eventually(
      async () =>
        (await db.collection<EventLog>('events').findOne({ _id: extractionEventIdOf(turn._id) })) ?? undefined,
      20_000,
      'memory extraction',
    );
    await memoryJobsDone();
    return turn;
  }

  it('reads and writes every document of a full turn by _id only', async () => {
    watch.start();
    // A new chat: a new human, dialogue, session and window, and memories to extract.
    h.tg.pushUpdate(
      privateText({
        updateId: 1,
        chatId: CHAT,
        firstName: 'Ada',
        text: 'Hi! My name is Ada, I live in Lisbon and I love green tea.',
      }),
    );
    await turnDone(0);
    // The same chat: the turn pointer, the window's history, recall over the memories just written,
    // and a quote of the bot's own message (found through the outbox index).
    const reply = await db.collection<Message>('messages').findOne({ senderRole: 'ai' });
    const botMessageId = Number(reply?.delivery?.platformMessageIds[0]);
    h.tg.pushUpdate(
      textUpdate({
        updateId: 2,
        userId: CHAT,
        firstName: 'Ada',
        text: 'I also have a cat called Miso. Do you remember where I live?',
        replyTo: { messageId: botMessageId, userId: 123456789, isBot: true, firstName: 'Rainbow', text: 'hello' },
      }),
    );
    const second = await turnDone(1);
    watch.stop();
    // The quote was resolved to our stored reply, and the second prompt held the first turn.
    const quoted = await db.collection<Message>('messages').findOne({ turnId: second._id, senderRole: 'human' });
    expect(quoted?.replyTo).toBe(reply?._id);
    const prompt = h.llm.requests
      .filter((r) => !r.body.response_format)
      .at(-1)!
      .body.messages.map((m) => String(m.content))
      .join('\n');
    expect(prompt).toContain('Lisbon');

    const seen = watch.seen;
    // The watch saw the turn's real traffic: windows, turns, messages, events, memories.
    for (const collection of ['windows', 'turns', 'messages', 'events', 'dialogues', 'humans', 'memories']) {
      expect(
        seen.some((c) => c.shape.startsWith(`${collection} `)),
        `commands on ${collection}`,
      ).toBe(true);
    }
    // The agent has no knowledge documents: two turns cost one read of its mark by _id, then
    // only the Redis version check — nothing on documents or chunks.
    expect(seen.filter((c) => /^knowledge(Documents|Chunks) /.test(c.shape))).toEqual([]);
    expect(seen.filter((c) => c.shape.startsWith('knowledgeMarks ')).map((c) => c.shape)).toEqual([
      'knowledgeMarks find {_id}',
    ]);
    // Each message write notes the message in the search journal (src/store/searchJournal.ts):
    // a read of its slot and an upsert, both by _id; the postings are the indexer's, not the turn's.
    expect([...new Set(seen.filter((c) => c.shape.startsWith('searchJournal ')).map((c) => c.shape))].sort()).toEqual([
      'searchJournal find {_id}',
      'searchJournal update {_id} upsert',
    ]);
    expect(seen.filter((c) => /^search(Postings|IndexState) /.test(c.shape))).toEqual([]);
    const offending = [...new Set(seen.filter((c) => !allowed(c)).map((c) => c.shape))];
    if (process.env.SHOW_COMMANDS) {
      const counts = new Map<string, number>();
      for (const c of seen) counts.set(c.shape, (counts.get(c.shape) ?? 0) + 1);
      console.log(`${seen.length} commands\n${[...counts].map(([k, n]) => `${n} ${k}`).join('\n')}`);
    }
    expect(offending, 'commands on the hot path that are not an _id lookup').toEqual([]);
  });

  it('reads and writes every document of a room round by _id only (three agents, one skip)', async () => {
    const at = new Date();
    for (const [id, name] of [
      ['agt_hp_a', 'Ann'],
      ['agt_hp_b', 'Ben'],
      ['agt_hp_c', 'Cat'],
    ] as const)
      await h.app.store.participants.createAgent({ _id: id, name, basePersona: `You are ${name}.` }, at);
    const room = await createRoom(
      h.app.store,
      {
        chat: { platform: 'telegram', chatId: String(PLACES.group.chatId) },
        name: 'Hot path',
        mode: 'default',
        agentIds: ['agt_hp_a', 'agt_hp_b', 'agt_hp_c'],
      },
      at,
    );
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Ann: the coast.'] },
      { kind: 'tool_calls', calls: [{ name: 'skip_response', arguments: '{}' }] },
      { kind: 'reply', chunks: ['Cat: the hills.'] },
    );
    watch.seen.length = 0;
    watch.start();
    h.tg.pushUpdate(
      textUpdate({ updateId: 31, place: PLACES.group, userId: 4242, firstName: 'Lin', text: 'Coast or hills, Ann?' }),
    );
    const round = await eventually(
      async () => {
        const r = await db.collection<RoomRound>('rounds').findOne({ _id: `${room._id}.r1` });
        return r?.completed ? r : undefined;
      },
      30_000,
      'the round',
    );
    await memoryJobsDone();
    watch.stop();
    expect(round.asked).toHaveLength(3);
    const seen = watch.seen;
    for (const collection of ['rooms', 'rounds', 'turns', 'messages', 'events'])
      expect(
        seen.some((c) => c.shape.startsWith(`${collection} `)),
        `commands on ${collection}`,
      ).toBe(true);
    const offending = [...new Set(seen.filter((c) => !allowed(c)).map((c) => c.shape))];
    expect(offending, 'commands of a round that are not an _id lookup').toEqual([]);
  });
});
