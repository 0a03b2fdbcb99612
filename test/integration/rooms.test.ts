// Rooms through the real pipeline (SPEC §8, seed 002): a Telegram group with three agents and a
// human, fed through the real grammY bot against the fake Bot API, answered by the fake model.
// Round-robin order, a skip that stays invisible, @mention forcing, host mode, the timeout skip
// driven by the delayed job, and the refusals of the rules.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import { RedisReplyLease } from '../../jobs/replyLease.js';
import type { Room, RoomRound } from '../../src/domain/room.js';
import type { Message } from '../../src/domain/model.js';
import type { RoomMode } from '../../src/domain/roundRules.js';
import { GatewayError } from '../../src/errors.js';
import { createClient } from 'graphql-sse';
import { feedTopics } from '../../src/feed/changeFeed.js';
import { TEST_VIEWER_TOKEN } from '../support/testEnv.js';

const GROUP = PLACES.group.chatId;
const chat = { platform: 'telegram', chatId: String(GROUP) } as const;

describe('rooms: several agents in one Telegram group', () => {
  let h: Harness;
  let update = 0;
  const ids = { aria: 'agt_aria', bo: 'agt_bo', cy: 'agt_cy' };

  beforeEach(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline' });
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
  });
  afterEach(() => h.stop());

  const open = (mode: RoomMode = 'default'): Promise<Room> =>
    createRoom(h.app.store, { chat, name: 'Hikers', mode, agentIds: [ids.aria, ids.bo, ids.cy] }, new Date());

  const say = (text: string) => {
    update += 1;
    h.tg.pushUpdate(
      textUpdate({ updateId: 90_000 + update, place: PLACES.group, userId: 4242, firstName: 'Lin', text }),
    );
  };

  const roundDone = (room: Room, seq: number): Promise<RoomRound> =>
    eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${room._id}.r${seq}`);
        return r?.completed ? r : undefined;
      },
      20_000,
      `round ${seq} to complete`,
    );

  const aiMessages = async (): Promise<Message[]> =>
    (await h.app.store.c.messages.find({ dialogueId: room0()!.dialogueId, senderRole: 'ai' }).toArray()).sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    );
  let current: Room | undefined;
  const room0 = () => current;

  it('asks every agent in order; a skip is stored invisible and never reaches the group', async () => {
    current = await open();
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria here: ', 'the ridge trail!'] },
      { kind: 'tool_calls', calls: [{ name: 'skip_response', arguments: '{"reason":"nothing to add"}' }] },
      { kind: 'reply', chunks: ['Cy agrees with Aria.'] },
    );
    say('Where should we hike on Saturday?');
    const round = await roundDone(current, 1);
    expect(round.asked).toEqual([ids.aria, ids.bo, ids.cy]);
    expect(round.answers.map((a) => a.agentId)).toEqual([ids.aria, ids.cy]);
    expect(round.skips).toMatchObject([{ agentId: ids.bo, reason: 'chose' }]);
    expect(round.endedBy).toBe('queue_done');

    // The group saw two answers, in order; Bo's skip stayed off the platform.
    await eventually(
      () => Promise.resolve(h.tg.sentText(GROUP).length >= 2 ? true : undefined),
      5_000,
      'two answers shown',
    );
    expect(h.tg.sentText(GROUP)).toEqual(['Aria here: the ridge trail!', 'Cy agrees with Aria.']);
    const ai = await aiMessages();
    expect(ai.map((m) => [m.senderId, m.visible])).toEqual([
      [ids.aria, true],
      [ids.bo, false],
      [ids.cy, true],
    ]);
    // Cy answered the room as it stood: the human's question and Aria's answer, named.
    const cyPrompt = JSON.stringify(h.llm.requests.at(-1)!.body.messages);
    expect(cyPrompt).toContain('Where should we hike on Saturday?');
    expect(cyPrompt).toContain('the ridge trail!');
    expect(cyPrompt).toContain('Aria');
    expect(cyPrompt).not.toContain('nothing to add');

    // The room's record is what people saw: its export leaves the skip out.
    const exported = await h.gql<{ exportRoom: { content: string; messageCount: number; format: string } }>(
      'mutation($id: ID!) { exportRoom(id: $id, format: MARKDOWN) { content messageCount format } }',
      { id: current._id },
    );
    expect(exported.body.errors).toBeUndefined();
    const doc = exported.body.data!.exportRoom;
    expect(doc.format).toBe('MARKDOWN');
    expect(doc.content).toContain('the ridge trail!');
    expect(doc.content).toContain('Cy agrees with Aria.');
    expect(doc.content).not.toContain('[skipped');
    expect(doc.messageCount).toBe(3);
  });

  it('an agent that may skip streams once it is clearly answering', async () => {
    current = await open();
    const opening = 'Aria here, and I have a lot to say about this trail: '.repeat(4);
    h.llm.enqueue(
      { kind: 'reply', chunks: [opening, 'the end.'], chunkDelayMs: 1_500 },
      { kind: 'tool_calls', calls: [{ name: 'skip_response', arguments: '{}' }] },
      { kind: 'reply', chunks: ['Cy: short.'] },
    );
    say('Tell me about the trail.');
    // The group sees Aria's words before her reply is finished.
    await h.tg.waitFor((calls) => calls.some((c) => c.method === 'sendMessage'), 10_000);
    const first = h.tg.callsOf('sendMessage')[0]!.params as { text: string };
    expect(first.text.trim()).toBe(opening.trim());
    const round = await roundDone(current, 1);
    expect(h.tg.sentText(GROUP)[0]).toBe(`${opening}the end.`);
    expect(round.skips.map((s) => s.agentId)).toEqual([ids.bo]);
  });

  it('"@Cy @Aria …": each mentioned agent answers in mention order, is offered no skip and told it was addressed; the round ends after the last', async () => {
    current = await open();
    h.llm.enqueue({ kind: 'reply', chunks: ['Bring water.'] }, { kind: 'reply', chunks: ['And a warm layer.'] });
    say('@Cy @Aria what should we pack?');
    const round = await roundDone(current, 1);
    expect(round.asked).toEqual([ids.cy, ids.aria]);
    expect(round.mustAnswer).toEqual([ids.cy, ids.aria]);
    expect(round.endedBy).toBe('mention_answered');
    expect(round.skips).toEqual([]);
    const asks = h.llm.requests.slice(-2);
    for (const ask of asks) {
      const tools = (ask.body.tools ?? []).map((t) => JSON.stringify(t));
      expect(tools.some((t) => t.includes('skip_response'))).toBe(false);
      expect(JSON.stringify(ask.body.messages)).toContain('You were @mentioned in this room');
    }
    expect(h.tg.sentText(GROUP)).toEqual(['Bring water.', 'And a warm layer.']);
  });

  it('host mode: the host is asked, then exactly the agents it @mentions, who all answer', async () => {
    current = await open('host');
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Good question. @Bo and @Cy, your picks?'] },
      { kind: 'reply', chunks: ['Bo picks the lake.'] },
      { kind: 'reply', chunks: ['Cy picks the ridge.'] },
    );
    say('Plan our hike, please.');
    const round = await roundDone(current, 1);
    expect(round.asked).toEqual([ids.aria, ids.bo, ids.cy]);
    expect(round.mustAnswer).toEqual([ids.aria, ids.bo, ids.cy]);
    expect(round.endedBy).toBe('mentions_answered');
    expect(h.tg.sentText(GROUP)).toEqual([
      'Good question. @Bo and @Cy, your picks?',
      'Bo picks the lake.',
      'Cy picks the ridge.',
    ]);
  });

  it('an agent that does not answer in time is skipped by the delayed job, invisibly', async () => {
    await h.app.store.config.update({ thresholds: { room_answer_timeout_seconds: 5 } }, new Date());
    current = await open();
    // Another reply of this room holds the floor, so Aria's ask cannot start in time.
    const redis = new Redis(h.env.REDIS_URL, { maxRetriesPerRequest: null });
    const lock = new RedisReplyLease(redis, h.env.QUEUE_PREFIX, 30_000);
    const release = (await lock.acquire(current.dialogueId))!;
    h.llm.enqueue({ kind: 'reply', chunks: ['Bo here.'] }, { kind: 'reply', chunks: ['Cy here.'] });
    say('Anyone up for Sunday?');
    const skippedAria = await eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${current!._id}.r1`);
        return r?.skips.length ? r : undefined;
      },
      15_000,
      'the timeout skip',
    );
    expect(skippedAria.skips).toMatchObject([{ agentId: ids.aria, reason: 'timeout' }]);
    await release();
    const round = await roundDone(current, 1);
    expect(round.answers.map((a) => a.agentId)).toEqual([ids.bo, ids.cy]);
    expect(h.tg.sentText(GROUP)).toEqual(['Bo here.', 'Cy here.']);
    const ai = await aiMessages();
    expect(ai.filter((m) => m.senderId === ids.aria).map((m) => [m.visible, m.content])).toEqual([
      [false, '[skipped: no answer in time]'],
    ]);
    // Aria's ask closed unanswered; its late job did not speak.
    const ariaTurn = await h.app.store.turns.get(round.asks[0]!.turnId);
    expect(ariaTurn?.status).toBe('unresponded');
    await redis.quit();
  }, 40_000);

  it("an agent whose model hangs is stopped at the room's deadline: skipped invisibly, the next agent asked at once", async () => {
    current = await open();
    // The room's own deadline (seed 002 sets it per room) wins over the deployment's 180 s.
    const setDeadline = (seconds: number) =>
      h.gql<{ updateRoom: { answerTimeoutSeconds: number | null } }>(
        'mutation($id: ID!, $s: Int) { updateRoom(id: $id, answerTimeoutSeconds: $s) { answerTimeoutSeconds } }',
        { id: current!._id, s: seconds },
      );
    for (const bad of [0, 3_601])
      expect((await setDeadline(bad)).body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect((await setDeadline(5)).body.data?.updateRoom.answerTimeoutSeconds).toBe(5);
    h.llm.enqueue({ kind: 'hang' }, { kind: 'reply', chunks: ['Bo here.'] }, { kind: 'reply', chunks: ['Cy here.'] });
    say('Anyone up for Sunday?');
    const round = await roundDone(current, 1);
    expect(round.skips).toMatchObject([{ agentId: ids.aria, reason: 'timeout' }]);
    expect(round.answers.map((a) => a.agentId)).toEqual([ids.bo, ids.cy]);
    // Nothing of Aria's reached the group: no text, no notice.
    expect(h.tg.sentText(GROUP)).toEqual(['Bo here.', 'Cy here.']);
    const aria = (await aiMessages()).filter((m) => m.senderId === ids.aria);
    expect(aria.map((m) => [m.visible, m.content, m.delivery?.state])).toEqual([
      [false, '[skipped: no answer in time]', 'timeout'],
    ]);
    // Bo was asked within a second of Aria's deadline.
    const asked = await h.app.store.c.events
      .find({ kind: 'floor', 'data.decision': 'asked', 'data.roundId': round._id })
      .toArray();
    const due = new Date(String(asked.find((e) => e.data.agentId === ids.aria)?.data.dueAt)).getTime();
    const boAsked = asked.find((e) => e.data.agentId === ids.bo)!.at.getTime();
    expect(boAsked - due).toBeLessThan(1_000);
    expect(boAsked - due).toBeGreaterThanOrEqual(0);
  }, 40_000);

  it('where people only watch, the agents talk among themselves and stop at the round budget', async () => {
    await h.app.store.config.update({ thresholds: { room_auto_rounds: 2 } }, new Date());
    current = await createRoom(
      h.app.store,
      { chat, name: 'Debate', mode: 'default', agentIds: [ids.aria, ids.bo, ids.cy], userParticipation: false },
      new Date(),
    );
    for (let i = 1; i <= 6; i++) h.llm.enqueue({ kind: 'reply', chunks: [`point ${i}`] });
    say('Debate: mountains or sea?');
    const second = await roundDone(current, 2);
    expect(second.chainRound).toBe(2);
    expect(second.triggerSenderRole).toBe('ai');
    // Round 2 answered what round 1 ended with.
    const first = await roundDone(current, 1);
    expect(second.triggerMessageId).toBe(first.answers.at(-1)!.messageId);
    // The budget holds: no third round, six answers in all, and the room is quiet.
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.app.store.rooms.getRound(`${current._id}.r3`)).toBeNull();
    expect(h.tg.sentText(GROUP)).toEqual(['point 1', 'point 2', 'point 3', 'point 4', 'point 5', 'point 6']);
    expect((await h.app.store.rooms.get(current._id))?.roundSeq).toBe(2);
  });

  it('where people only watch, the agents also stop at the token budget, and the trace says why', async () => {
    await h.app.store.config.update(
      { thresholds: { room_auto_rounds: 20 }, limits: { room_auto_tokens: 1_000 } },
      new Date(),
    );
    current = await createRoom(
      h.app.store,
      { chat, name: 'Budget', mode: 'default', agentIds: [ids.aria, ids.bo, ids.cy], userParticipation: false },
      new Date(),
    );
    say('Talk among yourselves about hiking.');
    const stopped = await eventually(
      async () =>
        (await h.app.store.c.events.findOne({ kind: 'floor', 'data.decision': 'chain_stopped' })) ?? undefined,
      30_000,
      'the chain to stop',
    );
    expect(stopped.data).toMatchObject({ why: 'tokens' });
    expect(Number(stopped.data.tokens)).toBeGreaterThanOrEqual(1_000);
    // The operator's home page names it as an incident, linked to the turn it stopped after.
    const health = await h.gql<{
      health: { incidents: Array<{ kind: string; turnId: string | null; message: string }> };
    }>('{ health { incidents { kind turnId message } } }');
    const incident = health.body.data?.health.incidents.find((i) => i.kind === 'room_budget_stop');
    expect(incident?.turnId).toBe(stopped.turnId);
    expect(incident?.message).toContain('tokens budget');
    const room = (await h.app.store.rooms.get(current._id))!;
    expect(room.roundSeq).toBeLessThan(20);
    // The last round's spending was counted on it; no round started after the stop.
    const last = (await h.app.store.rooms.getRound(`${current._id}.r${room.roundSeq}`))!;
    expect(last.completed).toBe(true);
    expect((last.chainTokens ?? 0) + (last.tokens ?? 0)).toBeGreaterThanOrEqual(1_000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await h.app.store.rooms.get(current._id))?.roundSeq).toBe(room.roundSeq);
  });

  it('/room in a group that is no room yet tells the operator the chat id createRoom needs', async () => {
    say('/room');
    const told = await eventually(
      () => Promise.resolve(h.tg.sentText(GROUP).find((t) => t.includes('createRoom'))),
      10_000,
      'the /room answer',
    );
    expect(told).toContain(`chatId: "${GROUP}"`);
    expect(told).toContain('platform: telegram');
  });

  it('/room shows the floor, /pause stops new rounds, /resume lets them start again', async () => {
    current = await open();
    h.llm.enqueue({ kind: 'reply', chunks: ['Aria: hi'] }, { kind: 'reply', chunks: ['Bo: hi'] });
    say('/pause');
    await eventually(
      async () => ((await h.app.store.rooms.get(current!._id))?.status === 'paused' ? true : undefined),
      5_000,
      'paused',
    );
    say('Is anyone there?');
    say('/room');
    await eventually(
      () => Promise.resolve(h.tg.sentText(GROUP).some((t) => t.includes('Members: Aria, Bo, Cy')) || undefined),
      5_000,
      '/room answered',
    );
    const status = h.tg.sentText(GROUP).find((t) => t.includes('Members:'))!;
    expect(status).toContain('paused');
    expect(status).toContain('No round in progress');
    expect((await h.app.store.rooms.get(current._id))?.roundSeq).toBe(0); // the paused room asked nobody
    say('/resume');
    await eventually(
      async () => ((await h.app.store.rooms.get(current!._id))?.status === 'active' ? true : undefined),
      5_000,
      'resumed',
    );
    h.llm.enqueue({ kind: 'reply', chunks: ['Cy: hi'] });
    say('Hello again');
    const round = await roundDone(current, 1);
    expect(round.answers).toHaveLength(3);
  });

  it('the API creates agents and rooms, shows rounds, and never returns a bot token', async () => {
    const created = await h.gql<{ createAgent: { id: string; name: string } }>(
      'mutation { createAgent(name: "Dee", basePersona: "You are Dee.") { id name } }',
    );
    const dee = created.body.data!.createAgent.id;
    const room = await h.gql<{ createRoom: { id: string; members: Array<{ id: string; isHost: boolean }> } }>(
      `mutation($input: CreateRoomInput!) { createRoom(input: $input) { id members { id isHost } } }`,
      {
        input: {
          platform: 'telegram',
          chatId: String(GROUP),
          name: 'Api room',
          mode: 'HOST',
          agentIds: [ids.bo, dee],
          hostId: dee,
          password: 'let-me-in',
        },
      },
    );
    expect(room.body.errors).toBeUndefined();
    expect(room.body.data!.createRoom.members).toEqual([
      { id: ids.bo, isHost: false },
      { id: dee, isHost: true },
    ]);
    const stored = await h.app.store.rooms.get(room.body.data!.createRoom.id);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain('let-me-in');

    const bad = await h.gql(
      'mutation { setAgentBot(agentId: "agt_bo", platform: telegram, token: "nope") { userId } }',
    );
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(bad)).not.toContain('nope"');
    const unknown = await h.gql('{ room(id: "room_nope") { id } }');
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('ROOM_NOT_FOUND');
    const dup = await h.gql(
      `mutation { createRoom(input: {platform: telegram, chatId: "${GROUP}", name: "Again", mode: DEFAULT, agentIds: ["${ids.bo}"]}) { id } }`,
    );
    expect(dup.body.errors?.[0]?.extensions?.code).toBe('ROOM_EXISTS');

    const roomId = room.body.data!.createRoom.id;
    const grown = await h.gql<{ addRoomMember: { members: Array<{ id: string }> } }>(
      'mutation($r: ID!, $a: ID!) { addRoomMember(id: $r, agentId: $a) { members { id } } }',
      { r: roomId, a: ids.cy },
    );
    expect(grown.body.data!.addRoomMember.members.map((m) => m.id)).toEqual([ids.bo, dee, ids.cy]);
    const renamed = await h.gql<{ updateRoom: { name: string; mode: string; userParticipation: boolean } }>(
      'mutation($r: ID!) { updateRoom(id: $r, name: "Renamed", mode: DEFAULT, userParticipation: false) { name mode userParticipation } }',
      { r: roomId },
    );
    expect(renamed.body.data!.updateRoom).toEqual({ name: 'Renamed', mode: 'DEFAULT', userParticipation: false });
    const blank = await h.gql('mutation($r: ID!) { updateRoom(id: $r, name: "  ") { name } }', { r: roomId });
    expect(blank.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const rounds = await h.gql<{ room: { rounds: unknown[]; currentRound: unknown } }>(
      'query($r: ID!) { room(id: $r) { rounds { id } currentRound { id } } }',
      { r: roomId },
    );
    expect(rounds.body.data!.room).toEqual({ rounds: [], currentRound: null });
    // One human with several of their own agents: a lio_group dialogue.
    const lio = await createRoom(
      h.app.store,
      {
        chat: { platform: 'telegram', chatId: '-424242' },
        name: 'Mine',
        mode: 'default',
        agentIds: [ids.aria, ids.bo],
        lio: true,
      },
      new Date(),
    );
    expect((await h.app.store.dialogues.get(lio.dialogueId))?.type).toBe('lio_group');
  });

  it('roomEvents streams seed 002 events: round_start, agent_turn per ask, new messages, round_end', async () => {
    current = await open();
    const client = createClient({
      url: `${h.app.apiUrl}/graphql`,
      headers: { authorization: `Bearer ${TEST_VIEWER_TOKEN}` },
      singleConnection: false,
      retryAttempts: 0,
    });
    const got: Array<{ type: string; agentId: string | null; message: { content: string } | null }> = [];
    client.subscribe<{ roomEvents: (typeof got)[number] }>(
      {
        query: 'subscription($r: ID!) { roomEvents(roomId: $r) { type agentId message { content } } }',
        variables: { r: current._id },
      },
      { next: (r) => void (r.data && got.push(r.data.roomEvents)), error: () => {}, complete: () => {} },
    );
    const redis = new Redis(h.env.REDIS_URL);
    const channel = `${feedTopics(h.env.QUEUE_PREFIX).events}:${current.dialogueId}`;
    await eventually(
      async () => (Number(((await redis.pubsub('NUMSUB', channel)) as [string, number])[1]) > 0 ? true : undefined),
      5_000,
      'the subscription listening',
    );
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria: yes'] },
      { kind: 'tool_calls', calls: [{ name: 'skip_response', arguments: '{}' }] },
      { kind: 'reply', chunks: ['Cy: yes'] },
    );
    say('Coming on Sunday?');
    await roundDone(current, 1);
    await eventually(() => Promise.resolve(got.some((e) => e.type === 'round_end') || undefined), 5_000, 'round_end');
    expect(got.filter((e) => e.type === 'agent_turn').map((e) => e.agentId)).toEqual([ids.aria, ids.bo, ids.cy]);
    expect(got.filter((e) => e.type === 'round_start')).toHaveLength(1);
    const said = got.filter((e) => e.type === 'message_new').map((e) => e.message?.content);
    expect(said).toEqual(expect.arrayContaining(['Coming on Sunday?', '']));
    // Bo's skip is invisible: never an event.
    expect(got.some((e) => e.message?.content.startsWith('[skipped'))).toBe(false);
    expect(got.at(-1)?.type).toBe('round_end');
    client.dispose();
    await redis.quit();
  });

  it('refuses a second room in the same chat, unknown agents and a host who is not a member', async () => {
    current = await open();
    await expect(open()).rejects.toMatchObject({ code: 'ROOM_EXISTS' });
    const other = { platform: 'telegram', chatId: '-777' } as const;
    await expect(
      createRoom(h.app.store, { chat: other, name: 'X', mode: 'default', agentIds: ['agt_nobody'] }, new Date()),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      createRoom(
        h.app.store,
        { chat: other, name: 'X', mode: 'host', agentIds: [ids.bo], hostId: ids.aria },
        new Date(),
      ),
    ).rejects.toBeInstanceOf(GatewayError);
    expect(await h.app.store.rooms.get('room_unknown')).toBeNull();
  });
});
