// The turn boundary (SPEC §4.2): messages keep arriving in one chat while replies are being
// prepared and streamed. Each message joins the turn whose reply has not started yet, or opens
// the next one; every message is answered by exactly one reply, and no prompt ever holds a
// message of a later turn (which the model would answer, and the later turn's reply again).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import type { EventLog, Message, Turn } from '../../src/domain/model.js';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';

const CHAT = '880123';
const MESSAGES = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const textOf = (i: number) => `note-${String(i).padStart(2, '0')}: item number ${i}`;
const noteIds = (text: string) => [...text.matchAll(/note-(\d{2})/g)].map((m) => Number(m[1]));

function inbound(i: number): InboundEventInput {
  return {
    kind: 'message',
    platform: 'telegram',
    chat: { chatId: CHAT, kind: 'private' },
    platformMessageId: String(1000 + i),
    sender: { userId: CHAT, isBot: false, displayName: 'Ada', languageCode: 'en' },
    text: textOf(i),
    sentAt: new Date(),
  };
}

describe('turn boundary under concurrent arrivals', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, ['gateway', 'worker']);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers every message by exactly one reply, and no prompt holds a later turn’s message', async () => {
    // Replies take a while to stream, so messages land before, during and after each of them.
    for (let i = 0; i < MESSAGES; i++)
      h.llm.enqueue({ kind: 'reply', chunks: ['noted', ' —', ' thanks', '.'], chunkDelayMs: 40, firstByteDelayMs: 30 });
    for (let i = 0; i < MESSAGES; i++) {
      expect((await h.app.handleInbound(inbound(i))).kind).toBe('accepted');
      await sleep([5, 20, 60, 140][i % 4]!);
    }

    const c = h.app.store.c;
    const turns = await eventually(
      async () => {
        const all = await c.turns.find({}).sort({ startedAt: 1, _id: 1 }).toArray();
        return all.length > 0 && all.every((t) => t.status === 'responded') ? all : undefined;
      },
      60_000,
      'every turn answered',
    );
    expect(turns.length).toBeGreaterThan(1);
    expect(turns.length).toBeLessThan(MESSAGES); // some messages joined a turn while its reply was being prepared

    // Every message belongs to one turn, and every turn has exactly one reply.
    const messages = await c.messages.find({}).toArray();
    const human = messages.filter((m: Message) => m.senderRole === 'human');
    expect(human).toHaveLength(MESSAGES);
    const order = new Map(turns.map((t: Turn, i) => [t._id, i]));
    const turnOfNote = new Map(human.map((m) => [noteIds(m.content)[0]!, m.turnId!]));
    for (const t of turns) {
      expect(messages.filter((m) => m.senderRole === 'ai' && m.turnId === t._id)).toHaveLength(1);
    }

    // Each reply's prompt: the turn's own messages as input, history only from earlier turns.
    const builds = (await c.events.find({ kind: 'context_built' }).toArray()) as EventLog[];
    expect(builds).toHaveLength(turns.length);
    const answeredBy = new Map<number, string[]>();
    for (const b of builds) {
      const prompt = b.data.prompt as Array<{ role: string; content: string }>;
      const own = order.get(b.turnId!)!;
      for (const note of noteIds(prompt.map((p) => p.content).join('\n'))) {
        const turnOf = order.get(turnOfNote.get(note)!)!;
        expect(turnOf, `note-${note} (turn ${turnOf}) in the prompt of turn ${own}`).toBeLessThanOrEqual(own);
        if (turnOf === own) answeredBy.set(note, [...(answeredBy.get(note) ?? []), b.turnId!]);
      }
    }
    // Each message is the input of exactly one prompt: answered once, never twice.
    for (let i = 0; i < MESSAGES; i++) expect(answeredBy.get(i), `note-${i}`).toHaveLength(1);
  });
});
