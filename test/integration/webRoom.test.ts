// A room on the web channel (issue 37): created over GraphQL without a chat id, it opens a web
// conversation; a message posted there through /api is answered by every member in asking order,
// each reply naming its agent. Web users may enter an open web room; a password keeps them out,
// and nobody else's private web conversation becomes reachable through this door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN } from '../support/testEnv.js';
import { webApi } from '../support/webClient.js';
import type { ChatRequestBody } from '../doubles/fakeOpenAI.js';
import { conversationDialogueId } from '../../adapters/web/conversations.js';

const NAMES = ['Aria', 'Bo', 'Cy'] as const;

/** Each agent answers with its own name, read from its persona. */
function answer(body: ChatRequestBody): string {
  const name = /You are (Aria|Bo|Cy) in a tea house/.exec(JSON.stringify(body.messages))?.[1];
  return name ? `${name} says hello.` : 'Hello.';
}

let h: Harness;

async function createWebRoom(name: string, password?: string): Promise<{ id: string; chatId: string }> {
  const r = await h.gql<{ createRoom: { id: string; chatId: string; platform: string } }>(
    `mutation($input: CreateRoomInput!) { createRoom(input: $input) { id chatId platform } }`,
    {
      input: {
        platform: 'web',
        name,
        mode: 'DEFAULT',
        agentIds: NAMES.map((n) => `agt_${n.toLowerCase()}`),
        ...(password ? { password } : {}),
      },
    },
  );
  expect(r.body.errors).toBeUndefined();
  const room = r.body.data!.createRoom;
  expect(room.platform).toBe('web');
  return room;
}

async function issueToken(name: string): Promise<string> {
  const r = await h.gql<{ issueWebToken: { token: string } }>(
    'mutation($n: String!) { issueWebToken(name: $n) { token } }',
    { n: name },
  );
  return r.body.data!.issueWebToken.token;
}

beforeAll(async () => {
  h = await startHarness({ EMBEDDINGS: 'offline' }, undefined, { openai: { defaultReply: answer } });
  const at = new Date();
  for (const name of NAMES)
    await h.app.store.participants.createAgent(
      { _id: `agt_${name.toLowerCase()}`, name, basePersona: `You are ${name} in a tea house.` },
      at,
    );
});
afterAll(() => h.stop());

describe('web rooms', () => {
  it('answers a posted message with a round: every member in order, each reply naming its agent', async () => {
    const room = await createWebRoom('Tea house');
    expect(room.chatId).toMatch(/^conv_/);
    const api = webApi(h.app.apiUrl!, TEST_OPERATOR_TOKEN);

    const sent = await api.raw('POST', `/conversations/${room.chatId}/messages`, { content: 'Good evening, all!' });
    expect(sent.status).toBe(202);
    expect(sent.json).toMatchObject({ round: true });

    const replies = await eventually(async () => {
      const r = await api.get(room.chatId);
      const msgs = r.json!.messages as Array<{ role: string; agentId?: string; content: string; state: string }>;
      const ai = msgs.filter((m) => m.role === 'assistant' && m.state === 'complete');
      return ai.length === 3 ? ai : undefined;
    });
    expect(replies.map((m) => m.agentId)).toEqual(['agt_aria', 'agt_bo', 'agt_cy']);
    expect(replies.map((m) => m.content)).toEqual(['Aria says hello.', 'Bo says hello.', 'Cy says hello.']);
    const conv = (await api.get(room.chatId)).json!.conversation as { roomId?: string };
    expect(conv.roomId).toBe(room.id);
  });

  it('lets a web user into an open web room, keeps them out of one with a password', async () => {
    const open = await createWebRoom('Open house');
    const locked = await createWebRoom('Back room', 'secret-word');
    const guest = webApi(h.app.apiUrl!, await issueToken('Guest'));

    expect((await guest.get(open.chatId)).status).toBe(200);
    const inOpen = await guest.raw('POST', `/conversations/${open.chatId}/messages`, { content: 'May I join?' });
    expect(inOpen.status).toBe(202);
    // The room is now among the guest's conversations.
    const mine = (await guest.list()).json!.conversations as Array<{ id: string }>;
    expect(mine.map((c) => c.id)).toContain(open.chatId);

    const refused = await guest.get(locked.chatId);
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ error: { code: 'CONVERSATION_NOT_FOUND' } });
    const post = await guest.raw('POST', `/conversations/${locked.chatId}/messages`, { content: 'Let me in' });
    expect(post.status).toBe(404);
    expect(await h.app.store.c.messages.countDocuments({ dialogueId: conversationDialogueId(locked.chatId) })).toBe(0);
  });

  it('does not open anyone’s private web conversation to another caller', async () => {
    const ada = webApi(h.app.apiUrl!, await issueToken('Ada'));
    const created = await ada.createConversation({});
    const id = String(created.json!.id);
    expect((await ada.send(id, { content: 'just between us' })).status).toBe(200);
    // A conversation with one agent keeps seed 004's message shape: no agent named on replies.
    const own = (await ada.get(id)).json!.messages as Array<Record<string, unknown>>;
    expect(own.find((m) => m.role === 'assistant')).not.toHaveProperty('agentId');
    const other = webApi(h.app.apiUrl!, await issueToken('Ben'));
    expect((await other.get(id)).status).toBe(404);
    expect((await webApi(h.app.apiUrl!, TEST_OPERATOR_TOKEN).get(id)).status).toBe(404);
  });

  it('needs a chat id on Telegram and Discord', async () => {
    const r = await h.gql(`mutation($input: CreateRoomInput!) { createRoom(input: $input) { id } }`, {
      input: { platform: 'telegram', name: 'Nowhere', mode: 'DEFAULT', agentIds: ['agt_aria'] },
    });
    expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(r.body.errors?.[0]?.message).toMatch(/chatId/);
  });
});
