// Contextual integrity (SPEC §13) through the ops API, against a running API process with a
// worker's own memory index on the deployment's Redis versions: a memory's origin and visibility
// as GraphQL shows them; setMemoryVisibility moving what a group's recall may use (the warm
// index of another process sees it); relationship notes and the held persona; and BR-006 for a
// person — private chats, memories, notes, linked identity and records gone, their group message
// marked deleted, personas scrubbed of them, a second call NOT_FOUND — with the roles that may not.
import { dialogueRecord, sessionRecord } from '../support/records.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { createLogger } from '../../src/log.js';
import type { Dialogue, Human, MemoryEntry, MemoryOrigin, Message } from '../../src/domain/model.js';
import type { RecallPlace } from '../../src/domain/memoryOrigin.js';
import { DEFAULT_AGENT_ID } from '../../src/store/participants.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { IndexCache } from '../../src/memory/indexCache.js';
import { MemoryRecall } from '../../src/memory/recall.js';
import { RedisMemoryVersions } from '../../src/memory/versions.js';
import { toMemoryEmbedding } from '../../src/memory/vectors.js';

const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
type Gql = Awaited<ReturnType<Harness['gql']>>;
const codeOf = (r: Gql) => r.body.errors?.[0]?.extensions?.code;

const MEMORY = `query ($id: ID!) { memory(id: $id) { id visibility origin { dialogueId scope dialogue { id title } } } }`;
const SET_VISIBILITY = `mutation ($id: ID!, $v: MemoryVisibility!) { setMemoryVisibility(id: $id, visibility: $v) { id visibility updatedAt } }`;
const DELETE_PERSON = `mutation ($id: ID!) { deletePerson(id: $id) {
  humans dialogues messages sharedMessages memories relationshipNotes personaTexts } }`;
const RESOLVE_HELD = `mutation ($a: ID!, $adopt: Boolean!, $text: String) {
  resolveHeldPersona(agentId: $a, adopt: $adopt, text: $text) { id evolvedPersona heldPersona { text } evolvedPersonaHistory { text } } }`;

describe('contextual integrity in the ops API', () => {
  let h: Harness;
  let redis: Redis;
  const embedder = new HashedNgramEmbedder(256);
  let seq = 0;

  beforeAll(async () => {
    h = await startHarness({ EMBEDDINGS: 'offline', EMBEDDING_DIMS: '256' }, ['api']);
    redis = new Redis(h.env.REDIS_URL, { maxRetriesPerRequest: null });
  }, 60_000);
  afterAll(async () => {
    const keys = await redis.keys(`${h.env.QUEUE_PREFIX}:memv:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await h.stop();
  });

  async function seedHuman(human: Omit<Human, 'createdAt' | 'updatedAt'>): Promise<void> {
    const at = new Date();
    await h.app.store.c.humans.insertOne({ ...human, createdAt: at, updatedAt: at });
  }

  async function seedDialogue(
    id: string,
    humanIds: string[],
    o: { type?: Dialogue['type']; title?: string } = {},
  ): Promise<void> {
    const at = new Date();
    await h.app.store.c.dialogues.insertOne({
      ...dialogueRecord({
        id,
        humanIds,
        agentIds: [DEFAULT_AGENT_ID],
        at,
        currentSessionId: `ses_${id}`,
        chatId: `7${Math.floor(Math.random() * 1e7)}`,
        ...(o.title ? { title: o.title } : {}),
      }),
      ...(o.type ? { type: o.type } : {}),
    });
    await h.app.store.c.sessions.insertOne(sessionRecord({ id: `ses_${id}`, dialogueId: id, at }));
  }

  async function seedMessage(dialogueId: string, senderId: string, content: string): Promise<string> {
    const at = new Date();
    const _id = `msg_priv_${++seq}`;
    await h.app.store.messages.insertOnce({
      _id,
      dialogueId,
      sessionId: `ses_${dialogueId}`,
      senderRole: 'human',
      senderId,
      contentType: 'text',
      content,
      mentions: [],
      visible: true,
      createdAt: at,
      updatedAt: at,
    } satisfies Message);
    return _id;
  }

  /** A memory about `subjectId` learnt in `dialogueId` (its vector stored, as extraction stores it). */
  async function seedMemory(
    subjectId: string,
    dialogueId: string,
    text: string,
    origin?: MemoryOrigin,
    ownerId = DEFAULT_AGENT_ID,
  ): Promise<string> {
    const at = new Date(Date.now() - 3_600_000);
    const id = `mem_priv_${++seq}`;
    const [vector] = await embedder.embed([text]);
    await h.app.store.memories.insertMany([
      {
        _id: id,
        ownerId,
        subjectId,
        kind: 'fact',
        text,
        dedupeKey: `dk_${id}`,
        embedding: toMemoryEmbedding(embedder.id, vector!),
        importance: 0.6,
        sources: { dialogueId, sessionId: `ses_${dialogueId}` },
        ...(origin ? { origin } : {}),
        occurredAt: at,
        status: 'active',
        recall: { count: 0 },
        createdAt: at,
        updatedAt: at,
      } satisfies MemoryEntry,
    ]);
    return id;
  }

  /** A worker's recall: its own per-process index, told of changes through the Redis versions. */
  function workerRecall(subjectId: string): { ask(message: string, place: RecallPlace): Promise<string[]> } {
    const cache = new IndexCache({
      store: h.app.store,
      embedder,
      versions: new RedisMemoryVersions(redis, `${h.env.QUEUE_PREFIX}:`),
      log,
    });
    const recall = new MemoryRecall({
      store: { memories: { noteRecalled: () => Promise.resolve() } },
      embedder,
      cache,
      log,
    });
    return {
      ask: async (message, place) =>
        (
          await recall.recall({
            ownerId: DEFAULT_AGENT_ID,
            subjectId,
            message,
            topK: 10,
            now: new Date(),
            countRecall: false,
            place,
          })
        ).memories.map((m) => m.id),
    };
  }

  it("shows a memory's origin and visibility", async () => {
    await seedHuman({ _id: 'hum_orig', displayName: 'Ola', identities: [{ platform: 'telegram', userId: '5001' }] });
    await seedDialogue('dlg_orig_dm', ['hum_orig']);
    await seedDialogue('dlg_orig_grp', ['hum_orig', 'hum_x'], { type: 'group', title: 'Book club' });
    const dm = await seedMemory('hum_orig', 'dlg_orig_dm', 'User plays the cello', {
      dialogueId: 'dlg_orig_dm',
      scope: 'private',
    });
    const grp = await seedMemory('hum_orig', 'dlg_orig_grp', 'User is reading Dune', {
      dialogueId: 'dlg_orig_grp',
      scope: 'group',
    });
    const old = await seedMemory('hum_orig', 'dlg_orig_dm', 'User likes rain');

    const read = async (id: string) => {
      const r = await h.gql<{ memory: unknown }>(MEMORY, { id }, TEST_VIEWER_TOKEN);
      expect(r.body.errors).toBeUndefined();
      return r.body.data?.memory;
    };
    expect(await read(dm)).toEqual({
      id: dm,
      visibility: 'ORIGIN',
      origin: { dialogueId: 'dlg_orig_dm', scope: 'PRIVATE', dialogue: { id: 'dlg_orig_dm', title: null } },
    });
    expect(await read(grp)).toEqual({
      id: grp,
      visibility: 'ORIGIN',
      origin: { dialogueId: 'dlg_orig_grp', scope: 'GROUP', dialogue: { id: 'dlg_orig_grp', title: 'Book club' } },
    });
    expect(await read(old)).toEqual({ id: old, visibility: 'ORIGIN', origin: null });
  });

  it('setMemoryVisibility decides whether a group recalls what was learned in private', async () => {
    await seedHuman({ _id: 'hum_vis', displayName: 'Vic', identities: [{ platform: 'telegram', userId: '5002' }] });
    await seedDialogue('dlg_vis_dm', ['hum_vis']);
    await seedDialogue('dlg_vis_grp', ['hum_vis', 'hum_y'], { type: 'group' });
    const cat = await seedMemory('hum_vis', 'dlg_vis_dm', 'User has a cat named Mochi', {
      dialogueId: 'dlg_vis_dm',
      scope: 'private',
    });
    const inGroup: RecallPlace = { dialogueId: 'dlg_vis_grp', private: false };
    const inPrivate: RecallPlace = { dialogueId: 'dlg_vis_dm', private: true };
    const worker = workerRecall('hum_vis');
    const question = 'Do I have a cat? What is its name?';

    // Warm: the private chat recalls it, the group does not.
    expect(await worker.ask(question, inPrivate)).toContain(cat);
    expect(await worker.ask(question, inGroup)).not.toContain(cat);

    // Only an operator may share it.
    const viewer = await h.gql(SET_VISIBILITY, { id: cat, v: 'SHARED' }, TEST_VIEWER_TOKEN);
    expect(codeOf(viewer)).toBe('FORBIDDEN');
    expect(await worker.ask(question, inGroup)).not.toContain(cat);

    const shared = await h.gql<{ setMemoryVisibility: { id: string; visibility: string } }>(
      SET_VISIBILITY,
      { id: cat, v: 'SHARED' },
      TEST_OPERATOR_TOKEN,
    );
    expect(shared.body.errors).toBeUndefined();
    expect(shared.body.data?.setMemoryVisibility).toMatchObject({ id: cat, visibility: 'SHARED' });
    expect((await h.app.store.memories.get(cat))?.visibility).toBe('shared');
    // The same warm index, brought up to date through the version bump.
    expect(await worker.ask(question, inGroup)).toContain(cat);
    expect(await worker.ask(question, inPrivate)).toContain(cat);

    const back = await h.gql<{ setMemoryVisibility: { visibility: string } }>(
      SET_VISIBILITY,
      { id: cat, v: 'ORIGIN' },
      TEST_OPERATOR_TOKEN,
    );
    expect(back.body.data?.setMemoryVisibility.visibility).toBe('ORIGIN');
    expect(await worker.ask(question, inGroup)).not.toContain(cat);
    expect(await worker.ask(question, inPrivate)).toContain(cat);
  });

  it('deleting a private dialogue deletes the relationship notes written from it', async () => {
    await seedHuman({ _id: 'hum_rain', displayName: 'Nia', identities: [{ platform: 'telegram', userId: '5077' }] });
    await seedDialogue('dlg_note_dm', ['hum_rain']);
    await seedDialogue('dlg_note_other', ['hum_rain']);
    const note = { agentId: DEFAULT_AGENT_ID, text: 'You and Nia joke about rain.', updatedAt: new Date() };
    await h.app.store.relationships.put({ ...note, humanId: 'hum_rain', dialogueIds: ['dlg_note_dm'] });
    await h.app.store.relationships.put({ ...note, humanId: 'hum_other', dialogueIds: ['dlg_note_other'] });
    const r = await h.gql(`mutation { deleteDialogue(id: "dlg_note_dm") { found } }`);
    expect(r.body.errors).toBeUndefined();
    expect(await h.app.store.relationships.get(DEFAULT_AGENT_ID, 'hum_rain')).toBeNull();
    expect(await h.app.store.relationships.get(DEFAULT_AGENT_ID, 'hum_other')).not.toBeNull();
  });

  it('setMemoryVisibility refuses unknown and retired memories', async () => {
    const unknown = await h.gql(SET_VISIBILITY, { id: 'mem_nope', v: 'SHARED' }, TEST_OPERATOR_TOKEN);
    expect(codeOf(unknown)).toBe('NOT_FOUND');

    const gone = await seedMemory('hum_vis', 'dlg_vis_dm', 'User once lived in Oslo', {
      dialogueId: 'dlg_vis_dm',
      scope: 'private',
    });
    await h.app.store.memories.retire([gone], 'pruned', new Date());
    const retired = await h.gql(SET_VISIBILITY, { id: gone, v: 'SHARED' }, TEST_OPERATOR_TOKEN);
    expect(codeOf(retired)).toBe('BAD_REQUEST');
    expect(retired.body.errors?.[0]?.message).toMatch(/pruned, not active/);
    expect((await h.app.store.memories.get(gone))?.visibility).toBeUndefined();
  });

  it('lists relationship notes and resolves a held persona', async () => {
    const at = new Date();
    await h.app.store.participants.createAgent({ _id: 'agt_held', name: 'Held', basePersona: 'Kind.' }, at);
    await seedHuman({ _id: 'hum_note', displayName: 'Noa', identities: [{ platform: 'telegram', userId: '5003' }] });
    await h.app.store.relationships.put({
      agentId: 'agt_held',
      humanId: 'hum_note',
      text: 'We joke about her terrible puns.',
      dialogueIds: ['dlg_note_dm'],
      updatedAt: at,
    });
    const notes = await h.gql<{
      agent: { relationshipNotes: Array<{ text: string; human: { id: string } }> };
      human: { relationshipNotes: Array<{ agent: { id: string }; dialogueIds: string[] }> };
    }>(
      `{ agent(id: "agt_held") { relationshipNotes(first: 5) { text human { id } } }
         human(id: "hum_note") { relationshipNotes { agent { id } dialogueIds } } }`,
      {},
      TEST_VIEWER_TOKEN,
    );
    expect(notes.body.errors).toBeUndefined();
    expect(notes.body.data?.agent.relationshipNotes).toEqual([
      { text: 'We joke about her terrible puns.', human: { id: 'hum_note' } },
    ]);
    expect(notes.body.data?.human.relationshipNotes).toEqual([
      { agent: { id: 'agt_held' }, dialogueIds: ['dlg_note_dm'] },
    ]);

    const hold = async (text: string) => {
      await h.app.store.c.agents.updateOne(
        { _id: 'agt_held' },
        { $set: { heldPersona: { text, heldAt: new Date() } } },
      );
      await h.app.store.participants.agentsWritten();
    };
    await h.app.store.participants.setEvolvedPersona('agt_held', { text: 'Curious.', at }, {});
    await hold('Warm, and Noa told me a secret.');
    const held = await h.gql<{ agent: { heldPersona: { text: string } | null } }>(
      '{ agent(id: "agt_held") { heldPersona { text heldAt } } }',
      {},
      TEST_VIEWER_TOKEN,
    );
    expect(held.body.data?.agent.heldPersona?.text).toBe('Warm, and Noa told me a secret.');

    // A viewer may not decide; an operator adopts the text they rewrote.
    expect(codeOf(await h.gql(RESOLVE_HELD, { a: 'agt_held', adopt: true }, TEST_VIEWER_TOKEN))).toBe('FORBIDDEN');
    const adopted = await h.gql<{ resolveHeldPersona: Record<string, unknown> }>(
      RESOLVE_HELD,
      { a: 'agt_held', adopt: true, text: 'Warm.' },
      TEST_OPERATOR_TOKEN,
    );
    expect(adopted.body.errors).toBeUndefined();
    expect(adopted.body.data?.resolveHeldPersona).toEqual({
      id: 'agt_held',
      evolvedPersona: 'Warm.',
      heldPersona: null,
      evolvedPersonaHistory: [{ text: 'Curious.' }],
    });
    // Every process's cached agent moves with the write mark.
    expect((await h.app.store.participants.getAgent('agt_held'))?.evolvedPersona).toBe('Warm.');

    // Nothing held any more: a clear refusal.
    const none = await h.gql(RESOLVE_HELD, { a: 'agt_held', adopt: false }, TEST_OPERATOR_TOKEN);
    expect(codeOf(none)).toBe('BAD_REQUEST');

    // Discarded: the evolved persona stays as it was.
    await hold('Anxious about Noa.');
    const discarded = await h.gql<{ resolveHeldPersona: Record<string, unknown> }>(
      RESOLVE_HELD,
      { a: 'agt_held', adopt: false },
      TEST_OPERATOR_TOKEN,
    );
    expect(discarded.body.data?.resolveHeldPersona).toMatchObject({ evolvedPersona: 'Warm.', heldPersona: null });
    expect(codeOf(await h.gql(RESOLVE_HELD, { a: 'agt_nope', adopt: false }, TEST_OPERATOR_TOKEN))).toBe('NOT_FOUND');
  });

  it('deletePerson removes everything learned only from a person, once', async () => {
    const P = 'hum_gone';
    const LINKED = 'hum_gone_dc';
    const OTHER = 'hum_stays';
    await seedHuman({
      _id: P,
      displayName: 'Priya',
      identities: [{ platform: 'telegram', userId: '6001', username: 'priya_n' }],
    });
    await seedHuman({
      _id: LINKED,
      displayName: 'Pri',
      linkedTo: P,
      identities: [{ platform: 'discord', userId: '6002', displayName: 'Pri' }],
    });
    await seedHuman({ _id: OTHER, displayName: 'Omar', identities: [{ platform: 'telegram', userId: '6003' }] });

    await seedDialogue('dlg_gone_dm', [P]);
    await seedDialogue('dlg_gone_dc', [LINKED]);
    await seedDialogue('dlg_gone_grp', [P, OTHER], { type: 'group', title: 'Climbers' });
    await seedDialogue('dlg_stays_dm', [OTHER]);
    await seedMessage('dlg_gone_dm', P, 'I am getting divorced, do not tell anyone');
    await seedMessage('dlg_gone_dc', LINKED, 'My sister is ill');
    const saidInGroup = await seedMessage('dlg_gone_grp', P, 'Anyone up for bouldering on Sunday?');
    const otherSaid = await seedMessage('dlg_gone_grp', OTHER, 'Count me in');

    const dmMemory = await seedMemory(P, 'dlg_gone_dm', 'User is getting divorced', {
      dialogueId: 'dlg_gone_dm',
      scope: 'private',
    });
    const groupMemory = await seedMemory(P, 'dlg_gone_grp', 'User goes bouldering on Sundays', {
      dialogueId: 'dlg_gone_grp',
      scope: 'group',
    });
    const linkedMemory = await seedMemory(LINKED, 'dlg_gone_dc', 'User has a sister who is ill');
    const otherMemory = await seedMemory(OTHER, 'dlg_stays_dm', 'User climbs every weekend', {
      dialogueId: 'dlg_stays_dm',
      scope: 'private',
    });
    const at = new Date();
    for (const humanId of [P, OTHER])
      await h.app.store.relationships.put({
        agentId: DEFAULT_AGENT_ID,
        humanId,
        text: `Notes on ${humanId}.`,
        dialogueIds: [],
        updatedAt: at,
      });
    await h.app.store.c.agents.updateOne(
      { _id: DEFAULT_AGENT_ID },
      {
        $set: {
          evolvedPersona: 'I enjoy rainy days.\nPriya confided in me about her divorce.\nI like jazz.',
          evolvedPersonaHistory: [
            { text: 'Priya is my closest friend.', replacedAt: at },
            { text: 'priya_n taught me chess.\nI am calm.', replacedAt: at },
          ],
          heldPersona: { text: 'I worry about Pri!\nI am curious.', heldAt: at },
        },
      },
    );
    await h.app.store.participants.agentsWritten();

    // A worker's index holds the group memory (recalled in that group) before the deletion.
    const worker = workerRecall(P);
    const inGroup: RecallPlace = { dialogueId: 'dlg_gone_grp', private: false };
    expect(await worker.ask('Who goes bouldering on Sundays?', inGroup)).toContain(groupMemory);

    // Admin only.
    for (const token of [TEST_VIEWER_TOKEN, TEST_OPERATOR_TOKEN])
      expect(codeOf(await h.gql(DELETE_PERSON, { id: P }, token))).toBe('FORBIDDEN');
    expect(await h.app.store.participants.getHuman(P)).not.toBeNull();

    const r = await h.gql<{ deletePerson: Record<string, number> }>(DELETE_PERSON, { id: P });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.deletePerson).toEqual({
      humans: 2,
      dialogues: 2,
      messages: 2,
      sharedMessages: 1,
      memories: 3, // the private chats' (dm, linked dm) and the group's about them
      relationshipNotes: 1,
      personaTexts: 4,
    });

    const { c } = h.app.store;
    expect(await c.dialogues.countDocuments({ _id: { $in: ['dlg_gone_dm', 'dlg_gone_dc'] } })).toBe(0);
    expect(await c.messages.countDocuments({ dialogueId: { $in: ['dlg_gone_dm', 'dlg_gone_dc'] } })).toBe(0);
    expect(await h.app.store.dialogues.get('dlg_gone_grp')).not.toBeNull();
    expect((await h.app.store.messages.get(saidInGroup))?.deleted).toBeDefined();
    expect((await h.app.store.messages.get(otherSaid))?.deleted).toBeUndefined();
    expect(await h.app.store.memories.getMany([dmMemory, groupMemory, linkedMemory, otherMemory])).toEqual([
      expect.objectContaining({ _id: otherMemory }),
    ]);
    expect(await h.app.store.relationships.aboutHuman(P)).toEqual([]);
    expect(await h.app.store.relationships.aboutHuman(OTHER)).toHaveLength(1);
    expect(await c.humans.countDocuments({ _id: { $in: [P, LINKED] } })).toBe(0);
    expect(await h.app.store.participants.getHuman(OTHER)).not.toBeNull();

    // Sentences naming them (by display name, username, linked identity's name) are gone; a text
    // left empty is gone too.
    const agent = await h.app.store.participants.getAgentEvolution(DEFAULT_AGENT_ID);
    expect(agent?.evolvedPersona).toMatch(/^I enjoy rainy days\.\s+I like jazz\.$/);
    expect(agent?.evolvedPersonaHistory?.map((v) => v.text)).toEqual(['I am calm.']);
    expect(agent?.heldPersona?.text).toBe('I am curious.');
    // The cached agent every reply reads moved with the write mark.
    expect((await h.app.store.participants.getAgent(DEFAULT_AGENT_ID))?.evolvedPersona).toBe(agent?.evolvedPersona);
    // The warm index of another process dropped the deleted memory.
    expect(await worker.ask('Who goes bouldering on Sundays?', inGroup)).not.toContain(groupMemory);

    const again = await h.gql(DELETE_PERSON, { id: P });
    expect(codeOf(again)).toBe('NOT_FOUND');
  });
});
