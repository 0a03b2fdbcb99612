// Each agent of a room posts through its own Telegram bot (SPEC §8): tokens registered through
// the API (checked with getMe, never returned), one polling bot per token, the same group
// message delivered to every bot stored once and answered by one round, each answer sent by
// the answering agent's bot, and Bot API 10 bot-to-bot echoes of those answers recognised as
// the room's own (never stored twice, never starting a round).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A port nothing listens on now (the webhook URL must name the server's port before it starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('rooms: agent bots in webhook mode', () => {
  let h: Harness;
  beforeEach(async () => {
    const port = await freePort();
    h = await startHarness(
      {
        EMBEDDINGS: 'offline',
        AGENT_BOTS_REFRESH_MS: '200',
        PORT: String(port),
        TELEGRAM_MODE: 'webhook',
        TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}/telegram/webhook`,
        TELEGRAM_WEBHOOK_SECRET: 'deployment-webhook-secret-0123',
      },
      ['gateway', 'worker', 'api'],
      { telegram: { bots: BOTS } },
    );
  });
  afterEach(() => h.stop());

  it('each agent bot gets its own webhook and secret; a group message through all of them makes one round', async () => {
    const agentIds: string[] = [];
    for (const key of ['aria', 'bo'] as const) {
      const name = BOTS[TOKENS[key]]!.first_name;
      await h.app.store.participants.createAgent(
        { _id: `agt_wh_${key}`, name, basePersona: `You are ${name}.` },
        new Date(),
      );
      const bound = await h.gql(
        'mutation($a: ID!, $t: String!) { setAgentBot(agentId: $a, platform: telegram, token: $t) { userId } }',
        { a: `agt_wh_${key}`, t: TOKENS[key] },
      );
      expect(bound.body.errors).toBeUndefined();
      agentIds.push(`agt_wh_${key}`);
    }
    const room = await createRoom(
      h.app.store,
      { chat: { platform: 'telegram', chatId: String(GROUP) }, name: 'Hooks', mode: 'default', agentIds },
      new Date(),
    );
    const hooks = await eventually(
      () => {
        const set = [TOKENS.aria, TOKENS.bo].map((t) =>
          h.tg.calls.find((c) => c.token === t && c.method === 'setWebhook'),
        );
        return Promise.resolve(set.every(Boolean) ? set : undefined);
      },
      10_000,
      'agent webhooks registered',
    );
    const [ariaHook, boHook] = hooks.map((c) => c!.params as { url: string; secret_token: string });
    expect(ariaHook!.url).toMatch(/\/telegram\/agents\/agt_wh_aria$/);
    expect(boHook!.url).toMatch(/\/telegram\/agents\/agt_wh_bo$/);
    expect(ariaHook!.secret_token).not.toBe(boHook!.secret_token);
    expect(ariaHook!.secret_token).not.toBe('deployment-webhook-secret-0123');

    h.llm.enqueue({ kind: 'reply', chunks: ['Aria: hooked.'] }, { kind: 'reply', chunks: ['Bo: hooked too.'] });
    const update = textUpdate({ updateId: 7_001, place: PLACES.group, userId: 4242, firstName: 'Lin', text: 'Hooks?' });
    // Telegram delivers the group message to every bot in it: the deployment's and both agents'.
    for (const token of [TOKENS.aria, TOKENS.bo, undefined]) {
      const r = await h.tg.deliverWebhook(update, token ? { token } : {});
      expect(r.status).toBe(200);
    }
    // A stranger's POST to an agent's webhook is refused.
    const forged = await h.tg.deliverWebhook(update, { token: TOKENS.aria, secret: 'not-the-secret-at-all' });
    expect(forged.status).toBe(401);
    const round = await eventually(
      async () => {
        const r = await h.app.store.rooms.getRound(`${room._id}.r1`);
        return r?.completed ? r : undefined;
      },
      30_000,
      'the round',
    );
    expect(round.answers.map((a) => a.agentId)).toEqual(agentIds);
    const human = await h.app.store.c.messages.find({ dialogueId: room.dialogueId, senderRole: 'human' }).toArray();
    expect(human.map((m) => m.content)).toEqual(['Hooks?']);
    expect(h.tg.sentBy(GROUP).map((s) => s.token)).toEqual([TOKENS.aria, TOKENS.bo]);
  }, 60_000);
});
