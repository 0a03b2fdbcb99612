// A new chat's reply starts from the documents its ingest stored (src/store/replyHandoff.ts),
// instead of reading them back — but only when nothing held the dialogue's guard in between
// (generations: src/store/stateGuard.ts). Run against the app's own store and Redis guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { inboundEventSchema } from '../../src/ingest/inboundEvent.js';
import { ingest, type IngestDeps, type IngestResult } from '../../src/ingest/ingest.js';
import { beginReply } from '../../src/respond/beginReply.js';
import { guardKeys, RedisStateGuard } from '../../src/store/stateGuard.js';
import { noScheduler } from '../support/noScheduler.js';
import { startHarness, type Harness } from '../support/harness.js';

let chats = 880_000;
const message = (chatId: string, id: number, text: string) =>
  inboundEventSchema.parse({
    platform: 'telegram',
    chat: { chatId, kind: 'private' },
    platformMessageId: String(id),
    sender: { userId: chatId, isBot: false, displayName: 'Handed' },
    text,
    sentAt: new Date(),
  });

function accepted(r: IngestResult): Extract<IngestResult, { kind: 'accepted' }> {
  if (r.kind !== 'accepted') throw new Error(`message was ${r.kind}`);
  return r;
}

describe('the reply handoff', () => {
  let h: Harness;
  let deps: IngestDeps;
  beforeAll(async () => {
    h = await startHarness({}, ['api']); // no worker: each test starts the reply itself
    deps = {
      store: h.app.store,
      enqueueReply: async () => {},
      scheduler: noScheduler,
      sessionGapMs: 3_600_000,
      responseWindowMs: 10_800_000,
    };
  });
  afterAll(async () => h.stop());

  const newChat = () => String(++chats);
  const begin = (r: { turnId: string; dialogueId: string; sessionId: string }) =>
    beginReply(h.app.store, { ...r, at: new Date() });

  it('leaves a new chat’s documents exactly as a read of the store returns them', async () => {
    const { store } = h.app;
    const r = accepted(await ingest(deps, message(newChat(), 1, 'hello, first time here')));
    const left = await store.guard.run(guardKeys.dialogue(r.dialogueId), (hold) =>
      Promise.resolve(store.handoff.take(r.dialogueId, r.turnId, hold.generation)),
    );
    expect(left).toBeDefined();
    const [turn, dialogue, session, window] = await Promise.all([
      store.turns.get(r.turnId),
      store.dialogues.get(r.dialogueId),
      store.sessions.get(r.sessionId),
      store.windows.get(r.sessionId),
    ]);
    expect(left).toEqual({ turn, dialogue, session, window });
    expect(Object.keys(left!.window.entries)).toHaveLength(1);
  });

  it('reads the store when another message was placed in between: the reply hears both', async () => {
    const chat = newChat();
    const r = accepted(await ingest(deps, message(chat, 1, 'first part')));
    const joined = accepted(await ingest(deps, message(chat, 2, 'second part')));
    expect(joined.turnId).toBe(r.turnId);
    const begun = await begin(r);
    if (begun.kind !== 'begun') throw new Error(`reply ${begun.kind}`);
    const texts = Object.values(begun.record.window.entries).map((e) => e.content);
    expect(texts.sort()).toEqual(['first part', 'second part']);
  });

  it('reads the store when the dialogue was deleted in between: nothing is answered', async () => {
    const r = accepted(await ingest(deps, message(newChat(), 1, 'delete me')));
    await h.app.store.dialogues.deleteWithContents(r.dialogueId);
    const begun = await begin(r);
    expect(begun).toEqual({ kind: 'skipped', reason: 'turn not found' });
  });

  it('is taken once, and only by the reply to its turn', async () => {
    const { store } = h.app;
    const r = accepted(await ingest(deps, message(newChat(), 1, 'once')));
    const takeNext = (turnId: string) =>
      store.guard.run(guardKeys.dialogue(r.dialogueId), (hold) =>
        Promise.resolve(store.handoff.take(r.dialogueId, turnId, hold.generation)),
      );
    expect(await takeNext('trn_another')).toBeUndefined();
    expect(await takeNext(r.turnId)).toBeUndefined(); // the wrong turn's attempt used it up
  });

  it('gives every hold of a key the next generation, whichever process holds it', async () => {
    const redis = new Redis(h.env.REDIS_URL);
    try {
      const other = new RedisStateGuard(redis, { prefix: h.env.QUEUE_PREFIX });
      const key = guardKeys.dialogue(`dlg_generations_${newChat()}`);
      const mine = await h.app.store.guard.run(key, (hold) => Promise.resolve(hold));
      const theirs = await other.run(key, (hold) => Promise.resolve(hold));
      const nested = await h.app.store.guard.run(key, (outer) =>
        h.app.store.guard.run(key, (inner) => Promise.resolve({ outer, inner })),
      );
      expect(mine.reentered).toBe(false);
      expect(theirs.generation).toBe(mine.generation + 1);
      expect(nested.outer.generation).toBe(mine.generation + 2);
      expect(nested.inner).toEqual({ generation: nested.outer.generation, reentered: true });
    } finally {
      await redis.quit();
    }
  });
});
