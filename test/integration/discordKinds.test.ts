// Discord kinds that arrived empty or wrong (issue 16 A), dispatched by the fake gateway into an
// unmodified discord.js Client and translated: forwards, embed-only posts, polls, crossposts,
// mentions by id, named stickers, and one malformed nested field dropping only that field.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordGateway } from '../../adapters/discord/gateway.js';
import { inboundEventSchema, type InboundMessage } from '../../src/ingest/inboundEvent.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import {
  attachment,
  crosspostOf,
  embedOnlyPost,
  forwardOf,
  mentioningEverything,
  message,
  pollMessage,
  snowflake,
  withSticker,
} from '../fixtures/discordDispatches.js';
import { eventually } from '../support/testEnv.js';

let fake: FakeDiscord;
let gateway: DiscordGateway;
const events: InboundMessage[] = [];
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
      const parsed = inboundEventSchema.parse(e); // what the core reads
      if (parsed.kind === 'message') events.push(parsed);
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
const eventFor = (id: string) =>
  eventually(() => Promise.resolve(events.find((e) => e.platformMessageId === id)), 10_000, `event for ${id}`);

describe('Discord kinds', () => {
  it('a forward reads its snapshot text and carries its attachments', async () => {
    const file = attachment({
      filename: 'notes.txt',
      contentType: 'text/plain',
      size: 12,
      url: 'https://cdn.discordapp.com/attachments/1/2/notes.txt',
    });
    const m = forwardOf(w(), 'guild', { content: 'meet at 8', attachments: [file] });
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e.text).toBe('[forwarded from #general] meet at 8');
    expect(e.attachments).toMatchObject([{ kind: 'document', fileName: 'notes.txt' }]);
    expect(e.replyTo).toBeUndefined();
  });

  it('a forward in a DM from an unknown channel still reads as a forward', async () => {
    const m = forwardOf(w(), 'dm', { content: 'look', sourceChannelId: snowflake() });
    fake.dispatch('MESSAGE_CREATE', m);
    expect((await eventFor(m.id)).text).toBe('[forwarded message] look');
  });

  it('an embed-only webhook post reads its title, description, fields and footer', async () => {
    const m = embedOnlyPost(w(), 'guild');
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e.text).toBe('[card: Forecast for Berlin\nSunny all day\nHigh: 24°C\nLow: 12°C\nvia Weather Hook]');
  });

  it('a poll reads its question and answers', async () => {
    const m = pollMessage(w(), 'dm');
    fake.dispatch('MESSAGE_CREATE', m);
    expect((await eventFor(m.id)).text).toBe('[poll "Pizza or sushi?" — options: "Pizza" / "Sushi"]');
  });

  it('a crossposted announcement is not a reply to nothing', async () => {
    const m = crosspostOf(w(), 'New release out!');
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e.text).toBe('New release out!');
    expect(e.replyTo).toBeUndefined();
  });

  it('mention codes read as names; unknown ones in a neutral form', async () => {
    const m = mentioningEverything(w(), 'guild');
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e.text).toBe(
      'hey @Bob and @Ally, @Moderators see #general; also @unknown-user @unknown-role #unknown-channel :party:',
    );
    expect(e.text).not.toMatch(/<[@#]/);
  });

  it('a sticker carries its name', async () => {
    const id = snowflake();
    fake.registerSticker(id, Buffer.from('png-bytes'));
    const m = withSticker(message(w(), 'dm'), { id, name: 'wave' });
    fake.dispatch('MESSAGE_CREATE', m);
    expect((await eventFor(m.id)).attachments).toMatchObject([{ kind: 'sticker', stickerName: 'wave' }]);
  });

  it('one malformed attachment drops only that attachment, with a warning naming it', async () => {
    const good = attachment({
      filename: 'ok.png',
      contentType: 'image/png',
      size: 10,
      url: 'https://cdn.discordapp.com/attachments/1/3/ok.png',
    });
    const bad = {
      ...attachment({
        filename: 'bad.png',
        contentType: 'image/png',
        size: 10,
        url: 'https://cdn.discordapp.com/attachments/1/4/bad.png',
      }),
      size: -5,
    };
    const m = message(w(), 'dm', { content: 'two files', attachments: [bad, good] });
    fake.dispatch('MESSAGE_CREATE', m);
    const e = await eventFor(m.id);
    expect(e.text).toBe('two files');
    expect(e.attachments.map((a) => a.fileName)).toEqual(['ok.png']);
    const warn = logLines.find((l) => l.msg === 'discord message: malformed fields dropped' && l.messageId === m.id);
    expect(warn).toMatchObject({ fields: ['attachments[0]'] });
    expect(JSON.stringify(logLines)).not.toContain(fake.token);
  });
});
