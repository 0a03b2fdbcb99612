// /summary end to end: the user asks, hears it started, then gets the summary; the dialogue
// continues in a new session seeded with it, and the next reply's prompt carries the summary.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';

const CHAT = 781_001;

describe('/summary', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ DEFAULT_LOCALE: 'en' });
  }, 60_000);
  afterEach(async () => {
    await h.stop();
  });

  let update = 0;
  const push = (text: string) =>
    h.tg.pushUpdate(privateText({ updateId: 90_000 + ++update, chatId: CHAT, firstName: 'Mia', text }));
  const sent = () => h.tg.callsOf('sendMessage').map((c) => String(c.params.text));

  async function say(text: string) {
    push(text);
    const msg = await eventually(
      async () => (await h.app.store.c.messages.findOne({ content: text, senderRole: 'human' })) ?? undefined,
      15_000,
      'stored',
    );
    await eventually(
      async () => (await h.app.store.turns.get(msg.turnId!))?.status === 'responded',
      20_000,
      'answered',
    );
    return msg;
  }

  it('with nothing said yet says so; after a conversation it answers with the summary and continues in a seeded session', async () => {
    push('/summary');
    await eventually(
      () => Promise.resolve(sent().some((t) => t.includes('nothing to summarise'))),
      20_000,
      'nothing notice',
    );

    const first = await say('I adopted a cat called Mochi yesterday.');
    await say('She loves sleeping on my keyboard.');
    push('/summary');
    await eventually(
      () => Promise.resolve(sent().some((t) => t.startsWith('Done. We continue from this summary'))),
      30_000,
      'summary notice',
    );
    const done = sent().find((t) => t.startsWith('Done.'))!;
    expect(done).toContain('I adopted a cat called Mochi yesterday');

    const old = await h.app.store.sessions.get(first.sessionId);
    expect(old).toMatchObject({ status: 'closed', closeReason: 'summarized' });
    const dialogue = await h.app.store.dialogues.get(first.dialogueId);
    expect(dialogue?.currentSessionId).not.toBe(first.sessionId);
    const next = await say('What was I telling you about?');
    expect(next.sessionId).toBe(dialogue?.currentSessionId);
    const built = await h.app.store.c.events.findOne({ turnId: next.turnId, kind: 'context_built' });
    expect(JSON.stringify(built?.data.prompt)).toContain('I adopted a cat called Mochi yesterday');
    // Summary and plot memories were written with the session as their source.
    expect(
      await h.app.store.c.memories.countDocuments({
        'sources.sessionId': first.sessionId,
        kind: { $in: ['summary', 'plot'] },
      }),
    ).toBeGreaterThan(0);
  }, 120_000);
});
