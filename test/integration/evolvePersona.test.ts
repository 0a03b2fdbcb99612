// Persona evolution against the real MongoDB-wire server, with the fake OpenAI server's task
// brain as the model: base persona + old evolved persona + the agent's recent turns (across its
// dialogues) → a new evolved persona stored on the agent with the old one in its history; no
// conversations → nothing asked; the model failing or a concurrent evolution → the stored one kept.
import { startMemoryRig, type MemoryRig } from '../support/memoryRig.js';
import { dialogueRecord, sessionRecord } from '../support/records.js';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { Agent, Human, Message, Turn } from '../../src/domain/model.js';
import { evolvePersona, shouldEvolve, type EvolveDeps } from '../../src/persona/evolvePersona.js';
import { type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { linesOf, sectionsOf } from '../doubles/fakeSummaryBrain.js';

const AGENT = 'agt_rainbow';
const OTHER_AGENT = 'agt_storm';
const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 3, 1, 9, 0, 0);
const BASE = 'You are Rainbow, a cheerful companion who loves astronomy and speaks warmly.';
const OLD_EVOLVED = 'You have grown fond of late-night stargazing and tease people gently.';
const OLD_AT = new Date(T0 - 10 * DAY);

let rig: MemoryRig;
let store: Store;
let llm: FakeOpenAI;
let deps: EvolveDeps;

beforeAll(async () => {
  rig = await startMemoryRig();
  ({ store, llm } = rig);
});

afterAll(() => rig.close());

beforeEach(async () => {
  llm.reset();
  deps = rig.taskDeps();
  const at = new Date(T0 - 30 * DAY);
  await store.c.agents.insertMany([
    {
      _id: AGENT,
      name: 'Rainbow',
      basePersona: BASE,
      evolvedPersona: OLD_EVOLVED,
      evolvedPersonaAt: OLD_AT,
      isDefault: true,
      createdAt: at,
      updatedAt: at,
    },
    {
      _id: OTHER_AGENT,
      name: 'Storm',
      basePersona: 'You are Storm, gruff but loyal.',
      isDefault: false,
      createdAt: at,
      updatedAt: at,
    },
  ] satisfies Agent[]);
  await store.c.humans.insertMany([
    {
      _id: 'hum_alice',
      identities: [{ platform: 'telegram', userId: '1' }],
      displayName: 'Alice',
      createdAt: at,
      updatedAt: at,
    },
    {
      _id: 'hum_bob',
      identities: [{ platform: 'discord', userId: '2' }],
      displayName: 'Bob',
      createdAt: at,
      updatedAt: at,
    },
  ] satisfies Human[]);
});

afterEach(() => rig.clear());

async function dialogue(o: {
  humanId: string;
  agentId?: string;
  title?: string;
  platform?: 'telegram' | 'discord';
}): Promise<{ dialogueId: string; sessionId: string }> {
  const dialogueId = `dlg_${randomBytes(4).toString('hex')}`;
  const sessionId = `ses_${randomBytes(4).toString('hex')}`;
  const at = new Date(T0);
  await store.c.dialogues.insertOne(
    dialogueRecord({
      id: dialogueId,
      humanIds: [o.humanId],
      agentIds: [o.agentId ?? AGENT],
      at,
      currentSessionId: sessionId,
      ...(o.platform ? { platform: o.platform } : {}),
      ...(o.title ? { title: o.title } : {}),
    }),
  );
  await store.c.sessions.insertOne(sessionRecord({ id: sessionId, dialogueId, at }));
  return { dialogueId, sessionId };
}

let turnNo = 0;
/** One turn at `at`: the human's text and the agent's reply a minute later. */
async function turn(
  d: { dialogueId: string; sessionId: string },
  o: {
    at: number;
    humanId: string;
    text: string;
    reply?: string;
    agentId?: string;
    status?: Turn['status'];
    failed?: boolean;
  },
): Promise<Turn> {
  const agentId = o.agentId ?? AGENT;
  const turnId = `trn_${String(++turnNo).padStart(3, '0')}_${randomBytes(3).toString('hex')}`;
  const t: Turn = {
    _id: turnId,
    dialogueId: d.dialogueId,
    sessionId: d.sessionId,
    kind: 'dialogue',
    initiatorRole: 'human',
    initiatorId: o.humanId,
    responderRole: 'ai',
    responderId: agentId,
    startedAt: new Date(o.at),
    responseWindowMs: 3 * 3_600_000,
    deadlineAt: new Date(o.at + 3 * 3_600_000),
    status: o.status ?? 'responded',
    ...(o.status === 'pending' ? {} : { closedAt: new Date(o.at + MIN) }),
  };
  const base = {
    dialogueId: d.dialogueId,
    sessionId: d.sessionId,
    turnId,
    contentType: 'text' as const,
    mentions: [],
    visible: true,
  };
  const msgs: Message[] = [
    {
      ...base,
      _id: `${turnId}_h`,
      senderRole: 'human',
      senderId: o.humanId,
      content: o.text,
      createdAt: new Date(o.at),
      updatedAt: new Date(o.at),
    },
  ];
  if (o.status !== 'pending') {
    msgs.push({
      ...base,
      _id: `${turnId}_a`,
      senderRole: 'ai',
      senderId: agentId,
      content: o.failed ? 'partial nonsens' : (o.reply ?? 'How lovely!'),
      delivery: { state: o.failed ? 'error' : 'complete', platformMessageIds: [] },
      createdAt: new Date(o.at + MIN),
      updatedAt: new Date(o.at + MIN),
    });
  }
  await store.c.turns.insertOne(t);
  await store.c.messages.insertMany(msgs);
  return t;
}

const agent = async (id = AGENT) => (await store.participants.getAgentEvolution(id))!;

describe('persona evolution', () => {
  it('writes base + old evolved + recent turns into a new evolved persona and keeps the old one in the history', async () => {
    const alice = await dialogue({ humanId: 'hum_alice', title: 'Alice DM' });
    const bob = await dialogue({ humanId: 'hum_bob', platform: 'discord' });
    const storm = await dialogue({ humanId: 'hum_bob', agentId: OTHER_AGENT, title: 'Storm and Bob' });
    await turn(alice, {
      at: T0,
      humanId: 'hum_alice',
      text: 'Saturn rings tonight were stunning. Did you see?',
      reply: 'I wish I could!',
    });
    await turn(bob, { at: T0 + 5 * MIN, humanId: 'hum_bob', text: 'Chess club starts again tomorrow.' });
    await turn(alice, {
      at: T0 + 10 * MIN,
      humanId: 'hum_alice',
      text: 'Cello exam passed with honours!',
      failed: true,
    });
    await turn(storm, {
      at: T0 + 15 * MIN,
      humanId: 'hum_bob',
      text: 'Thunderstorms are my favourite weather.',
      agentId: OTHER_AGENT,
    });
    await turn(alice, {
      at: T0 + 20 * MIN,
      humanId: 'hum_alice',
      text: 'Still waiting for an answer',
      status: 'pending',
    });
    await store.participants.noteReplyForEvolve(AGENT, new Date(T0));
    await store.participants.noteReplyForEvolve(AGENT, new Date(T0));

    const now = new Date(T0 + DAY);
    const r = await evolvePersona(deps, { agentId: AGENT, now });
    const expected = `${OLD_EVOLVED} Recently: Chess club starts again; Saturn rings tonight were; Cello exam passed with.`;
    // One relationship note per person with a private chat among the turns (Alice, Bob).
    expect(r).toEqual({ before: OLD_EVOLVED, after: expected, notes: 2 });

    const stored = await agent();
    expect(stored).toMatchObject({
      basePersona: BASE,
      evolvedPersona: expected,
      evolvedPersonaAt: now,
      repliesSinceEvolve: 0,
      evolvedPersonaHistory: [{ text: OLD_EVOLVED, from: OLD_AT, replacedAt: now }],
    });
    // The other agent is untouched.
    expect((await agent(OTHER_AGENT)).evolvedPersona).toBeUndefined();

    // The prompt: base, old evolved, and the agent's answered turns per dialogue (latest last).
    expect(llm.taskRequests.map((q) => q.task)).toEqual(['evolve_persona', 'relationship_note', 'relationship_note']);
    const input = llm.taskRequests[0]!.input;
    expect(input.split('\n')[0]).toBe('Character: Rainbow');
    const s = sectionsOf(input);
    expect(s.get('Base persona')).toBe(BASE);
    expect(s.get('Current evolved persona')).toBe(OLD_EVOLVED);
    const talks = s.get('Recent conversations')!;
    expect(talks.split('\n').filter((l) => l.startsWith('-- '))).toEqual([
      `-- human_ai ${bob.dialogueId}`,
      '-- Alice DM',
    ]);
    const lines = linesOf(talks);
    expect(lines.map((l) => [l.role, l.text])).toEqual([
      ['user', 'Chess club starts again tomorrow.'],
      ['assistant', 'How lovely!'],
      ['user', 'Saturn rings tonight were stunning. Did you see?'],
      ['assistant', 'I wish I could!'],
      // The failed reply is not shown; the human's message is.
      ['user', 'Cello exam passed with honours!'],
    ]);
    expect(lines[2]!.at).toEqual(new Date(T0));
    // Storm's conversation and the unanswered turn are not Rainbow's recent turns.
    expect(talks).not.toContain('Thunderstorms');
    expect(talks).not.toContain('Still waiting');

    // The call is on record.
    const events = await store.c.events.find({ kind: 'llm_call' }).toArray();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      task: 'evolve_persona',
      agentId: AGENT,
      turns: 3,
      before: OLD_EVOLVED,
      after: expected,
    });
    // Latest turn's dialogue.
    expect(events[0]!.dialogueId).toBe(alice.dialogueId);

    // Evolving again builds on the new text and pushes it to the history.
    const later = new Date(T0 + 2 * DAY);
    const again = await evolvePersona(deps, { agentId: AGENT, now: later });
    expect(again.before).toBe(expected);
    const evolveInputs = llm.taskRequests.filter((q) => q.task === 'evolve_persona').map((q) => q.input);
    expect(sectionsOf(evolveInputs[1]!).get('Current evolved persona')).toBe(expected);
    expect((await agent()).evolvedPersonaHistory).toEqual([
      { text: OLD_EVOLVED, from: OLD_AT, replacedAt: now },
      { text: expected, from: now, replacedAt: later },
    ]);
  });

  it("keeps what people said out of the agent-wide part, whatever the model writes, and notes each person's private chats apart", async () => {
    const alice = await dialogue({ humanId: 'hum_alice', title: 'Alice DM' });
    const group = await dialogue({ humanId: 'hum_bob', title: 'Book club' });
    await store.c.dialogues.updateOne(
      { _id: group.dialogueId },
      { $set: { type: 'group', humanIds: ['hum_bob', 'hum_alice'] } },
    );
    await turn(alice, {
      at: T0,
      humanId: 'hum_alice',
      text: 'I am secretly quitting my job next month, please keep it between us.',
    });
    await turn(group, { at: T0 + MIN, humanId: 'hum_bob', text: 'Which book do we read next?' });
    // A model that ignores its instructions: the people's facts go into the agent-wide text.
    llm.enqueueTask({
      kind: 'reply',
      chunks: [
        JSON.stringify({
          evolvedPersona:
            'You have come to love quiet evenings. You learned that Alice is quitting her job. Someone is secretly quitting my job next month, you heard. You enjoy book talk.',
        }),
      ],
    });
    const r = await evolvePersona(deps, { agentId: AGENT, now: new Date(T0 + DAY) });
    expect(r.after).toBe('You have come to love quiet evenings. You enjoy book talk.');
    const event = await store.c.events.findOne({ kind: 'llm_call' });
    expect(event?.data).toMatchObject({ scrubbedSentences: 2 });
    // The log of it holds counts, never the text.
    expect(JSON.stringify(event?.data)).not.toContain('quitting');

    // Alice's note is written from her private chat alone; the group has no note.
    const notes = llm.taskRequests.filter((q) => q.task === 'relationship_note');
    expect(notes).toHaveLength(1);
    const sections = sectionsOf(notes[0]!.input);
    expect(sections.get('Person')).toBe('Alice');
    expect(sections.get('Recent conversations')).toContain('secretly quitting');
    expect(sections.get('Recent conversations')).not.toContain('Which book');
    const note = await store.relationships.get(AGENT, 'hum_alice');
    expect(note).toMatchObject({ humanId: 'hum_alice', dialogueIds: [alice.dialogueId] });
    expect(await store.relationships.get(AGENT, 'hum_bob')).toBeNull();
  });

  it('takes only the most recent turns', async () => {
    const alice = await dialogue({ humanId: 'hum_alice' });
    for (let i = 1; i <= 6; i++)
      await turn(alice, { at: T0 + i * MIN * 10, humanId: 'hum_alice', text: `Message number ${i} here.` });
    await evolvePersona(deps, { agentId: AGENT, now: new Date(T0 + DAY), turns: 2 });
    const lines = linesOf(sectionsOf(llm.taskRequests[0]!.input).get('Recent conversations')!);
    expect(lines.filter((l) => l.role === 'user').map((l) => l.text)).toEqual([
      'Message number 5 here.',
      'Message number 6 here.',
    ]);
  });

  it('evolves an agent that never evolved: the model sees (none), no history entry', async () => {
    const bob = await dialogue({ humanId: 'hum_bob', agentId: OTHER_AGENT });
    await turn(bob, { at: T0, humanId: 'hum_bob', text: 'Rain again today.', agentId: OTHER_AGENT });
    const now = new Date(T0 + DAY);
    const r = await evolvePersona(deps, { agentId: OTHER_AGENT, now });
    expect(r).toEqual({ before: undefined, after: 'Recently: Rain again today..', notes: 1 });
    expect(llm.taskRequests[0]!.input).toContain('### Current evolved persona\n(none)');
    const stored = await agent(OTHER_AGENT);
    expect(stored).toMatchObject({ evolvedPersona: 'Recently: Rain again today..', evolvedPersonaAt: now });
    expect(stored.evolvedPersonaHistory).toBeUndefined();
  });

  it('skips without asking the model when the agent has no conversations', async () => {
    // Only another agent's turn and one of its own still unanswered.
    const storm = await dialogue({ humanId: 'hum_bob', agentId: OTHER_AGENT });
    await turn(storm, { at: T0, humanId: 'hum_bob', text: 'Hello Storm.', agentId: OTHER_AGENT });
    const alice = await dialogue({ humanId: 'hum_alice' });
    await turn(alice, { at: T0, humanId: 'hum_alice', text: 'Hello?', status: 'pending' });
    const before = await agent();
    const r = await evolvePersona(deps, { agentId: AGENT, now: new Date(T0 + DAY) });
    expect(r).toEqual({ before: OLD_EVOLVED, after: OLD_EVOLVED, skipped: 'no_conversations' });
    expect(llm.taskRequests).toHaveLength(0);
    expect(await agent()).toEqual(before);
  });

  it('keeps the old evolved persona when the model fails or answers nonsense', async () => {
    const alice = await dialogue({ humanId: 'hum_alice' });
    await turn(alice, { at: T0, humanId: 'hum_alice', text: 'Guess what happened today.' });
    await store.participants.noteReplyForEvolve(AGENT, new Date(T0));
    const before = await agent();

    llm.enqueueTask({ kind: 'error', status: 500, message: 'the model is down' });
    await expect(evolvePersona(deps, { agentId: AGENT, now: new Date(T0 + DAY) })).rejects.toMatchObject({
      code: 'LLM_SERVICE_ERROR',
    });
    expect(await agent()).toEqual(before);

    llm.enqueueTask(
      { kind: 'reply', chunks: ['{"evolvedPersona":"  "}'] },
      { kind: 'reply', chunks: ['{"persona":"wrong key"}'] },
    );
    await expect(evolvePersona(deps, { agentId: AGENT, now: new Date(T0 + DAY) })).rejects.toMatchObject({
      code: 'LLM_SERVICE_ERROR',
    });
    expect(await agent()).toEqual(before);
    expect(before).toMatchObject({ evolvedPersona: OLD_EVOLVED, evolvedPersonaAt: OLD_AT, repliesSinceEvolve: 1 });
    expect(await store.c.events.countDocuments({ kind: 'llm_call' })).toBe(0);
  });

  it('does not overwrite an evolution that finished meanwhile', async () => {
    const alice = await dialogue({ humanId: 'hum_alice' });
    await turn(alice, { at: T0, humanId: 'hum_alice', text: 'Guess what happened today.' });
    llm.enqueueTask({ kind: 'reply', chunks: ['{"evolvedPersona":"slow run"}'], firstByteDelayMs: 300 });
    const slow = evolvePersona(deps, { agentId: AGENT, now: new Date(T0 + DAY) });
    await new Promise((r) => setTimeout(r, 100));
    const meanwhile = new Date(T0 + DAY - MIN);
    expect(
      await store.participants.setEvolvedPersona(
        AGENT,
        { text: 'fast run', at: meanwhile },
        { text: OLD_EVOLVED, at: OLD_AT },
      ),
    ).toBe(true);
    expect(await slow).toEqual({ before: OLD_EVOLVED, after: 'fast run', skipped: 'evolved_meanwhile', notes: 1 });
    expect(await agent()).toMatchObject({ evolvedPersona: 'fast run', evolvedPersonaAt: meanwhile });
  });

  it('counts replies towards the next evolution: every N-th reply, never with 0', async () => {
    const counts: number[] = [];
    for (let i = 0; i < 6; i++) counts.push(await store.participants.noteReplyForEvolve(AGENT, new Date(T0)));
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
    expect(counts.map((n) => shouldEvolve(n, 3))).toEqual([false, false, true, false, false, true]);
    expect(counts.some((n) => shouldEvolve(n, 0))).toBe(false);
  });

  it('refuses an unknown agent', async () => {
    await expect(evolvePersona(deps, { agentId: 'agt_nobody', now: new Date(T0) })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
