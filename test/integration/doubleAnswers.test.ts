// Two double answers the fault probe found (issue 35), each with the crash injected at the point
// its evidence showed, over the real store (FerretDB) and the real ingest, reply start and prompt
// split. A message a reply answered must never reach a later turn's prompt as unanswered.
import { afterEach, describe, expect, it } from 'vitest';
import { inboundEventSchema, type InboundMessage } from '../../src/ingest/inboundEvent.js';
import { ingest, type IngestDeps } from '../../src/ingest/ingest.js';
import { beginReply } from '../../src/respond/beginReply.js';
import { replyIdOf } from '../../src/domain/aiMessage.js';
import { openAiMessage } from '../../src/store/aiMessages.js';
import { splitAtTurn } from '../../src/domain/historyWindow.js';
import { windowMessages } from '../../src/domain/windowRules.js';
import type { Message } from '../../src/domain/model.js';
import { noScheduler } from '../support/noScheduler.js';
import { startHarness, type Harness } from '../support/harness.js';

const said = (n: number, text: string): InboundMessage =>
  inboundEventSchema.parse({
    platform: 'telegram',
    chat: { chatId: '6262', kind: 'private' },
    platformMessageId: String(n),
    sender: { userId: '6262', isBot: false, displayName: 'Nadia' },
    text,
    sentAt: new Date(),
  }) as InboundMessage;

const deps = (h: Harness): IngestDeps => ({
  store: h.app.store,
  enqueueReply: () => Promise.resolve(),
  scheduler: noScheduler,
  sessionGapMs: 3_600_000,
  responseWindowMs: 10_800_000,
});

async function accepted(d: IngestDeps, ev: InboundMessage) {
  const r = await ingest(d, ev);
  if (r.kind !== 'accepted') throw new Error(`${ev.text} was ${r.kind}`);
  return r;
}

/** One attempt at a turn's reply, up to its stored start (its prompt is read then). */
async function attempt(h: Harness, turnId: string, dialogueId: string) {
  const b = await beginReply(h.app.store, { turnId, dialogueId, at: new Date() });
  if (b.kind !== 'begun') throw new Error(`reply ${b.kind}`);
  await b.marked;
  return b;
}

/** What a turn's prompt shows, split as the context builder splits it: history, then the input. */
async function promptOf(
  h: Harness,
  sessionId: string,
  turnId: string,
): Promise<{ history: string[]; input: string[] }> {
  const window = await h.app.store.windows.get(sessionId);
  const split = splitAtTurn(windowMessages(window!) as Message[], turnId);
  const text = (m: Message) => (m.senderRole === 'ai' ? `AI: ${m.content}` : m.content);
  return { history: split.history.map(text), input: split.input.map(text) };
}

describe('no message answered twice after a crash', () => {
  let h: Harness;
  afterEach(async () => h.stop());

  it("a chat's first message, answered from the record when its window entry was lost, is not placed again", async () => {
    h = await startHarness({}, ['api']);
    const d = deps(h);
    // Opened with /start (a command: no turn), so the reply below reads the store, as a new process would.
    expect((await ingest(d, said(0, '/start'))).kind).toBe('command');
    const hello = said(1, 'hello, are you there?');
    const n1 = await accepted(d, hello);
    // The server died between the message's insert and its window entry.
    await h.app.store.c.windows.updateOne({ _id: n1.sessionId }, { $unset: { [`entries.${n1.messageId}`]: '' } });
    // T1's reply reads it from the record, and answers it.
    const t1 = await attempt(h, n1.turnId, n1.dialogueId);
    const reply = await openAiMessage(h.app.store, t1.turn, replyIdOf(n1.turnId), new Date());
    await h.app.store.messages.finishReply(reply, { state: 'complete', content: 'yes, I am here' }, new Date());
    await h.app.store.turns.closeResponded(t1.turn, new Date(), {});
    const n2 = await accepted(d, said(2, 'what is the weather like?'));

    // Telegram delivers the first update again (its handler failed when the server died).
    expect((await ingest(d, hello)).kind).toBe('duplicate');
    expect((await h.app.store.messages.get(n1.messageId))?.turnId).toBe(n1.turnId);
    expect((await promptOf(h, n2.sessionId, n2.turnId)).input).toEqual(['what is the weather like?']);
    expect((await h.app.store.turns.get(n1.turnId))?.heard).toEqual([n1.messageId]);
  });

  it('a reply retried after the gateway died, which read a message that joined meanwhile, stands after it', async () => {
    h = await startHarness({}, ['api']);
    const d = deps(h);
    const n2 = await accepted(d, said(2, 'I am moving to Lisbon'));
    await accepted(d, said(3, 'next month'));
    // The first attempt made its reply message and died before its start was stored.
    const first = await h.app.store.turns.get(n2.turnId);
    await openAiMessage(h.app.store, first!, replyIdOf(n2.turnId), new Date());
    await new Promise((r) => setTimeout(r, 5));
    const n4 = await accepted(d, said(4, 'any tips for the city?'));
    expect(n4.turnId).toBe(n2.turnId);

    // The retried attempt reads all three and answers them.
    const retried = await attempt(h, n2.turnId, n2.dialogueId);
    const reply = await openAiMessage(h.app.store, retried.turn, replyIdOf(n2.turnId), new Date());
    const text = 'Lisbon is lovely: try the trams';
    await h.app.store.messages.finishReply(reply, { state: 'complete', content: text }, new Date());
    await h.app.store.turns.closeResponded(retried.turn, new Date(), {});
    const n5 = await accepted(d, said(5, 'thanks!'));

    // The next prompt shows the tips question as answered: before the reply, not after it.
    expect(await promptOf(h, n5.sessionId, n5.turnId)).toEqual({
      history: ['I am moving to Lisbon', 'next month', 'any tips for the city?', `AI: ${text}`],
      input: ['thanks!'],
    });
  });

  it('a message placed again after its turn’s reply began reads after that reply, even when the reply is retried later', async () => {
    h = await startHarness({}, ['api']);
    const d = deps(h);
    const n1 = await accepted(d, said(1, 'first question'));
    const lost = said(2, 'second question');
    const n2 = await accepted(d, lost);
    // The second message's window entry was lost; the reply began without it.
    await h.app.store.c.windows.updateOne({ _id: n1.sessionId }, { $unset: { [`entries.${n2.messageId}`]: '' } });
    const t1 = await attempt(h, n1.turnId, n1.dialogueId);
    const again = await accepted(d, lost);
    expect(again.turnId).not.toBe(n1.turnId);
    // The first reply is retried (its attempt died) and read again after the message moved.
    await new Promise((r) => setTimeout(r, 5));
    const retried = await attempt(h, n1.turnId, n1.dialogueId);
    const reply = await openAiMessage(h.app.store, retried.turn, replyIdOf(n1.turnId), new Date());
    await h.app.store.messages.finishReply(reply, { state: 'complete', content: 'answer one' }, new Date());
    await h.app.store.turns.closeResponded(t1.turn, new Date(), {});

    expect(await promptOf(h, n1.sessionId, again.turnId)).toEqual({
      history: ['first question', 'AI: answer one'],
      input: ['second question'],
    });
  });
});
