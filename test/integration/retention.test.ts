// BR-006 (cascade delete) and BR-002 (archive past 1000 live messages) against the real
// MongoDB-wire server, including re-runs after a simulated crash.
import { randomBytes } from 'node:crypto';
import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { deleteDialogue } from '../../src/store/dialogueDeletion.js';
import { archiveOverflow, archivedMessagesOf } from '../../src/store/archive.js';
import type { ArchivedMessage, Dialogue, EventLog, Message, Session, Turn } from '../../src/domain/model.js';

const BASE = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const NOW = new Date(BASE + 1000 * HOUR);

let store: Store;

beforeAll(async () => {
  store = await Store.connect(inject('mongoUri'), `test_${randomBytes(4).toString('hex')}`);
});

// Each test seeds its own dialogues; emptying the collections keeps FerretDB's scans short.
afterEach(async () => {
  await Promise.all(Object.values(store.c).map((coll: Collection<Document>) => coll.deleteMany({})));
});

afterAll(async () => {
  await store.db.dropDatabase();
  await store.close();
});

async function insertBatches<T extends Document>(
  coll: Collection<T>,
  docs: Array<OptionalUnlessRequiredId<T>>,
): Promise<void> {
  for (let i = 0; i < docs.length; i += 500) await coll.insertMany(docs.slice(i, i + 500));
}

interface Seeded {
  dialogue: Dialogue;
  sessions: Session[];
  turns: Turn[];
  messages: Message[];
  events: EventLog[];
  /** Messages per session, in session order. */
  bySession: Message[][];
}

/** One dialogue with one session per entry (oldest first); two messages per turn, one event per turn. */
async function seed(spec: Array<{ status: Session['status']; messages: number }>): Promise<Seeded> {
  const dlg = `dlg_${randomBytes(5).toString('hex')}`;
  const total = spec.reduce((n, s) => n + s.messages, 0);
  const dialogue: Dialogue = {
    _id: dlg,
    type: 'human_ai',
    chat: { platform: 'telegram', chatId: dlg },
    humanIds: ['hum_1'],
    agentIds: ['agt_default'],
    title: 'retention',
    status: 'active',
    messageCount: total,
    lastActivityAt: new Date(BASE),
    createdAt: new Date(BASE),
    updatedAt: new Date(BASE),
  };
  const out: Seeded = { dialogue, sessions: [], turns: [], messages: [], events: [], bySession: [] };
  spec.forEach((sp, k) => {
    const start = BASE + k * 10 * HOUR;
    const sessionId = `${dlg}_s${k}`;
    const at = (i: number) => new Date(start + i * 1000);
    out.sessions.push({
      _id: sessionId,
      dialogueId: dlg,
      kind: 'dialogue',
      status: sp.status,
      startedAt: at(0),
      lastActivityAt: at(sp.messages),
      ...(sp.status === 'closed' ? { endedAt: at(sp.messages), closeReason: 'timeout' as const } : {}),
      stats: { messageCount: sp.messages, turnCount: Math.ceil(sp.messages / 2) },
    });
    const mine: Message[] = [];
    for (let i = 0; i < sp.messages; i++) {
      const turnId = `${sessionId}_t${Math.floor(i / 2)}`;
      if (i % 2 === 0) {
        out.turns.push({
          _id: turnId,
          dialogueId: dlg,
          sessionId,
          kind: 'dialogue',
          initiatorRole: 'human',
          initiatorId: 'hum_1',
          responderRole: 'ai',
          responderId: 'agt_default',
          startedAt: at(i),
          responseWindowMs: 60_000,
          deadlineAt: new Date(at(i).getTime() + 60_000),
          status: 'responded',
        });
        out.events.push({
          _id: `${turnId}_e`,
          kind: 'llm_call',
          dialogueId: dlg,
          sessionId,
          turnId,
          at: at(i),
          data: { tokens: i },
        });
      }
      const id = `${sessionId}_m${String(i).padStart(4, '0')}`;
      const human = i % 2 === 0;
      mine.push({
        _id: id,
        dialogueId: dlg,
        sessionId,
        turnId,
        senderRole: human ? 'human' : 'ai',
        senderId: human ? 'hum_1' : 'agt_default',
        contentType: 'text',
        content: `session ${k} message ${i}`,
        mentions: [],
        visible: true,
        ...(human
          ? { platformRef: { platform: 'telegram' as const, chatId: dlg, messageId: id } }
          : { delivery: { state: 'complete' as const, platformMessageIds: [`p${i}`], completedAt: at(i) } }),
        createdAt: at(i),
        updatedAt: at(i),
      });
    }
    out.bySession.push(mine);
    out.messages.push(...mine);
  });
  const c = store.c;
  await c.dialogues.insertOne(dialogue);
  await insertBatches(c.sessions, out.sessions);
  await insertBatches(c.turns, out.turns);
  await insertBatches(c.messages, out.messages);
  await insertBatches(c.events, out.events);
  return out;
}

/** Documents of one dialogue in every collection. */
async function census(dialogueId: string) {
  const c = store.c;
  return {
    dialogue: await c.dialogues.countDocuments({ _id: dialogueId }),
    sessions: await c.sessions.countDocuments({ dialogueId }),
    turns: await c.turns.countDocuments({ dialogueId }),
    messages: await c.messages.countDocuments({ dialogueId }),
    archivedMessages: await c.archivedMessages.countDocuments({ dialogueId }),
    events: await c.events.countDocuments({ dialogueId }),
  };
}

/** Every seeded message is in exactly one of the two collections; returns the live ids. */
async function expectEachMessageOnce(s: Seeded): Promise<{ live: string[]; archived: string[] }> {
  const ids = async (coll: Collection<Message> | Collection<ArchivedMessage>) =>
    (await coll.find({ dialogueId: s.dialogue._id }, { projection: { _id: 1 } }).toArray()).map((m) => m._id);
  const live = await ids(store.c.messages);
  const archived = await ids(store.c.archivedMessages);
  const liveSet = new Set(live);
  expect(archived.filter((id) => liveSet.has(id))).toEqual([]);
  expect([...live, ...archived].sort()).toEqual(s.messages.map((m) => m._id).sort());
  return { live, archived };
}

const copyOf = (m: Message, archivedAt: Date): ArchivedMessage => ({ ...m, archivedAt });

describe('BR-006 deleteDialogue', () => {
  it('removes every document of the dialogue in every collection and nothing of another one', async () => {
    const a = await seed([
      { status: 'closed', messages: 30 },
      { status: 'open', messages: 20 },
    ]);
    const b = await seed([
      { status: 'closed', messages: 12 },
      { status: 'open', messages: 8 },
    ]);
    // Both have archived messages too (limit 25: the closed session moves).
    await archiveOverflow(store.c, a.dialogue._id, NOW, 25);
    await archiveOverflow(store.c, b.dialogue._id, NOW, 10);
    const beforeA = await census(a.dialogue._id);
    const beforeB = await census(b.dialogue._id);
    expect(beforeA).toEqual({ dialogue: 1, sessions: 2, turns: 25, messages: 20, archivedMessages: 30, events: 25 });
    expect(beforeB.archivedMessages).toBe(12);

    const r = await deleteDialogue(store.c, a.dialogue._id);
    expect(r).toEqual({
      found: true,
      deleted: { messages: 20, archivedMessages: 30, turns: 25, sessions: 2, events: 25, memories: 0 },
    });
    expect(await census(a.dialogue._id)).toEqual({
      dialogue: 0,
      sessions: 0,
      turns: 0,
      messages: 0,
      archivedMessages: 0,
      events: 0,
    });
    expect(await census(b.dialogue._id)).toEqual(beforeB);

    // A second call is a no-op.
    const again = await deleteDialogue(store.c, a.dialogue._id);
    expect(again).toEqual({
      found: false,
      deleted: { messages: 0, archivedMessages: 0, turns: 0, sessions: 0, events: 0, memories: 0 },
    });
    expect(await census(b.dialogue._id)).toEqual(beforeB);
  });

  it('finishes the job when re-run after a crash halfway (the dialogue is still visible)', async () => {
    const a = await seed([
      { status: 'closed', messages: 10 },
      { status: 'open', messages: 6 },
    ]);
    const b = await seed([{ status: 'open', messages: 4 }]);
    const beforeB = await census(b.dialogue._id);
    // A crashed first call got through the events and the messages only.
    await store.c.events.deleteMany({ dialogueId: a.dialogue._id });
    await store.c.messages.deleteMany({ dialogueId: a.dialogue._id });
    expect(await store.dialogues.get(a.dialogue._id)).not.toBeNull();

    const r = await deleteDialogue(store.c, a.dialogue._id);
    expect(r).toEqual({
      found: true,
      deleted: { messages: 0, archivedMessages: 0, turns: 8, sessions: 2, events: 0, memories: 0 },
    });
    expect(await census(a.dialogue._id)).toEqual({
      dialogue: 0,
      sessions: 0,
      turns: 0,
      messages: 0,
      archivedMessages: 0,
      events: 0,
    });
    expect(await census(b.dialogue._id)).toEqual(beforeB);
  });

  it('deletes nothing for an unknown id and refuses an empty one', async () => {
    const b = await seed([{ status: 'open', messages: 4 }]);
    const beforeB = await census(b.dialogue._id);
    const r = await deleteDialogue(store.c, 'dlg_does_not_exist');
    expect(r).toEqual({
      found: false,
      deleted: { messages: 0, archivedMessages: 0, turns: 0, sessions: 0, events: 0, memories: 0 },
    });
    await expect(deleteDialogue(store.c, '')).rejects.toThrow(TypeError);
    expect(await census(b.dialogue._id)).toEqual(beforeB);
  });
});

// FerretDB (SQLite) commits every replaceOne on its own: moving hundreds of messages takes seconds.
describe('BR-002 archiveOverflow', { timeout: 60_000 }, () => {
  it('moves the oldest closed session out of a 1 050-message dialogue, leaving ≤ 1000 live', async () => {
    const s = await seed([
      { status: 'closed', messages: 60 },
      { status: 'closed', messages: 490 },
      { status: 'open', messages: 500 },
    ]);
    const other = await seed([{ status: 'open', messages: 5 }]);
    const [s0, s1, s2] = s.sessions as [Session, Session, Session];
    const [m0, m1, m2] = s.bySession as [Message[], Message[], Message[]];
    const dialogueId = s.dialogue._id;

    const r = await archiveOverflow(store.c, dialogueId, NOW);
    expect(r).toEqual({ archivedSessions: [s0._id], movedMessages: 60 });

    const live = await store.c.messages.countDocuments({ dialogueId });
    expect(live).toBe(990);
    expect(live).toBeLessThanOrEqual(1000);
    await expectEachMessageOnce(s);

    // The archived session is still readable, whole and in order.
    const archived = await archivedMessagesOf(store.c, s0._id);
    expect(archived).toEqual(m0.map((m) => copyOf(m, NOW)));
    expect(await store.archive.ofSession(s0._id)).toHaveLength(60);
    expect(await store.sessions.get(s0._id)).toEqual({ ...s0, archived: true, archivedAt: NOW });

    // The next closed session was not needed; the open session is untouched.
    expect(await store.sessions.get(s1._id)).toEqual(s1);
    expect(await store.c.messages.countDocuments({ sessionId: s1._id })).toBe(m1.length);
    expect(await store.sessions.get(s2._id)).toEqual(s2);
    expect(await store.c.messages.find({ sessionId: s2._id }).sort({ createdAt: 1, _id: 1 }).toArray()).toEqual(m2);

    expect((await store.dialogues.get(dialogueId))?.messageCount).toBe(live);
    expect(await census(other.dialogue._id)).toEqual({
      dialogue: 1,
      sessions: 1,
      turns: 3,
      messages: 5,
      archivedMessages: 0,
      events: 3,
    });

    // Nothing left to do on a second run.
    expect(await archiveOverflow(store.c, dialogueId, NOW)).toEqual({ archivedSessions: [], movedMessages: 0 });
    expect(await store.c.messages.countDocuments({ dialogueId })).toBe(990);
  });

  it('re-run after a crash between copy and delete: no loss, no duplicate, the live version wins', async () => {
    const s = await seed([
      { status: 'closed', messages: 30 },
      { status: 'closed', messages: 520 },
      { status: 'open', messages: 500 },
    ]);
    const [s0, s1, s2] = s.sessions as [Session, Session, Session];
    const [m0, m1] = s.bySession as [Message[], Message[]];
    const dialogueId = s.dialogue._id;
    // The crashed run copied all of s0 and part of s1, deleted nothing. One copy is stale.
    const earlier = new Date(NOW.getTime() - HOUR);
    const copies = [...m0, ...m1.slice(0, 260)].map((m) => copyOf(m, earlier));
    copies[0] = { ...copies[0]!, content: 'stale copy' };
    await insertBatches(store.c.archivedMessages, copies);

    const r = await archiveOverflow(store.c, dialogueId, NOW);
    expect(r).toEqual({ archivedSessions: [s0._id, s1._id], movedMessages: 550 });
    const { live } = await expectEachMessageOnce(s);
    expect(live).toHaveLength(500);
    expect(await archivedMessagesOf(store.c, s0._id)).toEqual(m0.map((m) => copyOf(m, NOW)));
    expect(await archivedMessagesOf(store.c, s1._id)).toHaveLength(520);
    expect(await store.c.messages.countDocuments({ sessionId: s2._id })).toBe(500);
    expect((await store.dialogues.get(dialogueId))?.messageCount).toBe(500);
  });

  it('re-run after a crash mid-delete finishes the started sessions even once under the limit', async () => {
    const s = await seed([
      { status: 'closed', messages: 30 },
      { status: 'closed', messages: 520 },
      { status: 'open', messages: 500 },
    ]);
    const [s0, s1, s2] = s.sessions as [Session, Session, Session];
    const [m0, m1] = s.bySession as [Message[], Message[]];
    const dialogueId = s.dialogue._id;
    // The crashed run moved all of s0 (but did not mark it), copied 200 of s1 and deleted 100
    // of those; it never updated the dialogue's counter (still 1 050).
    await insertBatches(
      store.c.archivedMessages,
      [...m0, ...m1.slice(0, 200)].map((m) => copyOf(m, NOW)),
    );
    await store.c.messages.deleteMany({ _id: { $in: [...m0, ...m1.slice(0, 100)].map((m) => m._id) } });
    expect(await store.c.messages.countDocuments({ dialogueId })).toBe(920);

    const r = await archiveOverflow(store.c, dialogueId, NOW);
    expect(r).toEqual({ archivedSessions: [s0._id, s1._id], movedMessages: 420 });
    const { live, archived } = await expectEachMessageOnce(s);
    expect(live).toHaveLength(500);
    expect(archived).toHaveLength(550);
    expect((await store.sessions.get(s0._id))?.archived).toBe(true);
    expect((await store.sessions.get(s1._id))?.archived).toBe(true);
    expect(await store.sessions.get(s2._id)).toEqual(s2);
    expect((await store.dialogues.get(dialogueId))?.messageCount).toBe(500);
  });

  it('archives every closed session and stops when that is not enough', async () => {
    const s = await seed([
      { status: 'closed', messages: 10 },
      { status: 'open', messages: 1100 },
    ]);
    const [s0, s1] = s.sessions as [Session, Session];
    const r = await archiveOverflow(store.c, s.dialogue._id, NOW);
    expect(r).toEqual({ archivedSessions: [s0._id], movedMessages: 10 });
    await expectEachMessageOnce(s);
    expect(await store.sessions.get(s1._id)).toEqual(s1);
    expect((await store.dialogues.get(s.dialogue._id))?.messageCount).toBe(1100);
    expect(await archiveOverflow(store.c, s.dialogue._id, NOW)).toEqual({ archivedSessions: [], movedMessages: 0 });
  });
});
