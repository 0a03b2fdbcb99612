// Rooms on Discord (SPEC §8, seed 002): three agents share one guild channel and each speaks
// through the channel's webhook under its own name (DISCORD_PERSONAS=on), fed through the real
// discord.js gateway against the fake Discord and answered by the fake model. The same rules as
// on Telegram: round-robin order, a skip that never reaches the channel, the webhook posts'
// echoes neither stored again nor starting rounds, and an @mentioned agent that must answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { startFakeDiscord, type FakeDiscord, type ShownMessage } from '../doubles/fakeDiscord.js';
import { message, snowflake, webhookMessage } from '../fixtures/discordDispatches.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import type { Room, RoomRound } from '../../src/domain/room.js';
import type { Message } from '../../src/domain/model.js';

const WEBHOOK_EXECUTE = 'POST /webhooks/:id/:token';

describe('Discord: three personas in one channel through webhooks, same rules', () => {
  let h: Harness;
  let discord: FakeDiscord;
  let room: Room | undefined;
  const ids = { aria: 'agt_aria', bo: 'agt_bo', cy: 'agt_cy' };

  beforeAll(async () => {
    discord = await startFakeDiscord({ echo: true });
    h = await startHarness({
      DISCORD_BOT_TOKEN: discord.token,
      DISCORD_API_ROOT: discord.apiRoot,
      DISCORD_PERSONAS: 'on',
      EMBEDDINGS: 'offline',
    });
    const at = new Date();
    for (const [key, name] of [
      ['aria', 'Aria'],
      ['bo', 'Bo'],
      ['cy', 'Cy'],
    ] as const)
      await h.app.store.participants.createAgent(
        { _id: ids[key], name, basePersona: `You are ${name}, one of three friends in a hiking group.` },
        at,
      );
    // A guild text channel is the chat itself (adapters/discord/translate.ts: chatId = channel id, no thread).
    room = await createRoom(
      h.app.store,
      {
        chat: { platform: 'discord', chatId: discord.world.generalId },
        name: 'Hikers',
        mode: 'default',
        agentIds: [ids.aria, ids.bo, ids.cy],
      },
      new Date(),
    );
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await discord.close();
  });

  const theRoom = (): Room => {
    if (!room) throw new Error('the room was not created');
    return room;
  };
  const channel = () => discord.world.generalId;
  /** Alice types in #general (no Discord mention: the agents have no Discord accounts here). */
  const say = (content: string) => {
    const m = message(discord.world, 'guild', { content });
    discord.dispatch('MESSAGE_CREATE', m);
    return m;
  };
  const roundDone = (seq: number): Promise<RoomRound> =>
    eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${theRoom()._id}.r${seq}`);
        return r?.completed ? r : undefined;
      },
      40_000,
      `round ${seq} to complete`,
    );
  const personaPosts = (): ShownMessage[] => discord.messages(channel()).filter((m) => m.webhookId !== undefined);
  const dialogueMessages = async (): Promise<Message[]> =>
    (await h.app.store.c.messages.find({ dialogueId: theRoom().dialogueId }).toArray()).sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    );
  const executes = () =>
    discord
      .requestsTo(WEBHOOK_EXECUTE)
      .filter((c) => c.status === 200)
      .map((c) => c.body as { username?: string; content?: string });

  it('asks each agent in order; each speaks under its own name through the webhook, a skip stays invisible, echoes are ignored', async () => {
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria: ', 'the ridge trail!'] },
      { kind: 'tool_calls', calls: [{ name: 'skip_response', arguments: '{}' }] },
      { kind: 'reply', chunks: ['Cy: agreed, the ridge.'] },
    );
    const asked = say('Where should we hike on Saturday?');
    const round = await roundDone(1);
    expect(round.asked).toEqual([ids.aria, ids.bo, ids.cy]);
    expect(round.answers.map((a) => a.agentId)).toEqual([ids.aria, ids.cy]);
    expect(round.skips).toMatchObject([{ agentId: ids.bo, reason: 'chose' }]);
    expect(round.endedBy).toBe('queue_done');

    // The channel shows the question and exactly two posts, each under its agent's name, through our one webhook.
    await eventually(() => Promise.resolve(personaPosts().length >= 2 ? true : undefined), 20_000, 'two persona posts');
    const [hook, ...moreHooks] = discord.webhooksOf(channel());
    expect(hook).toBeDefined();
    expect(moreHooks).toEqual([]);
    expect(discord.messages(channel()).map((m) => [m.username, m.content, m.webhookId])).toEqual([
      [discord.world.alice.username, 'Where should we hike on Saturday?', undefined],
      ['Aria', 'Aria: the ridge trail!', hook!.id],
      ['Cy', 'Cy: agreed, the ridge.', hook!.id],
    ]);
    // Every webhook execution named its agent; Bo's skip never reached Discord, nor did anything post as the bot.
    expect(executes().map((b) => b.username)).toEqual(['Aria', 'Cy']);
    expect(executes().some((b) => b.username === 'Bo' || (b.content ?? '').includes('skipped'))).toBe(false);
    expect(discord.requestsTo('POST /channels/:id/messages')).toEqual([]);

    // The record: the question, then Aria, Bo's invisible skip and Cy, each answer tied to its webhook post.
    const stored = await dialogueMessages();
    expect(stored.map((m) => [m.senderRole, m.senderId, m.visible])).toEqual([
      ['human', expect.any(String), true],
      ['ai', ids.aria, true],
      ['ai', ids.bo, false],
      ['ai', ids.cy, true],
    ]);
    expect(stored[0]!.platformRef?.messageId).toBe(asked.id);
    const posts = personaPosts();
    expect(stored[1]!.delivery?.platformMessageIds).toEqual([posts[0]!.id]);
    expect(stored[3]!.delivery?.platformMessageIds).toEqual([posts[1]!.id]);

    // The fake echoed both webhook posts to the gateway as Discord does; give them time to arrive.
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await dialogueMessages()).length).toBe(4);
    expect((await h.app.store.rooms.get(theRoom()._id))?.roundSeq).toBe(1);
    expect(await h.app.store.rooms.getRound(`${theRoom()._id}.r2`)).toBeNull();

    // Even if such an echo reached the core (the adapter drops it first), it is our own post: ignored.
    const echo = await h.app.handleInbound({
      platform: 'discord',
      kind: 'message',
      chat: { chatId: channel(), kind: 'group', title: 'general' },
      platformMessageId: snowflake(),
      recipient: { userId: discord.world.bot.id, username: discord.world.bot.username },
      sender: {
        userId: hook!.id,
        isBot: true,
        username: 'Aria',
        webhookId: hook!.id,
        applicationId: discord.world.bot.id,
      },
      text: '@Bo what do you think?',
      attachments: [],
      mentions: [],
      sentAt: new Date(),
    });
    expect(echo).toEqual({ kind: 'ignored', reason: 'own_bot' });
    expect((await dialogueMessages()).length).toBe(4);
    expect((await h.app.store.rooms.get(theRoom()._id))?.roundSeq).toBe(1);
  }, 90_000);

  it('an @Cy in the text makes Cy answer first and alone: no skip offered (one called anyway refused), its answer ends the round', async () => {
    await roundDone(1); // this test continues the room of the one before
    const [hook] = discord.webhooksOf(channel());
    expect(hook).toBeDefined();
    const postsBefore = personaPosts().length;
    const executesBefore = executes().length;
    h.llm.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'skip_response', arguments: '{}' }] },
      { kind: 'reply', chunks: ['Cy: bring water and a jacket.'] },
    );
    // An echo of our webhook arriving from the gateway, shaped as Discord sends it, right before the
    // human's message: the channel's events reach the core in order, so it is handled first.
    const echo = webhookMessage(discord.world, 'guild', {
      webhookId: hook!.id,
      username: 'Aria',
      content: '@Bo echo that must not start a round',
    });
    discord.dispatch('MESSAGE_CREATE', echo);
    say('@Cy what should we pack?');
    const round = await roundDone(2);
    expect(round.asked).toEqual([ids.cy]);
    expect(round.mustAnswer).toEqual([ids.cy]);
    expect(round.answers.map((a) => a.agentId)).toEqual([ids.cy]);
    expect(round.skips).toEqual([]);
    expect(round.endedBy).toBe('mention_answered');
    // Cy's ask could not be skipped: the skip was not offered, and calling it anyway was refused.
    const ask = await h.app.store.turns.get(round.asks[0]!.turnId);
    expect(ask?.round?.canSkip).toBe(false);
    const offered = JSON.stringify(h.llm.requests.at(-2)!.body.tools ?? []);
    expect(offered).not.toContain('skip_response');
    const tool = await h.app.store.c.events.findOne({
      kind: 'tool_call',
      'data.name': 'skip_response',
      'data.ok': false,
    });
    expect(tool?.turnId).toBe(ask?._id);
    expect(String((tool?.data.error as { message: string }).message)).toContain('no tool named "skip_response"');

    // Only Cy spoke, under its name.
    await eventually(
      () =>
        Promise.resolve(personaPosts().some((m) => m.content === 'Cy: bring water and a jacket.') ? true : undefined),
      20_000,
      "Cy's post",
    );
    const newPosts = personaPosts()
      .slice(postsBefore)
      .filter((m) => m.id !== echo.id);
    expect(newPosts.map((m) => [m.username, m.content])).toEqual([['Cy', 'Cy: bring water and a jacket.']]);
    expect(
      executes()
        .slice(executesBefore)
        .map((b) => b.username),
    ).toEqual(['Cy']);

    // The echo was neither stored nor started a round; the record holds the two questions and four AI messages.
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.app.store.c.messages.countDocuments({ content: { $regex: 'echo that must not' } })).toBe(0);
    expect((await h.app.store.rooms.get(theRoom()._id))?.roundSeq).toBe(2);
    const stored = await dialogueMessages();
    expect(stored.map((m) => [m.senderRole, m.senderId, m.visible])).toEqual([
      ['human', expect.any(String), true],
      ['ai', ids.aria, true],
      ['ai', ids.bo, false],
      ['ai', ids.cy, true],
      ['human', expect.any(String), true],
      ['ai', ids.cy, true],
    ]);
    expect(stored[5]!.content).toBe('Cy: bring water and a jacket.');
  }, 90_000);
});
