// Each agent of a room posts through its own Telegram bot (SPEC §8): tokens registered through
// the API (checked with getMe, never returned), one polling bot per token, the same group
// message delivered to every bot stored once and answered by one round, each answer sent by
// the answering agent's bot, and Bot API 10 bot-to-bot echoes of those answers recognised as
// the room's own (never stored twice, never starting a round).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';

const GROUP = PLACES.group.chatId;
const TOKENS = {
  aria: '700000101:ARIA-bot-token_abcdefghijklmnopqrstu',
  bo: '700000102:BO-bot-token_abcdefghijklmnopqrstuvw',
  cy: '700000103:CY-bot-token_abcdefghijklmnopqrstuvw',
};
const BOTS = {
  [TOKENS.aria]: { id: 700_000_101, first_name: 'Aria', username: 'aria_room_bot' },
  [TOKENS.bo]: { id: 700_000_102, first_name: 'Bo', username: 'bo_room_bot' },
  [TOKENS.cy]: { id: 700_000_103, first_name: 'Cy', username: 'cy_room_bot' },
};

describe('rooms: every agent posts through its own bot', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline', AGENT_BOTS_REFRESH_MS: '200' }, ['gateway', 'worker', 'api'], {
      telegram: { bots: BOTS, botToBot: true },
    });
  });
  afterEach(() => h.stop());

  it('stores a message all bots receive once, answers it in one round, each agent by its own bot', async () => {
    const agentIds: Record<keyof typeof TOKENS, string> = { aria: '', bo: '', cy: '' };
    for (const key of ['aria', 'bo', 'cy'] as const) {
      const name = BOTS[TOKENS[key]]!.first_name;
      const made = await h.gql<{ createAgent: { id: string } }>(
        'mutation($n: String!, $p: String!) { createAgent(name: $n, basePersona: $p) { id } }',
        { n: name, p: `You are ${name}.` },
      );
      agentIds[key] = made.body.data!.createAgent.id;
      const bound = await h.gql<{ setAgentBot: { userId: string; username: string } }>(
        'mutation($a: ID!, $t: String!) { setAgentBot(agentId: $a, platform: telegram, token: $t) { userId username } }',
        { a: agentIds[key], t: TOKENS[key] },
      );
      expect(bound.body.data!.setAgentBot).toEqual({
        userId: String(BOTS[TOKENS[key]]!.id),
        username: BOTS[TOKENS[key]]!.username,
      });
      expect(JSON.stringify(bound.body)).not.toContain(TOKENS[key]);
    }
    const room = await createRoom(
      h.app.store,
      {
        chat: { platform: 'telegram', chatId: String(GROUP) },
        name: 'Bots',
        mode: 'default',
        agentIds: [agentIds.aria, agentIds.bo, agentIds.cy],
      },
      new Date(),
    );
    // Every agent bot is polling before the human speaks (the gateway looks for new tokens).
    await eventually(
      () =>
        Promise.resolve(
          Object.values(TOKENS).every((t) => h.tg.calls.some((c) => c.token === t && c.method === 'getUpdates')) ||
            undefined,
        ),
      10_000,
      'agent bots polling',
    );

    h.llm.enqueue(
      { kind: 'reply', chunks: ['Aria: the lake.'] },
      { kind: 'reply', chunks: ['Bo: the ridge.'] },
      { kind: 'reply', chunks: ['Cy: both!'] },
    );
    h.tg.pushUpdate(
      textUpdate({ updateId: 5_001, place: PLACES.group, userId: 4242, firstName: 'Lin', text: 'Lake or ridge?' }),
    );
    const round = await eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${room._id}.r1`);
        return r?.completed ? r : undefined;
      },
      30_000,
      'the round',
    );
    expect(round.answers.map((a) => a.agentId)).toEqual([agentIds.aria, agentIds.bo, agentIds.cy]);
    // Each answer went out through its agent's own bot, none through the deployment's.
    await eventually(() => Promise.resolve(h.tg.sentBy(GROUP).length >= 3 || undefined), 10_000, 'three posts');
    expect(h.tg.sentBy(GROUP).map((s) => [s.token, s.text])).toEqual([
      [TOKENS.aria, 'Aria: the lake.'],
      [TOKENS.bo, 'Bo: the ridge.'],
      [TOKENS.cy, 'Cy: both!'],
    ]);
    // Four bots got the human's message; it is stored once. The bots' echoes of each other's
    // answers (bot-to-bot) are not stored and start no round.
    await new Promise((r) => setTimeout(r, 1_000));
    const messages = await h.app.store.c.messages.find({ dialogueId: room.dialogueId }).toArray();
    expect(messages.filter((m) => m.senderRole === 'human').map((m) => m.content)).toEqual(['Lake or ridge?']);
    expect(messages.filter((m) => m.senderRole === 'ai')).toHaveLength(3);
    expect((await h.app.store.rooms.get(room._id))?.roundSeq).toBe(1);
  }, 60_000);

  it('refuses a token the platform does not know, and stores nothing', async () => {
    const made = await h.gql<{ createAgent: { id: string } }>(
      'mutation { createAgent(name: "Dee", basePersona: "You are Dee.") { id } }',
    );
    const agentId = made.body.data!.createAgent.id;
    h.tg.failNext('getMe', { error_code: 401, description: 'Unauthorized' });
    const r = await h.gql(
      'mutation($a: ID!) { setAgentBot(agentId: $a, platform: telegram, token: "700000999:UNKNOWN-token_abcdefghijklmnop") { userId } }',
      { a: agentId },
    );
    expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(r.body)).not.toContain('UNKNOWN-token');
    expect(await h.app.store.agentBots.get(agentId, 'telegram')).toBeNull();
    const unknownAgent = await h.gql(
      `mutation { setAgentBot(agentId: "agt_nobody", platform: telegram, token: "${TOKENS.aria}") { userId } }`,
    );
    expect(unknownAgent.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
