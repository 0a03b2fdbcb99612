// A burst of long streamed replies to 50 Telegram chats at once, through the whole pipeline,
// against a fake Bot API that enforces Telegram's flood limits and answers 429 retry_after.
// Every chat must end up showing exactly its stored reply — nothing lost, nothing doubled —
// and no 429 may surface as a failed delivery.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';

const CHATS = 50;

describe('delivery burst under platform rate limits', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('delivers 50 concurrent multi-message replies completely, once each, with every 429 handled', async () => {
    h = await startHarness({ WORKER_CONCURRENCY: '25', STREAM_EDIT_INTERVAL_MS: '300' }, ['gateway', 'worker', 'api'], {
      telegram: { rateLimits: { perChatPerSecond: 1, globalPerSecond: 30 } },
    });
    // Each reply is ~5 000 characters, so it streams by edits and then needs a second message.
    const replies = Array.from({ length: CHATS }, (_, i) => {
      const para = `Reply ${i}: ${'lorem ipsum dolor sit amet '.repeat(40)}`;
      return [para, '\n\n', para, '\n\n', para, '\n\n', para, '\n\n', `Closing words of reply ${i}.`];
    });
    for (const chunks of replies) h.llm.enqueue({ kind: 'reply', chunks, chunkDelayMs: 40 });
    for (let i = 0; i < CHATS; i++)
      h.tg.pushUpdate(privateText({ updateId: i + 1, chatId: 910_000 + i, text: `hello from chat ${i}` }));

    await eventually(
      async () => (await h.app.store.c.turns.countDocuments({ status: 'responded' })) === CHATS,
      120_000,
      'all turns responded',
    );
    const replyDocs = await h.app.store.c.messages.find({ senderRole: 'ai' }).toArray();
    for (const m of replyDocs.filter((r) => r.delivery?.state !== 'complete')) {
      const turn = await h.app.store.c.turns.findOne({ _id: m.turnId! });
      const events = await h.app.store.c.events.find({ turnId: m.turnId! }).toArray();
      console.error(
        'UNFINISHED',
        JSON.stringify({
          doc: m,
          delivery: m.delivery,
          len: m.content.length,
          updatedAt: m.updatedAt,
          turn,
          events: events.map((e) => [e.kind, e.at, e.data.ok, e.data.error]),
        }),
      );
    }
    expect(replyDocs).toHaveLength(CHATS);
    expect(replyDocs.filter((m) => m.delivery?.state !== 'complete').map((m) => m.delivery)).toEqual([]);

    const dialogues = await h.app.store.c.dialogues.find({}).toArray();
    for (const d of dialogues) {
      const reply = replyDocs.find((m) => m.dialogueId === d._id)!;
      // What the user sees, message by message, joined back, is exactly the stored reply.
      await eventually(
        () => {
          const shown = h.tg.sentText(d.chat.chatId);
          return Promise.resolve(
            shown.join('\n\n').replace(/\s+/g, ' ') === reply.content.replace(/\s+/g, ' ') ? shown : undefined,
          );
        },
        30_000,
        `chat ${d.chat.chatId} shows its reply`,
      );
      expect(h.tg.sentText(d.chat.chatId)).toHaveLength(reply.delivery!.platformMessageIds.length);
      expect(reply.delivery!.platformMessageIds).toHaveLength(2);
    }
    // Each distinct reply went to exactly one chat.
    expect(new Set(replyDocs.map((m) => m.content)).size).toBe(CHATS);
    // The fake did push back, and every pushback was absorbed (no failed delivery event).
    const deliveries = await h.app.store.c.events.find({ kind: 'delivery' }).toArray();
    expect(deliveries).toHaveLength(CHATS);
    expect(deliveries.filter((e) => e.data.ok !== true).map((e) => e.data)).toEqual([]);
    console.info(`burst: ${h.tg.tooManyRequests} requests answered 429, all handled`);
  }, 180_000);
});
