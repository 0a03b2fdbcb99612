// Every Telegram kind without plain text, end to end (issue 16 A): a DM with each one is answered,
// and the model's prompt names what was sent — never the "your message is empty" notice. A bot's
// message in a group and a Bot API 10 guest message are stored and never answered.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import {
  FORWARD_ORIGINS,
  PLACES,
  SHARED_KINDS,
  forwardedUpdate,
  guestMessageUpdate,
  otherBotUpdate,
  sharedKindUpdate,
  storyReplyUpdate,
  textUpdate,
} from '../fixtures/telegramUpdates.js';

const BOT_USERNAME = 'fake_test_bot';

describe('Telegram kinds, end to end', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  /** Whether a chat request to the model carried `text` in its messages. */
  const prompted = (text: string) =>
    h.llm.requests.some((r) => JSON.stringify(r.body.messages ?? []).includes(JSON.stringify(text).slice(1, -1)));

  it('answers a DM of every kind with a prompt that names it, never the empty notice', async () => {
    const cases = [
      ...Object.entries(SHARED_KINDS).map(([kind, k], i) => ({
        chat: 810_000 + i,
        update: (chat: number) => sharedKindUpdate({ updateId: 1 + i, userId: chat, kind }),
        reads: k.reads,
      })),
      ...Object.entries(FORWARD_ORIGINS).map(([origin, f], i) => ({
        chat: 820_000 + i,
        update: (chat: number) =>
          forwardedUpdate({
            updateId: 100 + i,
            userId: chat,
            origin: origin as keyof typeof FORWARD_ORIGINS,
            text: 'see this',
          }),
        reads: `${f.reads} see this`,
      })),
      {
        chat: 830_000,
        update: (chat: number) => storyReplyUpdate({ updateId: 200, userId: chat, text: 'nice view' }),
        reads: '[a story from Grace Hopper]',
      },
    ];
    for (const c of cases) h.tg.pushUpdate(c.update(c.chat));
    for (const c of cases) {
      await h.tg.waitFor(() => h.tg.sentText(c.chat).join('\n').includes('echo:'), 20_000);
      expect(prompted(c.reads), c.reads).toBe(true);
      expect(h.tg.sentText(c.chat).join('\n'), c.reads).not.toMatch(/empty/i);
    }
    const rejected = await h.app.store.c.messages.countDocuments({ rejected: { $exists: true } });
    expect(rejected).toBe(0);
  });

  it('stores another bot’s message in a group and never answers it, even when it mentions us', async () => {
    const chat = PLACES.group.chatId;
    h.tg.pushUpdate(otherBotUpdate({ updateId: 300, place: PLACES.group, text: `@${BOT_USERNAME} ping` }));
    // A person's message after it is answered: the bot's message was handled (and stored) first.
    h.tg.pushUpdate(textUpdate({ updateId: 301, place: PLACES.group, text: `@${BOT_USERNAME} hello` }));
    await h.tg.waitFor(() => h.tg.sentText(chat).join('\n').includes('echo:'), 20_000);
    const stored = await eventually(async () => {
      const all = await h.app.store.c.messages.find({ senderRole: 'human' }).sort({ createdAt: 1 }).toArray();
      return all.length >= 2 ? all : undefined;
    });
    expect(stored.map((m) => [m.content, m.turnId === undefined])).toEqual([
      [`@${BOT_USERNAME} ping`, true],
      [`@${BOT_USERNAME} hello`, false],
    ]);
    expect(await h.app.store.c.turns.countDocuments({})).toBe(1);
    expect(prompted(`@${BOT_USERNAME} ping`)).toBe(true); // kept as context of the later answer
  });

  it('stores another bot’s DM and never answers it', async () => {
    const chat = 840_000;
    h.tg.pushUpdate(otherBotUpdate({ updateId: 400, userId: chat, text: 'hello bot, answer me' }));
    await eventually(
      async () => (await h.app.store.c.messages.findOne({ content: 'hello bot, answer me' })) ?? undefined,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.app.store.c.turns.countDocuments({})).toBe(0);
    expect(h.tg.callsOf('sendMessage')).toHaveLength(0);
  });

  it('stores a Bot API 10 guest message and never answers it through the chat', async () => {
    h.tg.pushUpdate(
      guestMessageUpdate({ updateId: 500, place: PLACES.supergroup, text: 'what is this?', botUsername: BOT_USERNAME }),
    );
    const m = await eventually(
      async () => (await h.app.store.c.messages.findOne({ content: `@${BOT_USERNAME} what is this?` })) ?? undefined,
    );
    expect(m.turnId).toBeUndefined();
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.app.store.c.turns.countDocuments({})).toBe(0);
    expect(h.tg.callsOf('sendMessage')).toHaveLength(0);
  });
});
