// Discord outbound through the real @discordjs/rest against the fake Discord REST API: plain
// bot messages, persona messages through channel webhooks, typing, the 2000-character limit and
// rate limits (waited out when short, handed to the core as PlatformRateLimitedError when long).
import { DiscordAPIError } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_NAME, DiscordOutbound } from '../../adapters/discord/outbound.js';
import type { ChatRef } from '../../src/domain/model.js';
import { splitForPlatform } from '../../src/delivery/split.js';
import { PlatformRateLimitedError } from '../../src/delivery/outbound.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import { message } from '../fixtures/discordDispatches.js';

const LUNA = { name: 'Luna', avatarUrl: 'https://example.com/luna.png' };
const SOL = { name: 'Sol', avatarUrl: 'https://example.com/sol.png' };

describe('Discord outbound', () => {
  let fake: FakeDiscord;
  let out: DiscordOutbound;
  const toDm = (): ChatRef => ({ platform: 'discord', chatId: fake.world.dmId });
  const toGeneral = (): ChatRef => ({ platform: 'discord', chatId: fake.world.generalId });
  const toThread = (): ChatRef => ({
    platform: 'discord',
    chatId: fake.world.generalId,
    threadId: fake.world.threadId,
  });

  beforeAll(async () => {
    // Generous limits: these tests are about content, the rate-limit tests below use their own fake.
    fake = await startFakeDiscord({
      limits: { messageCreate: { limit: 100, windowMs: 1000 }, messageEdit: { limit: 100, windowMs: 1000 } },
    });
    out = new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot });
  });
  afterAll(() => fake.close());

  const places = [
    ['guild', () => toGeneral(), () => fake.world.generalId],
    ['thread', () => toThread(), () => fake.world.threadId],
    ['dm', () => toDm(), () => fake.world.dmId],
  ] as const;

  describe.each(places)('in a %s', (place, chat, shownIn) => {
    it('sends and edits a bot message that can ping no one', async () => {
      const { platformMessageId } = await out.send(chat(), 'Thinking… @everyone');
      await out.edit(chat(), platformMessageId, 'Here is the answer, <@123456789012345678>.');
      const shown = fake.messages(shownIn()).find((m) => m.id === platformMessageId);
      expect(shown).toMatchObject({
        content: 'Here is the answer, <@123456789012345678>.',
        authorId: fake.world.bot.id,
        username: fake.world.bot.username,
        edited: true,
      });
      expect(shown).not.toHaveProperty('webhookId');
      const calls = fake.requests.filter(
        (r) => r.path.includes(platformMessageId) || (r.route === 'POST /channels/:id/messages' && r.status === 200),
      );
      for (const c of calls) expect(c.body).toMatchObject({ allowed_mentions: { parse: [] } });
    });

    it('replies to a message', async () => {
      const asked = message(fake.world, place, { content: 'a question' });
      fake.dispatch('MESSAGE_CREATE', asked);
      const { platformMessageId } = await out.send(chat(), 'an answer', { replyToPlatformMessageId: asked.id });
      expect(fake.messages(shownIn()).find((m) => m.id === platformMessageId)).toMatchObject({
        content: 'an answer',
        replyTo: asked.id,
      });
    });

    it('shows typing where the reply will appear', async () => {
      await out.typing(chat());
      expect(fake.requestsTo('POST /channels/:id/typing').at(-1)).toMatchObject({
        path: `/channels/${shownIn()}/typing`,
        status: 204,
      });
    });
  });

  describe.each(places.slice(0, 2))('personas in a %s', (_name, chat, shownIn) => {
    it('post through the channel webhook under their own name and avatar, and can be edited', async () => {
      const luna = await out.send(chat(), 'Luna here', { persona: LUNA });
      const sol = await out.send(chat(), 'Sol here', { persona: SOL });
      await out.edit(chat(), luna.platformMessageId, 'Luna here, edited', { persona: LUNA });
      const shown = fake.messages(shownIn());
      expect(shown.find((m) => m.id === luna.platformMessageId)).toMatchObject({
        content: 'Luna here, edited',
        username: 'Luna',
        avatarUrl: LUNA.avatarUrl,
        bot: true,
        edited: true,
      });
      expect(shown.find((m) => m.id === sol.platformMessageId)).toMatchObject({
        content: 'Sol here',
        username: 'Sol',
        avatarUrl: SOL.avatarUrl,
        edited: false,
      });
      // One webhook of ours serves the parent channel and its threads.
      const hooks = fake.webhooksOf(fake.world.generalId);
      expect(hooks.map((h) => h.name)).toEqual([DEFAULT_WEBHOOK_NAME]);
      expect(shown.find((m) => m.id === luna.platformMessageId)?.webhookId).toBe(hooks[0]?.id);
    });

    it('another process can edit a persona message, with or without the persona', async () => {
      const { platformMessageId } = await out.send(chat(), 'draft', { persona: LUNA });
      const worker2 = new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot });
      await worker2.edit(chat(), platformMessageId, 'final, with persona', { persona: LUNA });
      expect(fake.messages(shownIn()).find((m) => m.id === platformMessageId)?.content).toBe('final, with persona');
      const worker3 = new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot });
      await worker3.edit(chat(), platformMessageId, 'final, found by the webhook');
      expect(fake.messages(shownIn()).find((m) => m.id === platformMessageId)).toMatchObject({
        content: 'final, found by the webhook',
        username: 'Luna',
      });
      expect(fake.webhooksOf(fake.world.generalId)).toHaveLength(1);
    });
  });

  it('a deleted webhook is replaced on the next persona message', async () => {
    const first = await out.send(toGeneral(), 'before', { persona: LUNA });
    for (const h of fake.webhooksOf(fake.world.generalId)) fake.deleteWebhook(h.id);
    const second = await out.send(toGeneral(), 'after', { persona: LUNA });
    const [replacement] = fake.webhooksOf(fake.world.generalId);
    expect(fake.messages(fake.world.generalId).find((m) => m.id === second.platformMessageId)).toMatchObject({
      content: 'after',
      username: 'Luna',
      webhookId: replacement?.id,
    });
    expect(first.platformMessageId).not.toBe(second.platformMessageId);
  });

  it('where webhooks are not allowed, a persona speaks as the bot and its message stays editable', async () => {
    const channelId = fake.addTextChannel('no-webhooks-here');
    const chat: ChatRef = { platform: 'discord', chatId: channelId };
    fake.failNext('GET /channels/:id/webhooks', 403, { message: 'Missing Permissions', code: 50013 });
    const { platformMessageId } = await out.send(chat, 'plain Luna', { persona: LUNA });
    await out.edit(chat, platformMessageId, 'plain Luna, edited', { persona: LUNA });
    expect(fake.messages(channelId)).toMatchObject([
      { id: platformMessageId, content: 'plain Luna, edited', authorId: fake.world.bot.id },
    ]);
  });

  it('a persona in a DM (no webhooks there) speaks as the bot instead of failing', async () => {
    const { platformMessageId } = await out.send(toDm(), 'hello from Luna', { persona: LUNA });
    await out.edit(toDm(), platformMessageId, 'hello again from Luna', { persona: LUNA });
    expect(fake.messages(fake.world.dmId).find((m) => m.id === platformMessageId)).toMatchObject({
      content: 'hello again from Luna',
      authorId: fake.world.bot.id,
    });
    expect(
      fake.requestsTo('GET /channels/:id/webhooks').some((r) => r.path.includes(fake.world.dmId) && r.status === 403),
    ).toBe(true);
  });

  it('persona names Discord would refuse are cleaned instead of failing the reply', async () => {
    const { platformMessageId } = await out.send(toGeneral(), 'hi', { persona: { name: 'Discord Helper' } });
    expect(fake.messages(fake.world.generalId).find((m) => m.id === platformMessageId)?.username).toBe('Helper');
  });

  it('respects the 2000-character limit: 2000 arrive intact, 2001 are refused by Discord and surface', async () => {
    expect(out.maxMessageChars).toBe(2000);
    const exact = 'ä'.repeat(1000) + 'b'.repeat(1000);
    const { platformMessageId } = await out.send(toGeneral(), exact);
    expect(fake.messages(fake.world.generalId).find((m) => m.id === platformMessageId)?.content).toBe(exact);
    const before = fake.messages(fake.world.generalId).length;
    const err: unknown = await out.send(toGeneral(), 'b'.repeat(2001)).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PlatformCallError', platform: 'discord', status: 400 });
    expect((err as Error).cause).toBeInstanceOf(DiscordAPIError);
    expect(((err as Error).cause as DiscordAPIError).code).toBe(50035);
    expect(fake.messages(fake.world.generalId)).toHaveLength(before);
  });

  it('a 9 000-character reply with code blocks arrives as ordered chunks of at most 2000, fences balanced', async () => {
    const code = (n: number) =>
      '```ts\n' +
      Array.from({ length: n }, (_, i) => `const line${n}_${i} = ${i}; // ${'x'.repeat(20)}`).join('\n') +
      '\n```';
    const prose = (n: number) =>
      Array.from({ length: n }, (_, i) => `Sentence ${n}.${i} explains the next step in plain words.`).join(' ');
    const reply = [prose(20), code(20), prose(15), code(90), prose(30), code(10), prose(25)].join('\n\n');
    expect(reply.length).toBeGreaterThan(9000);
    const chunks = splitForPlatform(reply, out.maxMessageChars);
    const chat: ChatRef = { platform: 'discord', chatId: fake.addTextChannel('long-replies') };
    for (const chunk of chunks) await out.send(chat, chunk);

    const shown = fake.messages(chat.chatId).map((m) => m.content);
    expect(shown).toEqual(chunks);
    expect(shown.length).toBeGreaterThanOrEqual(5);
    for (const text of shown) {
      expect(text.length).toBeLessThanOrEqual(2000);
      expect((text.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    // Every code line arrives, in order.
    const lines = reply.split('\n').filter((l) => l.startsWith('const '));
    const arrived = shown
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('const '));
    expect(arrived).toEqual(lines);
  });

  it('a send retried after a server error does not post twice (enforced nonce)', async () => {
    fake.failNext(
      'POST /channels/:id/messages',
      502,
      { message: '502: Bad Gateway', code: 0 },
      { afterProcessing: true },
    );
    const before = fake.messages(fake.world.generalId).length;
    const { platformMessageId } = await out.send(toGeneral(), 'exactly once');
    const shown = fake.messages(fake.world.generalId);
    expect(shown).toHaveLength(before + 1);
    expect(shown.at(-1)).toMatchObject({ id: platformMessageId, content: 'exactly once' });
    expect(
      fake
        .requestsTo('POST /channels/:id/messages')
        .slice(-2)
        .map((r) => r.status),
    ).toEqual([502, 200]);
  });

  it('other Discord errors reach the caller with their code', async () => {
    fake.failNext('POST /channels/:id/messages', 403, { message: 'Missing Permissions', code: 50013 });
    const err: unknown = await out.send(toGeneral(), 'not allowed').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PlatformCallError', platform: 'discord', status: 403 });
    expect((err as Error).cause).toBeInstanceOf(DiscordAPIError);
    expect(((err as Error).cause as DiscordAPIError).code).toBe(50013);
  });
});

describe('Discord outbound rate limits', () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await startFakeDiscord({ limits: { messageCreate: { limit: 5, windowMs: 1000 } } });
  });
  afterEach(() => {
    fake.rateLimited.length = 0;
  });
  afterAll(() => fake.close());

  it('a burst from two workers over the per-channel limit: every message once, in order, 429s waited out', async () => {
    const chat: ChatRef = { platform: 'discord', chatId: fake.world.generalId };
    const workers = [
      new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot }),
      new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot }),
    ];
    const texts = (w: number) => Array.from({ length: 8 }, (_, i) => `worker ${w} message ${i + 1}`);
    const results = await Promise.allSettled(workers.flatMap((out, w) => texts(w).map((t) => out.send(chat, t))));

    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const shown = fake.messages(fake.world.generalId).map((m) => m.content);
    expect(shown).toHaveLength(16);
    for (const w of [0, 1]) expect(shown.filter((t) => t.startsWith(`worker ${w} `))).toEqual(texts(w));
    // Each worker paced itself by the headers, but two sharing one bucket still ran into it.
    expect(fake.rateLimited.length).toBeGreaterThan(0);
    expect(fake.rateLimited.every((h) => h.route === 'POST /channels/:id/messages' && !h.global)).toBe(true);
  }, 60_000);

  it('an unexpected short 429 is waited out and the message is delivered once, before the next', async () => {
    const chat: ChatRef = { platform: 'discord', chatId: fake.world.generalId, threadId: fake.world.threadId };
    const out = new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot });
    fake.failNext('POST /channels/:id/messages', 429, {
      message: 'You are being rate limited.',
      retry_after: 0.3,
      global: false,
    });
    await Promise.all([out.send(chat, 'first'), out.send(chat, 'second')]);
    expect(fake.messages(fake.world.threadId).map((m) => m.content)).toEqual(['first', 'second']);
    expect(fake.rateLimited).toHaveLength(1);
  });

  it('with maxRateLimitWaitMs 0 every rate limit goes to the caller (for a pacing layer above)', async () => {
    // A window long enough that it cannot reset under a slow test machine.
    const own = await startFakeDiscord({ limits: { messageCreate: { limit: 2, windowMs: 30_000 } } });
    try {
      const chat: ChatRef = { platform: 'discord', chatId: own.world.generalId };
      const opts = { token: own.token, apiRoot: own.apiRoot, maxRateLimitWaitMs: 0 };
      const [w1, w2] = [new DiscordOutbound(opts), new DiscordOutbound(opts)];
      await w1.send(chat, 'fill 1');
      await w1.send(chat, 'fill 2');
      // w1 knows the bucket is empty: it refuses without asking Discord.
      const requestsBefore = own.requests.length;
      const known: unknown = await w1.send(chat, 'one too many').catch((e: unknown) => e);
      expect(known).toBeInstanceOf(PlatformRateLimitedError);
      expect(own.requests.length).toBe(requestsBefore);
      // w2 has not seen the bucket: Discord answers 429 and that becomes the same error.
      const answered: unknown = await w2.send(chat, 'one too many').catch((e: unknown) => e);
      expect(answered).toBeInstanceOf(PlatformRateLimitedError);
      expect(own.rateLimited).toHaveLength(1);
      for (const err of [known, answered]) {
        expect((err as PlatformRateLimitedError).retryAfterMs).toBeGreaterThan(1_000);
        expect((err as PlatformRateLimitedError).retryAfterMs).toBeLessThanOrEqual(31_100);
      }
      expect(own.messages(chat.chatId).map((m) => m.content)).toEqual(['fill 1', 'fill 2']);
    } finally {
      await own.close();
    }
  });

  it('a long (global) rate limit is handed to the core as PlatformRateLimitedError without posting', async () => {
    const out = new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot, maxRateLimitWaitMs: 5_000 });
    const before = fake.messages(fake.world.dmId).length;
    fake.failNext('POST /channels/:id/messages', 429, {
      message: 'You are being rate limited.',
      retry_after: 42.5,
      global: true,
    });
    const err: unknown = await out
      .send({ platform: 'discord', chatId: fake.world.dmId }, 'later, please')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformRateLimitedError);
    expect(err).toMatchObject({ platform: 'discord', global: true });
    expect((err as PlatformRateLimitedError).retryAfterMs).toBeGreaterThanOrEqual(40_000);
    expect(fake.messages(fake.world.dmId)).toHaveLength(before);
  });
});
