// The fake Discord behaves like Discord where it matters to us: rate-limit headers and 429
// bodies, intents (no message content without MESSAGE_CONTENT, no DMs without DIRECT_MESSAGES,
// privileged intents refused unless enabled), and a bad token refused — and DiscordGateway
// reports the last two at start instead of hanging.
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, Partials, type Message } from 'discord.js';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscordGateway } from '../../adapters/discord/gateway.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import { mentioningUser, message } from '../fixtures/discordDispatches.js';
import { eventually } from '../support/testEnv.js';

const silent = pino({ level: 'silent' });
let fake: FakeDiscord | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.destroy();
  client = undefined;
  await fake?.close();
  fake = undefined;
});

describe('fake Discord REST', () => {
  it('advertises its buckets and answers 429 with retry_after like Discord', async () => {
    fake = await startFakeDiscord({ limits: { messageCreate: { limit: 2, windowMs: 10_000 } } });
    const post = () =>
      fetch(`${fake?.apiRoot}/v10/channels/${fake?.world.generalId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${fake?.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
    expect(first.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]+$/);
    expect((await post()).headers.get('x-ratelimit-remaining')).toBe('0');
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await limited.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(10);
    expect(fake.rateLimited).toHaveLength(1);
    expect(fake.messages(fake.world.generalId)).toHaveLength(2);

    const unauthorized = await fetch(`${fake.apiRoot}/v10/users/@me`);
    expect(unauthorized.status).toBe(401);
  });
});

describe('fake Discord gateway intents', () => {
  async function connect(
    intents: GatewayIntentBits[],
  ): Promise<{ fake: FakeDiscord; client: Client; seen: Message[] }> {
    fake = await startFakeDiscord();
    client = new Client({ intents, partials: [Partials.Channel, Partials.Message], rest: { api: fake.apiRoot } });
    const seen: Message[] = [];
    client.on(Events.MessageCreate, (m) => void seen.push(m));
    const ready = once(client, Events.ClientReady);
    await client.login(fake.token);
    await ready;
    return { fake, client, seen };
  }

  it('without MESSAGE_CONTENT, guild messages arrive empty unless they mention the bot; DMs keep their text', async () => {
    const { fake: f, seen } = await connect([
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
    ]);
    const w = f.world;
    const plain = message(w, 'guild', { content: 'hidden from you' });
    const mention = mentioningUser(message(w, 'guild'), w.bot, '@@ you can read this');
    const dm = message(w, 'dm', { content: 'a DM is always readable' });
    for (const m of [plain, mention, dm]) f.dispatch('MESSAGE_CREATE', m);
    await eventually(async () => Promise.resolve(seen.length === 3));
    expect(seen.map((m) => m.content)).toEqual(['', `<@${w.bot.id}> you can read this`, 'a DM is always readable']);
  });

  it('without DIRECT_MESSAGES, DMs never arrive', async () => {
    const { fake: f, seen } = await connect([
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
    ]);
    f.dispatch('MESSAGE_CREATE', message(f.world, 'dm', { content: 'anyone?' }));
    const after = message(f.world, 'guild', { content: 'guild message' });
    f.dispatch('MESSAGE_CREATE', after);
    await eventually(async () => Promise.resolve(seen.some((m) => m.id === after.id)));
    expect(seen.map((m) => m.content)).toEqual(['guild message']);
  });
});

describe('DiscordGateway start failures', () => {
  it('rejects when the application has not enabled the MESSAGE_CONTENT intent', async () => {
    fake = await startFakeDiscord({ privilegedIntents: 0 });
    const gateway = new DiscordGateway({
      token: fake.token,
      apiRoot: fake.apiRoot,
      log: silent,
      onInbound: () => Promise.resolve(),
    });
    client = gateway.client;
    await expect(gateway.start()).rejects.toThrow(/intent/i);
  });

  it('rejects a wrong token', async () => {
    fake = await startFakeDiscord();
    const gateway = new DiscordGateway({
      token: 'MTAwMDAwMDAwMDAwMDAwMDAw.Gwrong.wrong-token-wrong-token-wrong-token',
      apiRoot: fake.apiRoot,
      log: silent,
      onInbound: () => Promise.resolve(),
    });
    client = gateway.client;
    await expect(gateway.start()).rejects.toThrow(/token/i);
  });
});
