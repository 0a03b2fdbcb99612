// Discord inbound: real gateway dispatches (shaped as discord-api-docs documents them) pushed by
// the fake gateway into an unmodified discord.js Client (DiscordGateway), translated into the
// InboundEvents the core ingests — in a guild channel, a thread and a DM.
import { MessageType } from 'discord.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordGateway } from '../../adapters/discord/gateway.js';
import { DiscordMediaSource } from '../../adapters/discord/media.js';
import { DiscordOutbound } from '../../adapters/discord/outbound.js';
import { inboundEventSchema, type InboundEventInput } from '../../src/ingest/inboundEvent.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import {
  ALICE_NICK,
  PLACES,
  channelOf,
  deleted,
  edited,
  embedOnlyUpdate,
  mentioningRole,
  mentioningUser,
  message,
  replyTo,
  snowflake,
  voiceMessage,
  webhookMessage,
  withSticker,
  type Place,
} from '../fixtures/discordDispatches.js';
import { eventually } from '../support/testEnv.js';

let fake: FakeDiscord;
let gateway: DiscordGateway;
const events: InboundEventInput[] = [];
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  fake = await startFakeDiscord();
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  gateway = new DiscordGateway({
    token: fake.token,
    apiRoot: fake.apiRoot,
    cdnRoot: fake.baseUrl,
    log,
    onInbound: (e) => {
      // What the core accepts: an event failing its schema never counts as received.
      events.push(inboundEventSchema.parse(e) && e);
      return Promise.resolve();
    },
  });
  await gateway.start();
}, 30_000);
afterAll(async () => {
  await gateway.stop();
  await fake.close();
});

const w = () => fake.world;
type Kind = 'message' | 'edit' | 'delete';
/** The event the client produced for one platform message (of one kind). */
const eventFor = (id: string, kind: Kind = 'message') =>
  eventually(
    async () => Promise.resolve(events.find((e) => e.platformMessageId === id && (e.kind ?? 'message') === kind)),
    10_000,
    `${kind} event for ${id}`,
  );
const eventsFor = (id: string) => events.filter((e) => e.platformMessageId === id);

function expectedChat(place: Place) {
  if (place === 'dm') return { chatId: w().dmId, kind: 'private' };
  if (place === 'thread') return { chatId: w().generalId, threadId: w().threadId, kind: 'group', title: 'general' };
  return { chatId: w().generalId, kind: 'group', title: 'general' };
}
function expectedRecipient(place: Place) {
  const base = { userId: w().bot.id, username: w().bot.username };
  return place === 'dm' ? base : { ...base, roleIds: [w().botRoleId] };
}
const aliceSender = (place: Place) => ({
  userId: w().alice.id,
  isBot: false,
  username: 'alice',
  displayName: place === 'dm' ? 'Alice A.' : ALICE_NICK,
});

describe.each(PLACES)('Discord inbound in a %s', (place) => {
  it('text: chat, sender, recipient and send time', async () => {
    const m = message(w(), place, { content: 'hello there' });
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e).toEqual({
      platform: 'discord',
      kind: 'message',
      chat: expectedChat(place),
      platformMessageId: m.id,
      recipient: expectedRecipient(place),
      sender: aliceSender(place),
      text: 'hello there',
      attachments: [],
      mentions: [],
      sentAt: expect.any(Date) as Date,
    });
    if (e.kind !== 'message' && e.kind !== undefined) throw new Error('not a message');
    expect(Math.abs(e.sentAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('image with caption: an image attachment whose fileRef the media source downloads', async () => {
    const png = Buffer.from('89504e470d0a1a0a' + '00'.repeat(64), 'hex');
    const a = fake.registerAttachment({
      channelId: channelOf(w(), place),
      filename: 'cat.png',
      contentType: 'image/png',
      data: png,
    });
    const m = message(w(), place, { content: 'look at my cat', attachments: [{ ...a, width: 640, height: 480 }] });
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e).toMatchObject({ text: 'look at my cat' });
    expect(e.kind === 'message' && e.attachments).toEqual([
      {
        kind: 'image',
        fileRef: a.url,
        uniqueId: a.id,
        fileName: 'cat.png',
        mime: 'image/png',
        size: png.length,
        width: 640,
        height: 480,
        sourceMessageId: m.id,
      },
    ]);
    const media = new DiscordMediaSource({ apiRoot: fake.apiRoot });
    const fetched = await media.fetch(a.url, { maxBytes: 1024 });
    expect(fetched.data.equals(png)).toBe(true);
    expect(fetched.mime).toBe('image/png');
  });

  it('audio file, voice message, video and other files get their kinds', async () => {
    const at = (filename: string, contentType: string | undefined) =>
      fake.registerAttachment({
        channelId: channelOf(w(), place),
        filename,
        ...(contentType ? { contentType } : {}),
        data: Buffer.from(filename),
      });
    const song = at('song.mp3', 'audio/mpeg');
    const clip = at('clip.mp4', 'video/mp4');
    const pdf = at('notes.pdf', 'application/pdf');
    const text = at('readme.txt', 'text/plain; charset=utf-8');
    const blob = at('data.bin', undefined);
    const files = message(w(), place, { attachments: [song, clip, pdf, text, blob] });
    const voice = at('voice-message.ogg', 'audio/ogg');
    const voiceMsg = voiceMessage(w(), place, { ...voice, duration_secs: 3.52, waveform: 'AAAAAA==' });
    fake.dispatch('MESSAGE_CREATE', files);
    fake.dispatch('MESSAGE_CREATE', voiceMsg);

    const e = await eventFor(files.id);
    expect(e).not.toHaveProperty('text'); // media only
    expect(e.kind === 'message' && e.attachments?.map((x) => [x.kind, x.fileName, x.mime])).toEqual([
      ['audio', 'song.mp3', 'audio/mpeg'],
      ['video', 'clip.mp4', 'video/mp4'],
      ['document', 'notes.pdf', 'application/pdf'],
      ['document', 'readme.txt', 'text/plain'],
      ['document', 'data.bin', undefined],
    ]);
    const v = await eventFor(voiceMsg.id);
    expect(v.kind === 'message' && v.attachments).toEqual([
      {
        kind: 'voice',
        fileRef: voice.url,
        uniqueId: voice.id,
        fileName: 'voice-message.ogg',
        mime: 'audio/ogg',
        size: voice.size,
        duration: 3.52,
        sourceMessageId: voiceMsg.id,
      },
    ]);
  });

  it('sticker: a sticker attachment pointing at the CDN', async () => {
    const stickerId = snowflake();
    fake.registerSticker(stickerId, Buffer.from('png-bytes'));
    const m = withSticker(message(w(), place), { id: stickerId, name: 'wave' });
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e.kind === 'message' && e.attachments).toEqual([
      {
        kind: 'sticker',
        fileRef: `${fake.baseUrl}/stickers/${stickerId}.png`,
        uniqueId: stickerId,
        fileName: 'wave.png',
        stickerName: 'wave',
        mime: 'image/png',
        sourceMessageId: m.id,
      },
    ]);
    const fetched = await new DiscordMediaSource({ apiRoot: fake.apiRoot }).fetch(
      `${fake.baseUrl}/stickers/${stickerId}.png`,
      { maxBytes: 1024 },
    );
    expect(fetched.data.toString()).toBe('png-bytes');
  });

  it('reply: the referenced message with its sender and text', async () => {
    const original = message(w(), place, { author: place === 'dm' ? w().bot : w().bob, content: 'the original words' });
    fake.dispatch('MESSAGE_CREATE', original);
    await eventFor(original.id);
    const reply = replyTo(message(w(), place, { content: 'answering you' }), original);
    fake.dispatch('MESSAGE_CREATE', reply);
    const e = await eventFor(reply.id);
    const by = place === 'dm' ? w().bot : w().bob;
    expect(e).toMatchObject({
      text: 'answering you',
      replyTo: {
        platformMessageId: original.id,
        sender: {
          userId: by.id,
          isBot: place === 'dm',
          username: by.username,
          displayName: by.global_name ?? by.username,
        },
        text: 'the original words',
      },
    });
    // Discord lists the replied-to author among the mentions (the reply ping), with no token in the text.
    expect(e.kind === 'message' && e.mentions).toEqual([{ userId: by.id, username: by.username }]);
  });

  it('user mention: the mentioned user id, and the token read as the name people see', async () => {
    const m = mentioningUser(message(w(), place), w().bot, 'hey @@ what do you think?');
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e).toMatchObject({ text: `hey @${w().bot.username} what do you think?` });
    expect(e.kind === 'message' && e.mentions).toEqual([
      { userId: w().bot.id, username: w().bot.username, text: `@${w().bot.username}` },
    ]);
  });

  it('edit: a text change is an edit; a link-embed update is not', async () => {
    const m = message(w(), place, { content: 'first version' });
    fake.dispatch('MESSAGE_CREATE', m);
    await eventFor(m.id);
    fake.dispatch('MESSAGE_UPDATE', embedOnlyUpdate(m));
    fake.dispatch('MESSAGE_UPDATE', edited(m, 'second version'));
    const e = await eventFor(m.id, 'edit');
    expect(e).toEqual({
      platform: 'discord',
      kind: 'edit',
      chat: expectedChat(place),
      platformMessageId: m.id,
      recipient: expectedRecipient(place),
      sender: aliceSender(place),
      text: 'second version',
      mentions: [],
      editedAt: expect.any(Date) as Date,
    });
    // Events of a channel arrive in order, so the embed update would have come first.
    expect(eventsFor(m.id).map((x) => x.kind)).toEqual(['message', 'edit']);
  });

  it('edit of a message the client never saw (partial) still arrives', async () => {
    const m = message(w(), place, { content: 'sent while we were away' });
    fake.dispatch('MESSAGE_UPDATE', edited(m, 'edited while we were away'));
    const e = await eventFor(m.id, 'edit');
    expect(e).toMatchObject({
      chat: expectedChat(place),
      text: 'edited while we were away',
      sender: { userId: w().alice.id },
    });
  });

  it('delete: the deleted message id in its chat', async () => {
    const m = message(w(), place, { content: 'regrettable' });
    fake.dispatch('MESSAGE_CREATE', m);
    await eventFor(m.id);
    fake.dispatch('MESSAGE_DELETE', deleted(m));
    const e = await eventFor(m.id, 'delete');
    expect(e).toEqual({
      platform: 'discord',
      kind: 'delete',
      chat: expectedChat(place),
      platformMessageId: m.id,
      recipient: expectedRecipient(place),
      deletedAt: expect.any(Date) as Date,
    });
  });

  it('system messages (e.g. a pin notice) are not forwarded', async () => {
    const pin = { ...message(w(), place), type: MessageType.ChannelPinnedMessage };
    const after = message(w(), place, { content: 'after the pin' });
    fake.dispatch('MESSAGE_CREATE', pin);
    fake.dispatch('MESSAGE_CREATE', after);
    await eventFor(after.id);
    expect(eventsFor(pin.id)).toEqual([]);
  });
});

// Roles and webhooks exist only in guilds (a DM has neither).
describe.each(['guild', 'thread'] as const)('Discord inbound in a %s (guild only)', (place) => {
  it('role mention: the role id, even of a role the client has not cached', async () => {
    const unknownRole = snowflake();
    const one = mentioningRole(message(w(), place), w().botRoleId, '@@ please, and ');
    const m = {
      ...one,
      content: `${one.content}<@&${unknownRole}>`,
      mention_roles: [...one.mention_roles, unknownRole],
    };
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e.kind === 'message' && e.mentions).toEqual([
      { roleId: w().botRoleId, text: '@Rainbow' },
      { roleId: unknownRole, text: '@unknown-role' },
    ]);
    expect(e).toMatchObject({ text: '@Rainbow please, and @unknown-role' });
    expect(e.recipient?.roleIds).toEqual([w().botRoleId]);
  });

  it('webhook message: the sender carries the webhook id and the persona name', async () => {
    const hookId = snowflake();
    const m = webhookMessage(w(), place, { webhookId: hookId, username: 'Luna', content: 'I am a persona' });
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e).toMatchObject({
      chat: expectedChat(place),
      text: 'I am a persona',
      sender: { userId: hookId, isBot: true, username: 'Luna', displayName: 'Luna', webhookId: hookId },
    });
  });
});

describe('Discord inbound robustness', () => {
  it('drops malformed dispatches with a log line and keeps the client running', async () => {
    const place: Place = 'guild';
    const { author: _a, ...noAuthor } = message(w(), place, { content: 'who wrote this?' });
    const badAttachment = message(w(), place, {
      attachments: [
        { id: snowflake(), filename: 'x.png', size: 'big' as unknown as number, url: 'not a url', proxy_url: 'nope' },
      ],
    });
    const fine = message(w(), place, { content: 'still here' });
    // discord.js itself throws on these while caching them (it maps embeds and reads mentions).
    const badEmbeds = { ...message(w(), place, { content: 'embeds?' }), embeds: 5 };
    const badMentions = { ...message(w(), place, { content: 'mentions?' }), mentions: 'everyone' };
    fake.dispatch('MESSAGE_CREATE', noAuthor);
    fake.dispatch('MESSAGE_CREATE', badAttachment);
    fake.dispatch('MESSAGE_CREATE', badEmbeds);
    fake.dispatch('MESSAGE_CREATE', badMentions);
    fake.dispatch('MESSAGE_CREATE', fine);
    await eventFor(fine.id);
    for (const bad of [noAuthor, badEmbeds, badMentions]) expect(eventsFor(bad.id)).toEqual([]);
    // One bad attachment drops only itself: the message arrives without it, and a warning names it.
    expect(eventsFor(badAttachment.id)).toMatchObject([{ attachments: [] }]);
    expect(
      logLines.find((l) => l.msg === 'discord message: malformed fields dropped' && l.messageId === badAttachment.id),
    ).toMatchObject({ fields: ['attachments[0]'] });
    const dropped = logLines.filter((l) => l.msg === 'discord message dropped');
    expect(dropped.find((l) => l.messageId === noAuthor.id)?.reason).toMatch(/author/);
    const undigested = logLines.filter((l) => l.msg === 'discord dispatch dropped: discord.js could not apply it');
    expect(undigested.map((l) => [l.type, l.id])).toEqual([
      ['MESSAGE_CREATE', badEmbeds.id],
      ['MESSAGE_CREATE', badMentions.id],
    ]);
    expect(gateway.client.isReady()).toBe(true);
  });

  it('our own persona and bot messages come back as echoes the core can recognise', async () => {
    const out = new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot });
    const chat = { platform: 'discord' as const, chatId: w().generalId };
    const persona = await out.send(chat, 'persona speaking', {
      persona: { name: 'Luna', avatarUrl: 'https://example.com/luna.png' },
    });
    const plain = await out.send(chat, 'bot speaking');
    const [hook] = fake.webhooksOf(w().generalId);
    expect(await eventFor(persona.platformMessageId)).toMatchObject({
      sender: { userId: hook?.id, isBot: true, username: 'Luna', webhookId: hook?.id },
      text: 'persona speaking',
    });
    const own = await eventFor(plain.platformMessageId);
    expect(own).toMatchObject({
      sender: { userId: w().bot.id, isBot: true },
      recipient: { userId: w().bot.id },
      text: 'bot speaking',
    });
    expect(own.kind === 'message' && own.sender).not.toHaveProperty('webhookId');
  });

  it('with dropOwnEchoes, our own bot and persona messages and their edits are not forwarded', async () => {
    const seen: InboundEventInput[] = [];
    const quiet = new DiscordGateway({
      token: fake.token,
      apiRoot: fake.apiRoot,
      log: pino({ level: 'silent' }),
      dropOwnEchoes: true,
      onInbound: (e) => Promise.resolve(void seen.push(e)),
    });
    await quiet.start();
    try {
      const out = new DiscordOutbound({ token: fake.token, apiRoot: fake.apiRoot });
      const chat = { platform: 'discord' as const, chatId: w().generalId };
      const persona = await out.send(chat, 'persona', { persona: { name: 'Luna' } });
      await out.edit(chat, persona.platformMessageId, 'persona, edited', { persona: { name: 'Luna' } });
      const plain = await out.send(chat, 'bot');
      await out.edit(chat, plain.platformMessageId, 'bot, edited');
      const foreignHook = {
        ...webhookMessage(w(), 'guild', { webhookId: snowflake(), username: 'Other app', content: 'not ours' }),
        application_id: snowflake(),
      };
      const human = message(w(), 'guild', { content: 'a person' });
      fake.dispatch('MESSAGE_CREATE', foreignHook);
      fake.dispatch('MESSAGE_CREATE', human);
      await eventually(async () => Promise.resolve(seen.some((e) => e.platformMessageId === human.id)));
      // The first gateway, without the option, got all four echoes.
      await eventFor(plain.platformMessageId, 'edit');
      expect(seen.map((e) => e.platformMessageId)).toEqual([foreignHook.id, human.id]);
    } finally {
      await quiet.stop();
    }
  });

  it('resumes after the connection drops and receives what was sent meanwhile, once', async () => {
    const resumesBefore = fake.gateway.resumes;
    fake.gateway.dropConnections(4000);
    const missed = message(w(), 'guild', { content: 'sent during the outage' });
    fake.dispatch('MESSAGE_CREATE', missed);
    await eventFor(missed.id);
    expect(fake.gateway.resumes).toBe(resumesBefore + 1);
    const later = message(w(), 'guild', { content: 'after the outage' });
    fake.dispatch('MESSAGE_CREATE', later);
    await eventFor(later.id);
    expect(eventsFor(missed.id)).toHaveLength(1);
  });
});
