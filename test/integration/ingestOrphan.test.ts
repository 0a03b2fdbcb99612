// The server can die between ingest's parallel writes: the message stored, its turn (or its
// window entry) not. The platform then delivers the update again; ingest must place the message
// in a turn that exists, and in the window its reply reads, and queue its reply — not call it a
// duplicate and leave it in no turn, or out of every prompt, forever.
import { afterEach, describe, expect, it } from 'vitest';
import { inboundEventSchema } from '../../src/ingest/inboundEvent.js';
import { ingest, type IngestDeps, type ReplyJob } from '../../src/ingest/ingest.js';
import { beginReply } from '../../src/respond/beginReply.js';
import { noScheduler } from '../support/noScheduler.js';
import { startHarness, type Harness } from '../support/harness.js';

const update = inboundEventSchema.parse({
  platform: 'telegram',
  chat: { chatId: '5151', kind: 'private' },
  platformMessageId: '9',
  sender: { userId: '5151', isBot: false, displayName: 'Crashy' },
  text: 'are you there?',
  sentAt: new Date(),
});

/** Ingest as the gateway runs it, with the reply jobs it queues collected. */
function ingestDeps(h: Harness): { deps: IngestDeps; jobs: ReplyJob[] } {
  const jobs: ReplyJob[] = [];
  const deps: IngestDeps = {
    store: h.app.store,
    enqueueReply: (job) => Promise.resolve(void jobs.push(job)),
    scheduler: noScheduler,
    sessionGapMs: 3_600_000,
    responseWindowMs: 10_800_000,
  };
  return { deps, jobs };
}

describe('ingest after a crash between its writes', () => {
  let h: Harness;
  afterEach(async () => h.stop());

  it('places a stored message whose turn was never stored in a new turn, and queues its reply', async () => {
    h = await startHarness({}, ['api']);
    const { deps, jobs } = ingestDeps(h);
    const first = await ingest(deps, update);
    if (first.kind !== 'accepted') throw new Error(`first was ${first.kind}`);
    // As if the turn's insert never landed while the message's did.
    await h.app.store.c.turns.deleteOne({ _id: first.turnId });

    const again = await ingest(deps, update);
    if (again.kind !== 'accepted') throw new Error(`redelivery was ${again.kind}`);
    expect(again.turnId).not.toBe(first.turnId);
    expect(await h.app.store.turns.get(again.turnId)).toMatchObject({ status: 'pending', sessionId: first.sessionId });
    const message = await h.app.store.messages.get(first.messageId);
    expect(message?.turnId).toBe(again.turnId);
    const window = await h.app.store.windows.get(first.sessionId);
    expect(window?.entries[first.messageId]?.turnId).toBe(again.turnId);
    expect(jobs.map((j) => j.turnId)).toEqual([first.turnId, again.turnId]);
    expect(await h.app.store.c.messages.countDocuments({ dialogueId: first.dialogueId })).toBe(1);

    // Now it has a turn: a further redelivery is a duplicate (its pending turn queued again).
    const third = await ingest(deps, update);
    expect(third.kind).toBe('duplicate');
    expect(jobs.at(-1)?.turnId).toBe(again.turnId);
  });

  it("puts back a pending turn's message whose window entry was lost, so its reply reads it", async () => {
    h = await startHarness({}, ['api']);
    const { deps, jobs } = ingestDeps(h);
    const second = inboundEventSchema.parse({ ...update, platformMessageId: '10', text: 'hello??' });
    const first = await ingest(deps, update);
    const joined = await ingest(deps, second);
    if (first.kind !== 'accepted' || joined.kind !== 'accepted') throw new Error('not accepted');
    expect(joined.turnId).toBe(first.turnId);
    // As if the server died after the second message's insert, before its window entry.
    await h.app.store.c.windows.updateOne(
      { _id: first.sessionId },
      { $unset: { [`entries.${joined.messageId}`]: '' } },
    );

    expect((await ingest(deps, second)).kind).toBe('duplicate');
    const window = await h.app.store.windows.get(first.sessionId);
    expect(Object.keys(window?.entries ?? {}).sort()).toEqual([first.messageId, joined.messageId].sort());
    expect(jobs.at(-1)?.turnId).toBe(first.turnId);
  });

  /** A first message and a second that joins its turn, as ingest stores them. */
  async function twoInOneTurn(deps: IngestDeps) {
    const second = inboundEventSchema.parse({ ...update, platformMessageId: '10', text: 'hello??' });
    const first = await ingest(deps, update);
    const joined = await ingest(deps, second);
    if (first.kind !== 'accepted' || joined.kind !== 'accepted') throw new Error('not accepted');
    expect(joined.turnId).toBe(first.turnId);
    return { first, joined, second };
  }

  const startReply = (h: Harness, turnId: string, dialogueId: string) =>
    beginReply(h.app.store, { turnId, dialogueId, at: new Date() }).then(async (b) => {
      if (b.kind !== 'begun') throw new Error(`reply ${b.kind}`);
      await b.marked;
      return b;
    });

  it("gives a message its turn's reply started without a turn of its own, answered after that reply", async () => {
    h = await startHarness({}, ['api']);
    const { deps, jobs } = ingestDeps(h);
    const { first, joined, second } = await twoInOneTurn(deps);
    // The second message's window entry was lost with the server, and the reply began without it.
    await h.app.store.c.windows.updateOne(
      { _id: first.sessionId },
      { $unset: { [`entries.${joined.messageId}`]: '' } },
    );
    await startReply(h, first.turnId, first.dialogueId);
    expect((await h.app.store.turns.get(first.turnId))?.heard).toEqual([first.messageId]);

    const again = await ingest(deps, second);
    if (again.kind !== 'accepted') throw new Error(`redelivery was ${again.kind}`);
    expect(again.turnId).not.toBe(first.turnId);
    expect(await h.app.store.turns.get(again.turnId)).toMatchObject({ status: 'pending', after: first.turnId });
    expect((await h.app.store.messages.get(joined.messageId))?.turnId).toBe(again.turnId);
    const window = await h.app.store.windows.get(first.sessionId);
    expect(window?.entries[joined.messageId]?.turnId).toBe(again.turnId);
    expect(jobs.at(-1)?.turnId).toBe(again.turnId);
  });

  it('stores a message before its window entry, so a reply never reads a message the record lacks', async () => {
    h = await startHarness({}, ['api']);
    const { deps } = ingestDeps(h);
    const { first } = await twoInOneTurn(deps);
    const third = inboundEventSchema.parse({ ...update, platformMessageId: '11', text: 'still there?' });
    // The server dies as the third message is inserted: any write already on the wire lands,
    // nothing after it does (so no compensating write can take an entry back).
    const { messages, windows } = h.app.store.c;
    const [insertOne, updateOne] = [messages.insertOne.bind(messages), windows.updateOne.bind(windows)];
    let dead = false;
    messages.insertOne = () => {
      setImmediate(() => (dead = true));
      return Promise.reject(new Error('connection reset'));
    };
    windows.updateOne = (...args: Parameters<typeof updateOne>) =>
      dead ? Promise.reject(new Error('connection reset')) : updateOne(...args);
    await expect(ingest(deps, third)).rejects.toThrow('connection reset');
    Object.assign(messages, { insertOne });
    Object.assign(windows, { updateOne });
    const window = await h.app.store.windows.get(first.sessionId);
    expect(Object.values(window?.entries ?? {}).map((e) => e.content)).not.toContain('still there?');
  });

  it("points the dialogue back at a redelivered message's turn, so the next message waits for its reply", async () => {
    h = await startHarness({}, ['api']);
    const { deps } = ingestDeps(h);
    const first = await ingest(deps, update);
    if (first.kind !== 'accepted') throw new Error(`first was ${first.kind}`);
    await startReply(h, first.turnId, first.dialogueId);
    const answered = await h.app.store.turns.get(first.turnId);
    await h.app.store.turns.closeResponded(answered!, new Date(), {});
    const secondUpdate = inboundEventSchema.parse({ ...update, platformMessageId: '10', text: 'and another thing' });
    const second = await ingest(deps, secondUpdate);
    if (second.kind !== 'accepted') throw new Error(`second was ${second.kind}`);
    // As if the server died before the dialogue's pointer moved to the second message's turn.
    await h.app.store.c.dialogues.updateOne({ _id: first.dialogueId }, { $set: { openTurnId: first.turnId } });

    expect((await ingest(deps, secondUpdate)).kind).toBe('duplicate');
    expect((await h.app.store.dialogues.get(first.dialogueId))?.openTurnId).toBe(second.turnId);
    // The second turn's reply is under way when a third message comes: its turn names the second.
    await startReply(h, second.turnId, second.dialogueId);
    const third = await ingest(deps, inboundEventSchema.parse({ ...update, platformMessageId: '11', text: 'hello?' }));
    if (third.kind !== 'accepted') throw new Error(`third was ${third.kind}`);
    expect((await h.app.store.turns.get(third.turnId))?.after).toBe(second.turnId);
  });
});
