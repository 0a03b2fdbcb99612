// Discord through the whole gateway: gateway dispatches from the fake Discord reach the core
// through discord.js, the worker downloads attachments from the fake CDN and replies over REST.
// Covers a DM voice message, group context vs. a mention in a thread, a reply to the bot,
// a persona webhook echo, and edits/deletes changing the record without new answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import {
  deleted,
  edited,
  mentioningUser,
  message,
  replyTo,
  voiceMessage,
  webhookMessage,
} from '../fixtures/discordDispatches.js';

describe('Discord end to end', () => {
  let h: Harness;
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord({ echo: true });
    h = await startHarness({
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_ROOT: discord.apiRoot,
      MEDIA_RETRY_BASE_MS: '300',
    });
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await discord.close();
  });

  const botSays = (channelId: string, text: string) =>
    eventually(
      () => Promise.resolve(discord.messages(channelId).some((m) => m.bot && m.content.includes(text))),
      20_000,
      `bot says "${text}"`,
    );
  const humanMessage = async (platformMessageId: string) =>
    eventually(
      async () => (await h.app.store.c.messages.findOne({ 'platformRef.messageId': platformMessageId })) ?? undefined,
      10_000,
      'message stored',
    );

  it('transcribes a DM voice message and answers it', async () => {
    const w = discord.world;
    const data = Buffer.from('what should I cook tonight');
    const voice = {
      ...discord.registerAttachment({
        channelId: w.dmId,
        filename: 'voice-message.ogg',
        contentType: 'audio/ogg',
        data,
      }),
      duration_secs: 2.5,
    };
    h.llm.enqueue({ kind: 'reply', chunks: ['How about dumplings?'] });
    discord.dispatch('MESSAGE_CREATE', voiceMessage(w, 'dm', voice));
    await botSays(w.dmId, 'How about dumplings?');
    expect(JSON.stringify(h.llm.requests.at(-1)!.body.messages)).toContain(
      'Voice message, 3 s, transcribed: \\"what should I cook tonight\\"',
    );
  });

  it('keeps unaddressed thread chatter as context and answers a mention there, then a reply to itself', async () => {
    const w = discord.world;
    const chatter = message(w, 'thread', { author: w.bob, content: 'the build is red again' });
    discord.dispatch('MESSAGE_CREATE', chatter);
    await humanMessage(chatter.id);
    expect(h.llm.requests.filter((r) => JSON.stringify(r.body).includes('the build is red again'))).toHaveLength(0);

    h.llm.enqueue({ kind: 'reply', chunks: ['Looks like a flaky test.'] });
    discord.dispatch(
      'MESSAGE_CREATE',
      mentioningUser(message(w, 'thread', { content: '@@ why is it red?' }), w.bot, '@@ why is it red?'),
    );
    await botSays(w.threadId, 'Looks like a flaky test.');
    const prompt = JSON.stringify(h.llm.requests.at(-1)!.body.messages);
    expect(prompt).toContain('the build is red again'); // context from Bob, with his name
    expect(prompt).toMatch(/bob[^"]*: the build is red again/i);

    const botPost = discord.messages(w.threadId).find((m) => m.bot && m.content.includes('flaky'))!;
    const botPostDispatch = { ...message(w, 'thread', { id: botPost.id, author: w.bot, content: botPost.content }) };
    h.llm.enqueue({ kind: 'reply', chunks: ['Retry it once.'] });
    discord.dispatch(
      'MESSAGE_CREATE',
      replyTo(message(w, 'thread', { author: w.bob, content: 'which test?' }), botPostDispatch),
    );
    await botSays(w.threadId, 'Retry it once.');
    expect(JSON.stringify(h.llm.requests.at(-1)!.body.messages)).toContain('Replying to Rainbow (you):');
  });

  it('never answers a persona webhook post, and applies edits and deletes without answering', async () => {
    const w = discord.world;
    const before = h.llm.requests.length;
    discord.dispatch(
      'MESSAGE_CREATE',
      webhookMessage(w, 'guild', {
        webhookId: '1999',
        username: 'Luna',
        content: `<@${w.bot.id}> hello from another persona`,
      }),
    );
    const original = message(w, 'guild', { content: 'lunch at 12?' });
    discord.dispatch('MESSAGE_CREATE', original);
    const stored = await humanMessage(original.id);
    discord.dispatch('MESSAGE_UPDATE', edited(original, 'lunch at 1?'));
    await eventually(
      async () => (await h.app.store.messages.get(stored._id))?.content === 'lunch at 1?',
      10_000,
      'edit applied',
    );
    discord.dispatch('MESSAGE_DELETE', deleted(original));
    const gone = await eventually(
      async () => {
        const m = await h.app.store.messages.get(stored._id);
        return m?.deleted ? m : undefined;
      },
      10_000,
      'delete applied',
    );
    expect(gone.edits?.map((e) => e.content)).toEqual(['lunch at 12?']);
    expect(h.llm.requests.length).toBe(before);
    expect(await h.app.store.c.messages.countDocuments({ content: { $regex: 'another persona' } })).toBe(0);
  });
});

describe('Discord persona webhooks', () => {
  let h: Harness;
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord({ echo: true });
    h = await startHarness({
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_ROOT: discord.apiRoot,
      DISCORD_PERSONAS: 'on',
      AGENT_NAME: 'Luna',
      AGENT_AVATAR_URL: 'https://example.com/luna.png',
    });
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await discord.close();
  });

  it('streams the reply through a channel webhook under the agent name and avatar, and ignores its echo', async () => {
    const w = discord.world;
    h.llm.enqueue({ kind: 'reply', chunks: ['Moonlight', ' greetings', ' to you.'], chunkDelayMs: 150 });
    discord.dispatch(
      'MESSAGE_CREATE',
      mentioningUser(message(w, 'guild', { content: '@@ hi Luna' }), w.bot, '@@ hi Luna'),
    );
    const shown = await eventually(
      () => {
        const m = discord.messages(w.generalId).find((x) => x.webhookId && x.content === 'Moonlight greetings to you.');
        return Promise.resolve(m);
      },
      20_000,
      'persona reply',
    );
    expect(shown).toMatchObject({ username: 'Luna', avatarUrl: 'https://example.com/luna.png', bot: true });
    const reply = await eventually(
      async () =>
        (await h.app.store.c.messages.findOne({ senderRole: 'ai', 'delivery.state': 'complete' })) ?? undefined,
      10_000,
      'stored',
    );
    expect(reply.delivery!.platformMessageIds).toEqual([shown.id]);
    // The webhook post comes back through the gateway; it is not stored as anyone's message.
    expect(await h.app.store.c.messages.countDocuments({ senderRole: 'human' })).toBe(1);
  });
});
