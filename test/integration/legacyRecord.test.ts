// Upgrading keeps an existing record working: documents written by the previous version have no
// working window, no turn pointer, no visit count, no outbox entries and no memory scope marks.
// The boot backfills index the outbox and the memory scopes; the rest is rebuilt on first touch.
// A message arriving in such a dialogue joins its pending turn, sees its history, resolves a
// quote of an old reply and recalls an old memory, exactly as before the upgrade.
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { dialogueRecord, sessionRecord } from '../support/records.js';
import { dialogueIdOf } from '../../src/store/dialogues.js';
import { DEFAULT_AGENT_ID, humanIdOf } from '../../src/store/participants.js';
import { messageIdOf } from '../../src/ingest/messageIds.js';
import type { Dialogue, Human, MemoryEntry, Message, Session, Turn } from '../../src/domain/model.js';
import { dedupeKeyOf } from '../../src/memory/normalize.js';

const CHAT = '660123';
const dbName = `test_legacy_${randomBytes(4).toString('hex')}`;
const now = Date.now();
const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
const humanId = humanIdOf({ platform: 'telegram', userId: CHAT });
const dialogueId = dialogueIdOf({ platform: 'telegram', chatId: CHAT });

function message(o: {
  id: string;
  turnId: string;
  role: 'human' | 'ai';
  text: string;
  at: Date;
  sessionId: string;
  platformId: string;
}): Message {
  return {
    _id: o.id,
    dialogueId,
    sessionId: o.sessionId,
    turnId: o.turnId,
    senderRole: o.role,
    senderId: o.role === 'human' ? humanId : DEFAULT_AGENT_ID,
    contentType: 'text',
    content: o.text,
    mentions: [],
    visible: true,
    ...(o.role === 'human'
      ? { platformRef: { platform: 'telegram' as const, chatId: CHAT, messageId: o.platformId } }
      : { delivery: { state: 'complete' as const, platformMessageIds: [o.platformId] } }),
    createdAt: o.at,
    updatedAt: o.at,
  };
}

function turn(o: { id: string; at: Date; status: Turn['status'] }): Turn {
  return {
    _id: o.id,
    dialogueId,
    sessionId: 'ses_live',
    kind: 'dialogue',
    initiatorRole: 'human',
    initiatorId: humanId,
    responderRole: 'ai',
    responderId: DEFAULT_AGENT_ID,
    startedAt: o.at,
    responseWindowMs: 3 * 3600_000,
    deadlineAt: new Date(o.at.getTime() + 3 * 3600_000),
    status: o.status,
  };
}

/** The record as the previous version left it. */
async function seedPreviousVersion(): Promise<void> {
  const client = await MongoClient.connect(inject('mongoUri'));
  const db = client.db(dbName);
  const human: Human = {
    _id: humanId,
    identities: [{ platform: 'telegram', userId: CHAT, displayName: 'Ada' }],
    displayName: 'Ada',
    createdAt: at(600),
    updatedAt: at(10),
  };
  await db.collection<Human>('humans').insertOne(human);
  await db.collection<Dialogue>('dialogues').insertOne({
    ...dialogueRecord({
      id: dialogueId,
      humanIds: [humanId],
      agentIds: [DEFAULT_AGENT_ID],
      at: at(600),
      chatId: CHAT,
      currentSessionId: 'ses_live',
      title: 'Pepper',
    }),
    lastActivityAt: at(2),
  });
  await db.collection<Session>('sessions').insertMany([
    {
      ...sessionRecord({ id: 'ses_old', dialogueId, at: at(600), status: 'closed' }),
      endedAt: at(500),
      closeReason: 'timeout' as const,
      summary: 'They planned a trip to the mountains.',
    },
    { ...sessionRecord({ id: 'ses_live', dialogueId, at: at(10) }), lastActivityAt: at(2) },
  ]);
  await db
    .collection<Turn>('turns')
    .insertMany([
      turn({ id: 'trn_old1', at: at(10), status: 'responded' }),
      turn({ id: 'trn_old2', at: at(2), status: 'pending' }),
    ]);
  await db.collection<Message>('messages').insertMany([
    message({
      id: messageIdOf({ platform: 'telegram', chatId: CHAT }, '11'),
      turnId: 'trn_old1',
      role: 'human',
      text: 'My dog is called Pepper.',
      at: at(10),
      sessionId: 'ses_live',
      platformId: '11',
    }),
    message({
      id: 'msg_oldreply',
      turnId: 'trn_old1',
      role: 'ai',
      text: 'What a lovely name for a dog!',
      at: at(9),
      sessionId: 'ses_live',
      platformId: '12',
    }),
    message({
      id: messageIdOf({ platform: 'telegram', chatId: CHAT }, '13'),
      turnId: 'trn_old2',
      role: 'human',
      text: 'And I live in Porto.',
      at: at(2),
      sessionId: 'ses_live',
      platformId: '13',
    }),
  ]);
  const text = 'Ada has a dog called Pepper';
  const memory: MemoryEntry = {
    _id: 'mem_random_old_id',
    ownerId: DEFAULT_AGENT_ID,
    subjectId: humanId,
    kind: 'fact',
    text,
    dedupeKey: dedupeKeyOf(DEFAULT_AGENT_ID, humanId, text),
    importance: 0.8,
    sources: { dialogueId },
    occurredAt: at(10),
    status: 'active',
    recall: { count: 0 },
    createdAt: at(9),
    updatedAt: at(9),
  };
  await db.collection<MemoryEntry>('memories').insertOne(memory);
  await client.close();
}

describe('a record written by the previous version', () => {
  let h: Harness;
  beforeAll(async () => {
    await seedPreviousVersion();
    h = await startHarness({ MONGODB_DB: dbName }, ['gateway', 'worker']);
    await h.app.backfilled;
  });
  afterAll(async () => {
    await h.stop();
  });

  it('keeps working: the pending turn is joined, history, quote and memory are all found', async () => {
    const r = await h.app.handleInbound({
      kind: 'message',
      platform: 'telegram',
      chat: { chatId: CHAT, kind: 'private' },
      platformMessageId: '14',
      sender: { userId: CHAT, isBot: false, displayName: 'Ada', languageCode: 'en' },
      text: "Do you remember my dog's name?",
      replyTo: { platformMessageId: '12', text: 'What a lovely name for a dog!' },
      sentAt: new Date(),
    });
    expect(r).toMatchObject({ kind: 'accepted', turnId: 'trn_old2' }); // the pending turn found without a pointer

    const c = h.app.store.c;
    await eventually(
      async () => (await c.turns.findOne({ _id: 'trn_old2' }))?.status === 'responded',
      20_000,
      'old pending turn answered',
    );
    const asked = await c.messages.findOne({ _id: messageIdOf({ platform: 'telegram', chatId: CHAT }, '14') });
    expect(asked?.replyTo).toBe('msg_oldreply'); // the old reply's platform id, through the backfilled outbox
    const built = await c.events.findOne({ kind: 'context_built', turnId: 'trn_old2' });
    const prompt = (built?.data.prompt as Array<{ content: string }>).map((m) => m.content).join('\n');
    expect(prompt).toContain('My dog is called Pepper.'); // history, from the window rebuilt on first touch
    expect(prompt).toContain('And I live in Porto.'); // the pending turn's own message
    expect((built?.data.recall as { memoryIds: string[] }).memoryIds).toContain('mem_random_old_id'); // scope marked by the backfill
    expect(await c.windows.findOne({ _id: 'ses_live' })).not.toBeNull();
    const human = await c.humans.findOne({ _id: humanId });
    expect(human?.visits?.[DEFAULT_AGENT_ID]).toMatchObject({
      count: 2,
      lastTopic: { text: 'They planned a trip to the mountains.' },
    });
    expect((await c.dialogues.findOne({ _id: dialogueId }))?.openTurnId).toBe('trn_old2');
  });
});
