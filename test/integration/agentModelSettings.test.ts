// Per-agent model settings end to end: an agent with its own model, temperature and longest
// answer is asked with them (room answers and private replies, both OpenAI APIs), and its
// llm_call events record that model; an agent without settings keeps the deployment's, and so
// do background tasks. Bad settings through GraphQL are BAD_REQUEST and change nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { createRoom } from '../../src/rooms/createRoom.js';
import type { EventLog, Turn } from '../../src/domain/model.js';
import type { RoomRound } from '../../src/domain/room.js';

const DEPLOYMENT_MODEL = 'gpt-4o-mini'; // LLM_MODEL's default, which the test env keeps
const GROUP = PLACES.group.chatId;
const ids = { aria: 'agt_model_aria', bo: 'agt_model_bo' };

interface Settings {
  name: string | null;
  temperature: number | null;
  maxOutputTokens: number | null;
}

const UPDATE = `mutation($id: ID!, $s: AgentModelSettingsInput, $n: String) {
  updateAgent(id: $id, modelSettings: $s, name: $n) { name modelSettings { name temperature maxOutputTokens } } }`;

/** The reply's own llm_call events (background tasks on the turn left out). */
const replyCalls = (events: EventLog[]) => events.filter((e) => e.kind === 'llm_call' && e.data.task === undefined);

describe('per-agent model settings', () => {
  let h: Harness;
  afterEach(() => h.stop());

  const setSettings = (id: string, s: Partial<Settings> | null, n?: string) =>
    h.gql<{ updateAgent: { name: string; modelSettings: Settings } }>(UPDATE, { id, s, ...(n ? { n } : {}) });

  it("room answers: the agent with settings is asked with them, the other with the deployment's", async () => {
    h = await startHarness({ EMBEDDINGS: 'offline' });
    const at = new Date();
    await h.app.store.participants.createAgent({ _id: ids.aria, name: 'Aria', basePersona: 'You are Aria.' }, at);
    await h.app.store.participants.createAgent({ _id: ids.bo, name: 'Bo', basePersona: 'You are Bo.' }, at);
    const room = await createRoom(
      h.app.store,
      {
        chat: { platform: 'telegram', chatId: String(GROUP) },
        name: 'Hikers',
        mode: 'default',
        agentIds: [ids.aria, ids.bo],
      },
      at,
    );
    const set = await setSettings(ids.aria, { name: 'aria-large', temperature: 0.25, maxOutputTokens: 300 });
    expect(set.body.errors).toBeUndefined();
    // The fields left out stay as they were (not stored as null).
    expect(set.body.data?.updateAgent.name).toBe('Aria');
    expect((await h.app.store.participants.getAgent(ids.aria))?.basePersona).toBe('You are Aria.');
    expect(set.body.data?.updateAgent.modelSettings).toEqual({
      name: 'aria-large',
      temperature: 0.25,
      maxOutputTokens: 300,
    });

    h.llm.enqueue({ kind: 'reply', chunks: ['Aria: the lake.'] }, { kind: 'reply', chunks: ['Bo: the ridge.'] });
    h.tg.pushUpdate(
      textUpdate({ updateId: 97_001, place: PLACES.group, userId: 4242, firstName: 'Lin', text: 'Lake or ridge?' }),
    );
    await eventually(
      async () => {
        const r: RoomRound | null = await h.app.store.rooms.getRound(`${room._id}.r1`);
        return r?.completed ? r : undefined;
      },
      15_000,
      'round 1',
    );

    // Asked in order: Aria first, with her settings; Bo with the deployment's (no temperature sent).
    const [aria, bo] = h.llm.requests.map((r) => r.body);
    expect(aria).toMatchObject({ model: 'aria-large', temperature: 0.25, max_tokens: 300 });
    expect(bo).toMatchObject({ model: DEPLOYMENT_MODEL, max_tokens: 2_000 });
    expect(bo).not.toHaveProperty('temperature');

    const turns: Turn[] = await h.app.store.c.turns.find({ dialogueId: room.dialogueId }).toArray();
    const callsOf = async (agentId: string) => {
      const turn = turns.find((t) => t.responderId === agentId);
      return replyCalls(await h.app.store.events.ofTurn(turn!._id)).map((e) => e.data);
    };
    expect(await callsOf(ids.aria)).toMatchObject([{ model: 'aria-large', temperature: 0.25, maxOutputTokens: 300 }]);
    expect(await callsOf(ids.bo)).toMatchObject([
      { model: DEPLOYMENT_MODEL, temperature: null, maxOutputTokens: 2_000 },
    ]);
  });

  it('private replies over the Responses API: the settings are sent, cleared ones fall back, tasks keep the deployment model', async () => {
    h = await startHarness({ LLM_API: 'responses' });
    const agentId = 'agt_default';
    expect((await setSettings(agentId, { name: 'solo-model', temperature: 1.5 })).body.errors).toBeUndefined();
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: 515_151, messageId: 1, text: 'hello there' }));
    await eventually(() => Promise.resolve(h.llm.responsesRequests[0]), 15_000, 'first reply call');
    expect(h.llm.responsesRequests[0]!.body).toMatchObject({
      model: 'solo-model',
      temperature: 1.5,
      max_output_tokens: 2_000,
    });

    // Clearing one setting: the deployment's applies again to it, the other stays.
    const cleared = await setSettings(agentId, { name: null });
    expect(cleared.body.data?.updateAgent.modelSettings).toEqual({
      name: null,
      temperature: 1.5,
      maxOutputTokens: null,
    });
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: 515_151, messageId: 3, text: 'and again' }));
    await eventually(() => Promise.resolve(h.llm.responsesRequests[1]), 15_000, 'second reply call');
    expect(h.llm.responsesRequests[1]!.body).toMatchObject({ model: DEPLOYMENT_MODEL, temperature: 1.5 });

    // Memory extraction after the reply is a background task: the deployment's model.
    const firstTurn = await eventually(
      async () => (await h.app.store.c.turns.findOne({ status: 'responded' }, { sort: { startedAt: 1 } })) ?? undefined,
      15_000,
      'first turn answered',
    );
    const task = await eventually(
      async () =>
        (await h.app.store.events.ofTurn(firstTurn._id)).find(
          (e) => e.kind === 'llm_call' && e.data.task !== undefined,
        ),
      15_000,
      'memory extraction of the first turn',
    );
    expect(task.data.model).toBe(DEPLOYMENT_MODEL);
    expect(h.llm.taskRequests.length).toBeGreaterThan(0);
  });

  it('a bad temperature (or name, or length) is BAD_REQUEST naming the field and changes nothing; createAgent takes settings too', async () => {
    h = await startHarness({ EMBEDDINGS: 'offline' });
    const agentId = 'agt_default';
    await setSettings(agentId, { temperature: 0.5 });
    const before = await h.app.store.participants.getAgent(agentId);
    for (const [s, field] of [
      [{ temperature: 2.5 }, 'modelSettings.temperature'],
      [{ temperature: -1 }, 'modelSettings.temperature'],
      [{ name: 'no spaces please' }, 'modelSettings.name'],
      [{ maxOutputTokens: 100_000 }, 'modelSettings.maxOutputTokens'],
    ] as const) {
      // With another change beside it: nothing of the mutation is applied.
      const r = await setSettings(agentId, s, 'Renamed');
      expect(r.body.data ?? null).toBeNull();
      expect(r.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
      expect(r.body.errors?.[0]?.message).toContain(field);
    }
    const after = await h.app.store.participants.getAgent(agentId);
    expect(after?.name).toBe(before?.name);
    expect(after?.modelSettings).toEqual({ temperature: 0.5 });
    expect(after?.updatedAt).toEqual(before?.updatedAt);

    // createAgent takes them too; a null there is simply no setting.
    const created = await h.gql<{ createAgent: { id: string; modelSettings: Settings } }>(
      `mutation($s: AgentModelSettingsInput) {
        createAgent(name: "Cy", basePersona: "You are Cy.", modelSettings: $s) { id modelSettings { name temperature maxOutputTokens } } }`,
      { s: { name: 'cy-small', temperature: null, maxOutputTokens: 800 } },
    );
    expect(created.body.data?.createAgent.modelSettings).toEqual({
      name: 'cy-small',
      temperature: null,
      maxOutputTokens: 800,
    });
    const cy = await h.app.store.participants.getAgent(created.body.data!.createAgent.id);
    expect(cy?.modelSettings).toEqual({ name: 'cy-small', maxOutputTokens: 800 });
    const refused = await h.gql(
      'mutation { createAgent(name: "Dee", basePersona: "x", modelSettings: { temperature: 3 }) { id } }',
    );
    expect(refused.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
    expect(await h.app.store.c.agents.countDocuments({ name: 'Dee' })).toBe(0);
  });
});
