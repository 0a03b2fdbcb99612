// Any agent reachable in a private chat (issue 36): a DM to an agent's own Telegram bot is
// answered by that agent, through its bot, in a dialogue of its own; in the deployment bot's DM
// (Telegram and Discord) `/agents` lists whom one can talk to and `/agent NAME` switches, each
// agent keeping its own thread. Bad input — an unknown name, `/agent` in a group — is answered
// plainly and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_BOT_TOKEN } from '../support/testEnv.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import { message } from '../fixtures/discordDispatches.js';
import { dialogueIdOf } from '../../src/store/dialogues.js';

const ARIA_TOKEN = '700000201:ARIA-dm-token_abcdefghijklmnopqrstu';
const BO_TOKEN = '700000202:BO-dm-token_abcdefghijklmnopqrstuvw';
const RAINBOW_TOKEN = '700000203:RAINBOW-dm-token_abcdefghijklmnopqr';
const BOTS = {
  [ARIA_TOKEN]: { id: 700_000_201, first_name: 'Aria', username: 'aria_dm_bot' },
  [BO_TOKEN]: { id: 700_000_202, first_name: 'Bo', username: 'bo_dm_bot' },
  [RAINBOW_TOKEN]: { id: 700_000_203, first_name: 'Rainbow', username: 'rainbow_dm_bot' },
};
const LIN = 5151;

/** The system prompt of the model's latest chat request. */
const lastSystemPrompt = (h: Harness): string => JSON.stringify(h.llm.requests.at(-1)?.body.messages[0] ?? {});

async function createAgent(h: Harness, name: string, token?: string): Promise<string> {
  const made = await h.gql<{ createAgent: { id: string } }>(
    'mutation($n: String!, $p: String!) { createAgent(name: $n, basePersona: $p) { id } }',
    { n: name, p: `You are ${name}, persona-${name.toLowerCase()}.` },
  );
  const id = made.body.data!.createAgent.id;
  if (token)
    await h.gql(
      'mutation($a: ID!, $t: String!) { setAgentBot(agentId: $a, platform: telegram, token: $t) { userId } }',
      {
        a: id,
        t: token,
      },
    );
  return id;
}

describe('private chats with agents on Telegram', () => {
  let h: Harness;
  const ids = { aria: '', bo: '' };
  let update = 9_000;
  /** Lin writes to the deployment's bot (or, with `token`, to that bot only); ids leave room for the bots' answers. */
  const say = (text: string, o: { token?: string; place?: typeof PLACES.group } = {}) =>
    h.tg.pushUpdate(
      textUpdate({
        updateId: ++update,
        messageId: update * 10,
        userId: LIN,
        firstName: 'Lin',
        languageCode: 'zh-hans',
        text,
        ...(o.place ? { place: o.place } : {}),
      }),
      { tokens: [o.token ?? TEST_BOT_TOKEN] },
    );
  /** What `token`'s bot has sent to Lin, newest last. */
  const sentToLin = (token: string) =>
    h.tg
      .sentBy(LIN)
      .filter((s) => s.token === token)
      .map((s) => s.text);
  const answered = (token: string, n: number) =>
    eventually(
      () => Promise.resolve(sentToLin(token).length >= n ? sentToLin(token) : undefined),
      20_000,
      `${n} messages from ${token.slice(0, 9)}`,
    );

  beforeAll(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline', AGENT_BOTS_REFRESH_MS: '200' }, ['gateway', 'worker', 'api'], {
      telegram: { bots: BOTS },
    });
    ids.aria = await createAgent(h, 'Aria', ARIA_TOKEN);
    ids.bo = await createAgent(h, 'Bo', BO_TOKEN);
    await eventually(
      () =>
        Promise.resolve(
          [ARIA_TOKEN, BO_TOKEN].every((t) => h.tg.calls.some((c) => c.token === t && c.method === 'getUpdates')) ||
            undefined,
        ),
      10_000,
      'agent bots polling',
    );
  }, 60_000);
  afterAll(() => h.stop());

  it("answers the deployment bot's private chat through that bot even when its agent has a bot of its own", async () => {
    await h.gql(
      'mutation($t: String!) { setAgentBot(agentId: "agt_default", platform: telegram, token: $t) { userId } }',
      {
        t: RAINBOW_TOKEN,
      },
    );
    await eventually(
      () =>
        Promise.resolve(h.tg.calls.some((c) => c.token === RAINBOW_TOKEN && c.method === 'getUpdates') || undefined),
      10_000,
      "the default agent's bot polling",
    );
    // First in this file: no agent's channel is cached yet, so the new token is what is read.
    const before = h.tg.sentBy(LIN + 1).length;
    h.llm.enqueue({ kind: 'reply', chunks: ['Still the deployment bot.'] });
    h.tg.pushUpdate(textUpdate({ updateId: ++update, userId: LIN + 1, firstName: 'Mo', text: 'hi there' }), {
      tokens: [TEST_BOT_TOKEN],
    });
    const sent = await eventually(
      () => Promise.resolve(h.tg.sentBy(LIN + 1).length > before ? h.tg.sentBy(LIN + 1) : undefined),
      20_000,
      'the answer to Mo',
    );
    expect(sent.map((m) => [m.token, m.text])).toEqual([[TEST_BOT_TOKEN, 'Still the deployment bot.']]);
  }, 60_000);

  it("answers a DM to an agent's own bot as that agent, through that bot, in a dialogue of its own", async () => {
    h.llm.enqueue({ kind: 'reply', chunks: ['Aria here, hello Lin.'] });
    say('hi Aria', { token: ARIA_TOKEN });
    expect(await answered(ARIA_TOKEN, 1)).toEqual(['Aria here, hello Lin.']);
    expect(lastSystemPrompt(h)).toContain('persona-aria');
    expect(sentToLin(TEST_BOT_TOKEN)).toEqual([]);
    const dialogue = await h.app.store.dialogues.get(
      dialogueIdOf({ platform: 'telegram', chatId: String(LIN), bot: ids.aria }),
    );
    expect(dialogue?.agentIds).toEqual([ids.aria]);

    // Telegram numbers a private chat's messages per bot: message 1 to the deployment's bot is
    // another message than message 1 to Aria's, and the default agent answers it.
    h.llm.enqueue({ kind: 'reply', chunks: ['Default agent here.'] });
    h.tg.pushUpdate(textUpdate({ updateId: ++update, messageId: 1, userId: LIN, firstName: 'Lin', text: 'hello' }), {
      tokens: [TEST_BOT_TOKEN],
    });
    expect(await answered(TEST_BOT_TOKEN, 1)).toEqual(['Default agent here.']);
    h.llm.enqueue({ kind: 'reply', chunks: ['Aria again.'] });
    h.tg.pushUpdate(textUpdate({ updateId: ++update, messageId: 1, userId: LIN, firstName: 'Lin', text: 'and you?' }), {
      tokens: [ARIA_TOKEN],
    });
    expect((await answered(ARIA_TOKEN, 2)).at(-1)).toBe('Aria again.');
    expect(lastSystemPrompt(h)).toContain('persona-aria');
    const ariaDm = dialogueIdOf({ platform: 'telegram', chatId: String(LIN), bot: ids.aria });
    const humans = await h.app.store.c.messages.find({ dialogueId: ariaDm, senderRole: 'human' }).toArray();
    expect(humans.map((m) => m.content).sort()).toEqual(['and you?', 'hi Aria']);
    // The agent's own bot lists no agent switching.
    const menu = h.tg.commandsFor('', ARIA_TOKEN) as Array<{ command: string }>;
    expect(menu.map((c) => c.command)).not.toContain('agents');
  }, 60_000);

  it('lists the agents, switches to one by name, answers an unknown name plainly, and switches back', async () => {
    const before = sentToLin(TEST_BOT_TOKEN).length;
    say('/agents');
    const [list] = (await answered(TEST_BOT_TOKEN, before + 1)).slice(before);
    expect(list).toMatch(/1\. .+\n2\. Aria\n3\. Bo/);

    say('/agent Nobody');
    const [unknown] = (await answered(TEST_BOT_TOKEN, before + 2)).slice(before + 1);
    expect(unknown).toContain('没有叫「Nobody」的角色');
    expect(unknown).toContain('Aria、Bo');

    say('/agent bo');
    const [switched] = (await answered(TEST_BOT_TOKEN, before + 3)).slice(before + 2);
    expect(switched).toBe('好的，现在和你聊天的是 Bo。');
    h.llm.enqueue({ kind: 'reply', chunks: ['Bo speaking.'] });
    say('who are you?');
    // Bo answers in the deployment's chat, through the deployment's bot (not Bo's own).
    expect((await answered(TEST_BOT_TOKEN, before + 4)).at(-1)).toBe('Bo speaking.');
    expect(lastSystemPrompt(h)).toContain('persona-bo');
    expect(lastSystemPrompt(h)).not.toContain('Default agent here.');
    expect(sentToLin(BO_TOKEN)).toEqual([]);
    const boChat = dialogueIdOf({ platform: 'telegram', chatId: String(LIN), agentId: ids.bo });
    expect((await h.app.store.dialogues.get(boChat))?.agentIds).toEqual([ids.bo]);

    // Back to the default agent, by its number: its own thread is there again.
    say('/agent 1');
    await answered(TEST_BOT_TOKEN, before + 5);
    h.llm.enqueue({ kind: 'reply', chunks: ['Back with you.'] });
    say('remember me?');
    expect((await answered(TEST_BOT_TOKEN, before + 6)).at(-1)).toBe('Back with you.');
    const prompt = JSON.stringify(h.llm.requests.at(-1)?.body.messages);
    expect(prompt).toContain('Default agent here.');
    expect(prompt).not.toContain('Bo speaking.');
  }, 60_000);

  it('answers /agent in a group plainly and changes nothing', async () => {
    say('/agent Bo', { place: PLACES.group });
    const notice = await eventually(
      () => Promise.resolve(h.tg.sentBy(PLACES.group.chatId).at(-1)?.text),
      10_000,
      'the group notice',
    );
    expect(notice).toContain('私聊');
    const group = await h.app.store.dialogues.get(
      dialogueIdOf({ platform: 'telegram', chatId: String(PLACES.group.chatId) }),
    );
    expect(group?.settings?.chosenAgentId).toBeUndefined();
  }, 30_000);
});

describe('private chats with agents on Discord', () => {
  let h: Harness;
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord({ echo: true });
    h = await startHarness({
      EMBEDDINGS: 'offline',
      TELEGRAM_BOT_TOKEN: '',
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_ROOT: discord.apiRoot,
    });
    await createAgent(h, 'Cedar');
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await discord.close();
  });

  const botMessages = () =>
    discord
      .messages(discord.world.dmId)
      .filter((m) => m.bot)
      .map((m) => m.content);
  const botSaid = (n: number) =>
    eventually(
      () => Promise.resolve(botMessages().length >= n ? botMessages() : undefined),
      20_000,
      `${n} bot messages`,
    );

  it('switches the DM to another agent with /agent and lists them with /agents', async () => {
    const w = discord.world;
    discord.dispatch('MESSAGE_CREATE', message(w, 'dm', { content: '/agents' }));
    expect((await botSaid(1)).at(-1)).toMatch(/2\. Cedar/);
    discord.dispatch('MESSAGE_CREATE', message(w, 'dm', { content: '/agent Cedar' }));
    expect((await botSaid(2)).at(-1)).toBe('Okay, you are now talking to Cedar.');
    h.llm.enqueue({ kind: 'reply', chunks: ['Cedar answers.'] });
    discord.dispatch('MESSAGE_CREATE', message(w, 'dm', { content: 'hello?' }));
    expect((await botSaid(3)).at(-1)).toBe('Cedar answers.');
    expect(lastSystemPrompt(h)).toContain('persona-cedar');
  }, 60_000);
});
