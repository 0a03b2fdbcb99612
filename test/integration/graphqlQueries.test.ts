// The query side of the ops API over HTTP with a real client: filters on every level of the
// record, the relations between levels, unresponded turns and the latest session, humans and
// agents, memories (list, history chain, semantic search), warnings and events, stats; bad input
// answered with stable codes. The last part reads a real Telegram pipeline run back.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CommandStartedEvent } from 'mongodb';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_BOT_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { Agent, Dialogue, EventLog, Human, MemoryEntry, Message, Session, Turn } from '../../src/domain/model.js';
import type { AgentEvolution } from '../../src/store/participants.js';

type Conn<T> = { edges: Array<{ node: T }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
type Id = { id: string };
const ids = (c: Conn<Id> | undefined) => (c?.edges ?? []).map((e) => e.node.id);

const DAY = 86_400_000;
const base = Date.now() - 2 * DAY;
const T = (minutes: number) => new Date(base + minutes * 60_000);
const OLD = new Date(base - 30 * DAY);
const iso = (d: Date) => d.toISOString();

function dialogue(
  id: string,
  o: Partial<Dialogue> & Pick<Dialogue, 'type' | 'humanIds' | 'agentIds' | 'lastActivityAt'>,
): Dialogue {
  return {
    _id: id,
    chat: { platform: 'telegram', chatId: id },
    status: 'active',
    messageCount: 0,
    createdAt: o.lastActivityAt,
    updatedAt: o.lastActivityAt,
    ...o,
  };
}
function session(id: string, dialogueId: string, startedAt: Date, o: Partial<Session> = {}): Session {
  return {
    _id: id,
    dialogueId,
    kind: 'dialogue',
    status: 'closed',
    startedAt,
    lastActivityAt: startedAt,
    stats: { messageCount: 0, turnCount: 0 },
    ...o,
  };
}
function turn(id: string, s: Session, startedAt: Date, status: Turn['status'], responseTime?: number): Turn {
  return {
    _id: id,
    dialogueId: s.dialogueId,
    sessionId: s._id,
    kind: 'dialogue',
    initiatorRole: 'human',
    initiatorId: 'hum_a',
    responderRole: 'ai',
    responderId: 'agt_default',
    startedAt,
    responseWindowMs: 3 * 3600_000,
    deadlineAt: new Date(startedAt.getTime() + 3 * 3600_000),
    status,
    ...(responseTime !== undefined ? { responseTime, closedAt: new Date(startedAt.getTime() + responseTime) } : {}),
  };
}
function message(
  id: string,
  t: { dialogueId: string; sessionId: string; turnId?: string },
  createdAt: Date,
  o: Partial<Message> = {},
): Message {
  return {
    _id: id,
    dialogueId: t.dialogueId,
    sessionId: t.sessionId,
    ...(t.turnId ? { turnId: t.turnId } : {}),
    senderRole: 'human',
    senderId: 'hum_a',
    contentType: 'text',
    content: id,
    mentions: [],
    visible: true,
    createdAt,
    updatedAt: createdAt,
    ...o,
  };
}
function memory(
  id: string,
  o: Partial<MemoryEntry> & Pick<MemoryEntry, 'ownerId' | 'text' | 'kind' | 'updatedAt'>,
): MemoryEntry {
  return {
    _id: id,
    dedupeKey: id,
    importance: 0.5,
    sources: {},
    occurredAt: o.updatedAt,
    status: 'active',
    recall: { count: 0 },
    createdAt: o.updatedAt,
    ...o,
  };
}

describe('GraphQL queries', () => {
  let h: Harness;
  const q = async <D>(query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const r = await h.gql<D>(query, variables, token);
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    return r.body.data!;
  };
  const fails = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await h.gql(query, variables);
    expect(JSON.stringify(r.body)).not.toMatch(/\.ts:\d+|\bstack\b/);
    return { code: r.body.errors?.[0]?.extensions?.code, message: r.body.errors?.[0]?.message ?? '' };
  };

  const reads: string[] = [];
  beforeAll(async () => {
    // Command monitoring counts the database round trips of a query (no N+1).
    const uri = new URL(inject('mongoUri'));
    uri.searchParams.set('monitorCommands', 'true');
    h = await startHarness({ MONGODB_URI: uri.toString() }, ['api']);
    h.app.store.client.on('commandStarted', (e: CommandStartedEvent) => {
      if (['find', 'aggregate', 'count', 'getMore'].includes(e.commandName))
        reads.push(`${e.commandName} ${String((e.command as Record<string, unknown>)[e.commandName])}`);
    });
    const c = h.app.store.c;
    const humans: Human[] = [
      {
        _id: 'hum_a',
        displayName: 'Ada',
        identities: [{ platform: 'telegram', userId: '111', username: 'ada' }],
        tone: {
          scores: { anxiety: 2.5, excitement: 0, confusion: 0, trust: 0, sadness: 0, anger: 0 },
          template: 'high_anxiety',
          updatedAt: T(0),
        },
        createdAt: T(0),
        updatedAt: T(0),
      },
      {
        _id: 'hum_b',
        displayName: 'Bo',
        identities: [{ platform: 'discord', userId: '222' }],
        createdAt: T(1),
        updatedAt: T(1),
      },
      {
        _id: 'hum_c',
        displayName: 'Cy',
        identities: [{ platform: 'telegram', userId: '333' }],
        createdAt: T(2),
        updatedAt: T(2),
      },
    ];
    const nova: Agent & AgentEvolution = {
      _id: 'agt_two',
      name: 'Nova',
      aliases: ['nov'],
      bindings: [{ platform: 'discord', userId: '999', username: 'nova-bot' }],
      basePersona: 'Curious.',
      evolvedPersona: 'Curious and warm.',
      evolvedPersonaAt: T(5),
      evolvedPersonaHistory: [{ text: 'Curious v1.', replacedAt: T(5) }],
      repliesSinceEvolve: 3,
      isDefault: false,
      createdAt: T(0),
      updatedAt: T(5),
    };
    const dialogues = [
      dialogue('dlg_1', {
        type: 'human_ai',
        humanIds: ['hum_a'],
        agentIds: ['agt_default'],
        lastActivityAt: T(300),
        createdAt: T(0),
        currentSessionId: 'ses_1b',
        title: 'First',
      }),
      dialogue('dlg_2', {
        type: 'group',
        chat: { platform: 'discord', chatId: '2' },
        humanIds: ['hum_a', 'hum_b'],
        agentIds: ['agt_two'],
        lastActivityAt: T(200),
        createdAt: T(10),
      }),
      dialogue('dlg_3', {
        type: 'human_ai',
        status: 'archived',
        humanIds: ['hum_b'],
        agentIds: ['agt_default'],
        lastActivityAt: T(100),
        createdAt: T(20),
      }),
      dialogue('dlg_4', {
        type: 'human_ai',
        humanIds: ['hum_c'],
        agentIds: ['agt_default'],
        lastActivityAt: OLD,
        createdAt: OLD,
      }),
    ];
    const s = {
      s1a: session('ses_1a', 'dlg_1', T(0), {
        endedAt: T(60),
        closeReason: 'timeout',
        summary: 'Talked about the cat',
      }),
      s1r: session('ses_1r', 'dlg_1', T(90), { kind: 'self_reflection' }),
      s1b: session('ses_1b', 'dlg_1', T(120), { status: 'open' }),
      s2a: session('ses_2a', 'dlg_2', T(10)),
      s2b: session('ses_2b', 'dlg_2', T(150), { status: 'open' }),
      s3a: session('ses_3a', 'dlg_3', T(20)),
      s4a: session('ses_4a', 'dlg_4', OLD),
    };
    const turns = [
      turn('trn_1a1', s.s1a, T(0), 'responded', 1000),
      turn('trn_1a2', s.s1a, T(30), 'unresponded'),
      turn('trn_1b1', s.s1b, T(120), 'responded', 2000),
      turn('trn_1b2', s.s1b, T(200), 'unresponded'),
      turn('trn_1b3', s.s1b, T(290), 'pending'),
      turn('trn_2a1', s.s2a, T(10), 'responded', 3000),
      turn('trn_2b1', s.s2b, T(150), 'responded', 4000),
      turn('trn_3a1', s.s3a, T(20), 'responded', 10_000),
      turn('trn_4a1', s.s4a, OLD, 'responded', 99_999),
    ];
    const at = (sessionId: string, turnId?: string) => ({
      dialogueId: Object.values(s).find((x) => x._id === sessionId)!.dialogueId,
      sessionId,
      ...(turnId ? { turnId } : {}),
    });
    const ai = { senderRole: 'ai' as const, senderId: 'agt_default' };
    const messages = [
      message('m_01', at('ses_1a', 'trn_1a1'), T(0), { content: 'I have a cat named Mochi' }),
      message('m_02', at('ses_1a', 'trn_1a1'), T(1), {
        ...ai,
        contentType: 'markdown',
        content: '**Mochi** sounds lovely',
      }),
      message('m_03', at('ses_1a', 'trn_1a2'), T(30), {
        contentType: 'image',
        content: '',
        contentMeta: { caption: 'Mochi asleep' },
      }),
      message('m_04', at('ses_1b', 'trn_1b1'), T(120)),
      message('m_05', at('ses_1b', 'trn_1b1'), T(121), ai),
      message('m_06', at('ses_1b'), T(125), { senderRole: 'system', senderId: 'system' }),
      message('m_07', at('ses_1b', 'trn_1b2'), T(200), { contentType: 'command', content: '/help' }),
      message('m_08', at('ses_1b', 'trn_1b3'), T(290)),
      message('m_09', at('ses_2b', 'trn_2b1'), T(150), { senderId: 'hum_b' }),
      message('m_10', at('ses_2b', 'trn_2b1'), T(151), { senderRole: 'ai', senderId: 'agt_two' }),
      message('m_11', at('ses_3a', 'trn_3a1'), T(20), { senderId: 'hum_b' }),
    ];
    const memories = [
      memory('mem_1', {
        ownerId: 'agt_default',
        subjectId: 'hum_a',
        kind: 'fact',
        text: 'Ada has a dog',
        status: 'superseded',
        supersededBy: 'mem_2',
        supersededAt: T(20),
        updatedAt: T(10),
      }),
      memory('mem_2', {
        ownerId: 'agt_default',
        subjectId: 'hum_a',
        kind: 'fact',
        text: 'Ada has a cat',
        status: 'merged',
        mergedInto: 'mem_3',
        updatedAt: T(20),
      }),
      memory('mem_3', {
        ownerId: 'agt_default',
        subjectId: 'hum_a',
        kind: 'fact',
        text: 'Ada has a cat named Mochi',
        importance: 0.9,
        updatedAt: T(30),
        sources: {
          dialogueId: 'dlg_1',
          sessionId: 'ses_1a',
          turnIds: ['trn_1a1'],
          messageIds: ['m_01'],
          memoryIds: ['mem_2'],
        },
      }),
      memory('mem_4', {
        ownerId: 'agt_default',
        subjectId: 'hum_a',
        kind: 'preference',
        text: 'Ada prefers short answers',
        importance: 0.7,
        updatedAt: T(40),
      }),
      memory('mem_5', {
        ownerId: 'agt_two',
        subjectId: 'hum_b',
        kind: 'event',
        text: 'Bo ran a marathon',
        updatedAt: T(50),
      }),
    ];
    const llm = (
      id: string,
      turnId: string | undefined,
      dialogueId: string,
      when: Date,
      usage: [number, number, number] | null,
      task?: string,
    ): EventLog => ({
      _id: id,
      kind: 'llm_call',
      dialogueId,
      ...(turnId ? { turnId } : {}),
      at: when,
      data: {
        ...(task ? { task } : {}),
        model: 'fake',
        usage: usage ? { promptTokens: usage[0], completionTokens: usage[1], totalTokens: usage[2] } : null,
      },
    });
    const events: EventLog[] = [
      {
        _id: 'evt_ctx',
        kind: 'context_built',
        dialogueId: 'dlg_1',
        turnId: 'trn_1b1',
        at: T(120),
        data: { totalTokens: 42 },
      },
      llm('evt_llm1', 'trn_1b1', 'dlg_1', T(121), [10, 5, 15]),
      llm('evt_llm2', 'trn_1b1', 'dlg_1', T(122), [100, 20, 120], 'extract_memories'),
      llm('evt_llm3', 'trn_2b1', 'dlg_2', T(151), [7, 3, 10]),
      llm('evt_llm4', 'trn_2b1', 'dlg_2', T(152), null),
      llm('evt_llm5', 'trn_4a1', 'dlg_4', OLD, [1000, 1000, 2000]),
    ];
    await Promise.all([
      c.humans.insertMany(humans),
      c.agents.insertOne(nova),
      c.dialogues.insertMany(dialogues),
      c.sessions.insertMany(Object.values(s)),
      c.turns.insertMany(turns),
      c.messages.insertMany(messages),
      // Through the repository, which marks each memory scope as the app's writers do.
      h.app.store.memories.insertMany(memories),
      c.events.insertMany(events),
    ]);
    // Warnings as the pipeline records them: one per dialogue and category, counted on repeats.
    await h.app.store.events.warnOnce({
      dialogueId: 'dlg_1',
      turnId: 'trn_1b1',
      category: 'middle_section',
      data: { tokens: 900 },
      at: T(125),
    });
    await h.app.store.events.warnOnce({
      dialogueId: 'dlg_1',
      turnId: 'trn_1b2',
      category: 'middle_section',
      data: { tokens: 950 },
      at: T(200),
    });
    await h.app.store.events.warnOnce({
      dialogueId: 'dlg_2',
      turnId: 'trn_2b1',
      category: 'conversation_max_tokens',
      data: { tokens: 5000 },
      at: T(150),
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('filters dialogues by type, platform, status and last activity', async () => {
    const list = async (args: string) =>
      ids((await q<{ dialogues: Conn<Id> }>(`{ dialogues${args} { edges { node { id } } } }`)).dialogues);
    expect(await list('')).toEqual(['dlg_1', 'dlg_2', 'dlg_3', 'dlg_4']);
    expect(await list('(type: group)')).toEqual(['dlg_2']);
    expect(await list('(platform: telegram)')).toEqual(['dlg_1', 'dlg_3', 'dlg_4']);
    expect(await list('(status: archived)')).toEqual(['dlg_3']);
    expect(await list(`(since: "${iso(T(150))}")`)).toEqual(['dlg_1', 'dlg_2']);
    expect(await list(`(since: "${iso(T(0))}", until: "${iso(T(200))}")`)).toEqual(['dlg_3']);
    expect(await list(`(type: human_ai, status: active, platform: telegram, first: 1)`)).toEqual(['dlg_1']);
    const bad = await fails(`{ dialogues(since: "${iso(T(10))}", until: "${iso(T(5))}") { edges { node { id } } } }`);
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/since .* must not be after until/);
  });

  it('filters sessions, turns and messages at every level', async () => {
    type D = {
      dialogue: {
        all: Conn<Id>;
        reflection: Conn<Id>;
        open: Conn<Id & { unresponded: Conn<Id>; late: Conn<Id> }>;
        window: Conn<Id>;
      };
    };
    const d = (
      await q<D>(`{ dialogue(id: "dlg_1") {
        all: sessions(kind: dialogue) { edges { node { id } } }
        reflection: sessions(kind: self_reflection) { edges { node { id } } }
        open: sessions(status: open) { edges { node { id
          unresponded: turns(status: unresponded) { edges { node { id } } }
          late: turns(since: "${iso(T(200))}") { edges { node { id } } } } } }
        window: sessions(since: "${iso(T(60))}", until: "${iso(T(120))}") { edges { node { id } } } } }`)
    ).dialogue;
    expect(ids(d.all)).toEqual(['ses_1a', 'ses_1b']);
    expect(ids(d.reflection)).toEqual(['ses_1r']);
    expect(ids(d.open)).toEqual(['ses_1b']);
    expect(ids(d.open.edges[0]!.node.unresponded)).toEqual(['trn_1b2']);
    expect(ids(d.open.edges[0]!.node.late)).toEqual(['trn_1b2', 'trn_1b3']);
    expect(ids(d.window)).toEqual(['ses_1r']);

    type TM = Id & { ai: Conn<Id>; images: Conn<Id>; early: Conn<Id> };
    const turns = (
      await q<{
        dialogue: { sessions: Conn<{ turns: Conn<TM> }> };
      }>(`{ dialogue(id: "dlg_1") { sessions(kind: dialogue, first: 1) { edges { node { turns { edges { node { id
        ai: messages(role: ai) { edges { node { id } } }
        images: messages(contentType: image) { edges { node { id } } }
        early: messages(until: "${iso(T(1))}") { edges { node { id } } } } } } } } } } }`)
    ).dialogue.sessions.edges[0]!.node.turns.edges.map((e) => e.node);
    expect(turns.map((t) => [t.id, ids(t.ai), ids(t.images), ids(t.early)])).toEqual([
      ['trn_1a1', ['m_02'], [], ['m_01']],
      ['trn_1a2', [], ['m_03'], []],
    ]);
  });

  it('lists a dialogue’s messages in time order with filters, batched across dialogues', async () => {
    type M = { dialogue: { all: Conn<Id>; human: Conn<Id>; commands: Conn<Id>; window: Conn<Id> } };
    const m = (
      await q<M>(`{ dialogue(id: "dlg_1") {
        all: messages(first: 50) { edges { node { id } } }
        human: messages(role: human) { edges { node { id } } }
        commands: messages(contentType: command) { edges { node { id } } }
        window: messages(since: "${iso(T(120))}", until: "${iso(T(200))}") { edges { node { id } } } } }`)
    ).dialogue;
    expect(ids(m.all)).toEqual(['m_01', 'm_02', 'm_03', 'm_04', 'm_05', 'm_06', 'm_07', 'm_08']);
    expect(ids(m.human)).toEqual(['m_01', 'm_03', 'm_04', 'm_07', 'm_08']);
    expect(ids(m.commands)).toEqual(['m_07']);
    expect(ids(m.window)).toEqual(['m_04', 'm_05', 'm_06']);
    const many = await q<{ dialogues: Conn<Id & { messages: Conn<Id> }> }>(
      `{ dialogues { edges { node { id messages(role: ai, first: 5) { edges { node { id } } } } } } }`,
    );
    expect(Object.fromEntries(many.dialogues.edges.map((e) => [e.node.id, ids(e.node.messages)]))).toEqual({
      dlg_1: ['m_02', 'm_05'],
      dlg_2: ['m_10'],
      dlg_3: [],
      dlg_4: [],
    });
  });

  it('resolves the relations between levels', async () => {
    type R = {
      d1: {
        latestSession: Id;
        humans: Array<{ id: string; displayName: string }>;
        agents: Array<{ id: string; name: string }>;
      };
      d2: {
        latestSession: Id;
        humans: Array<{ id: string; displayName: string }>;
        agents: Array<{ id: string; name: string }>;
      };
      lone: { turn: Id | null; session: Id & { dialogue: Id }; dialogue: Id };
      inTurn: { turn: Id & { session: Id & { dialogue: { title: string } }; dialogue: Id } };
    };
    const r = await q<R>(`{
      d1: dialogue(id: "dlg_1") { latestSession { id } humans { id displayName } agents { id name } }
      d2: dialogue(id: "dlg_2") { latestSession { id } humans { id displayName } agents { id name } }
      lone: message(id: "m_06") { turn { id } session { id dialogue { id } } dialogue { id } }
      inTurn: message(id: "m_04") { turn { id session { id dialogue { title } } dialogue { id } } } }`);
    expect(r.d1.latestSession.id).toBe('ses_1b'); // the current session
    expect(r.d2.latestSession.id).toBe('ses_2b'); // no current one recorded: the latest started
    expect(r.d1.humans).toEqual([{ id: 'hum_a', displayName: 'Ada' }]);
    expect(r.d1.agents.map((a) => a.id)).toEqual(['agt_default']);
    expect(r.d2.humans.map((x) => x.displayName)).toEqual(['Ada', 'Bo']);
    expect(r.d2.agents).toEqual([{ id: 'agt_two', name: 'Nova' }]);
    expect(r.lone).toEqual({
      turn: null,
      session: { id: 'ses_1b', dialogue: { id: 'dlg_1' } },
      dialogue: { id: 'dlg_1' },
    });
    expect(r.inTurn.turn).toEqual({
      id: 'trn_1b1',
      session: { id: 'ses_1b', dialogue: { title: 'First' } },
      dialogue: { id: 'dlg_1' },
    });
  });

  it('resolves relations of a whole list in a fixed number of round trips', async () => {
    const query = `{ dialogues { edges { node { id humans { id } agents { id } latestSession { id dialogue { id } }
      messages(first: 5) { edges { node { id turn { id } session { id } } } } } } }
      humans { edges { node { id dialogues { edges { node { id } } } } } } }`;
    reads.length = 0;
    const r = await q<{ dialogues: Conn<Id & { latestSession: Id | null; messages: Conn<Id & { turn: Id | null }> }> }>(
      query,
    );
    expect(r.dialogues.edges.map((e) => e.node.latestSession?.id)).toEqual(['ses_1b', 'ses_2b', 'ses_3a', 'ses_4a']);
    expect(r.dialogues.edges[0]!.node.messages.edges.map((e) => e.node.turn?.id)).toEqual([
      'trn_1a1',
      'trn_1a1',
      'trn_1a2',
      'trn_1b1',
      'trn_1b1',
    ]);
    // dialogues, humans, agents, current sessions, latest-started sessions, their dialogues (two
    // batches: current and latest-started sessions resolve in different ticks), messages, turns,
    // message sessions; humans and their dialogues: one read each however many parents
    // (4 dialogues, 3 humans) — a query per parent would make this several times longer.
    expect(reads.length, reads.join('\n')).toBeLessThanOrEqual(12);
    expect(reads.filter((x) => x.startsWith('find dialogues')).length).toBeLessThanOrEqual(4);
  });

  it('answers unresponded turns and the latest session of a dialogue', async () => {
    const first = await q<{ unrespondedTurns: Conn<Id> }>(
      '{ unrespondedTurns(dialogueId: "dlg_1", first: 1) { edges { node { id } } pageInfo { hasNextPage endCursor } } }',
    );
    expect(ids(first.unrespondedTurns)).toEqual(['trn_1b2']);
    const rest = await q<{ unrespondedTurns: Conn<Id> }>(
      'query ($after: String) { unrespondedTurns(dialogueId: "dlg_1", first: 5, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }',
      {
        after: first.unrespondedTurns.pageInfo.endCursor,
      },
    );
    expect(ids(rest.unrespondedTurns)).toEqual(['trn_1a2']);
    expect(rest.unrespondedTurns.pageInfo.hasNextPage).toBe(false);
    expect(
      ids(
        (await q<{ unrespondedTurns: Conn<Id> }>('{ unrespondedTurns(dialogueId: "dlg_2") { edges { node { id } } } }'))
          .unrespondedTurns,
      ),
    ).toEqual([]);
    expect((await q<{ latestSession: Id }>('{ latestSession(dialogueId: "dlg_1") { id } }')).latestSession.id).toBe(
      'ses_1b',
    );
    expect((await fails('{ unrespondedTurns(dialogueId: "dlg_nope") { edges { node { id } } } }')).code).toBe(
      'CONVERSATION_NOT_FOUND',
    );
    expect((await fails('{ latestSession(dialogueId: "dlg_nope") { id } }')).code).toBe('CONVERSATION_NOT_FOUND');
  });

  it('lists humans with their dialogues, tone and persona card', async () => {
    type H = Id & { dialogues: Conn<Id> };
    const all = await q<{
      humans: Conn<H>;
      discord: Conn<Id>;
    }>(`{ humans { edges { node { id dialogues { edges { node { id } } } } } }
      discord: humans(platform: discord) { edges { node { id } } } }`);
    expect(all.humans.edges.map((e) => [e.node.id, ids(e.node.dialogues)])).toEqual([
      ['hum_c', ['dlg_4']],
      ['hum_b', ['dlg_2', 'dlg_3']],
      ['hum_a', ['dlg_1', 'dlg_2']],
    ]);
    expect(ids(all.discord)).toEqual(['hum_b']);

    type One = {
      human: {
        displayName: string;
        identities: Array<{ platform: string; userId: string; username: string | null }>;
        tone: { template: string; scores: { anxiety: number } };
        groups: Conn<Id>;
        personaCard: {
          name: string;
          visits: number;
          concerns: string[];
          preferences: string[];
          lastTopic: string;
          emotionalState: string;
          text: string;
        };
      };
    };
    const { human } = await q<One>(
      `{ human(id: "hum_a") { displayName identities { platform userId username } tone { template scores { anxiety } }
      groups: dialogues(type: group) { edges { node { id } } }
      personaCard { name visits concerns preferences lastTopic emotionalState text } } }`,
      {},
      TEST_VIEWER_TOKEN,
    );
    expect(human.identities).toEqual([{ platform: 'telegram', userId: '111', username: 'ada' }]);
    expect(human.tone).toEqual({ template: 'high_anxiety', scores: { anxiety: 2.5 } });
    expect(ids(human.groups)).toEqual(['dlg_2']);
    expect(human.personaCard).toMatchObject({
      name: 'Ada',
      visits: 3,
      preferences: ['Ada prefers short answers'],
      lastTopic: 'Talked about the cat',
      emotionalState: 'high_anxiety',
    });
    expect(human.personaCard.concerns).toContain('Ada has a cat named Mochi');
    expect(human.personaCard.concerns).not.toContain('Ada has a dog'); // retired memories are not the human's now
    expect(human.personaCard.text).toContain('Ada prefers short answers');
    expect((await fails('{ human(id: "hum_nope") { id } }')).code).toBe('NOT_FOUND');
    expect((await fails('{ human(id: "hum_a") { personaCard(agentId: "agt_nope") { name } } }')).code).toBe(
      'NOT_FOUND',
    );
  });

  it('lists agents with their personas and their sessions by type', async () => {
    const { agents } = await q<{ agents: Conn<Id & { isDefault: boolean }> }>(
      '{ agents { edges { node { id isDefault } } } }',
    );
    // Oldest first: Nova was stored before this run created the default agent.
    expect(agents.edges.map((e) => e.node)).toEqual([
      { id: 'agt_two', isDefault: false },
      { id: 'agt_default', isDefault: true },
    ]);
    type A = {
      agent: {
        name: string;
        aliases: string[];
        bindings: unknown[];
        basePersona: string;
        evolvedPersona: string;
        evolvedPersonaHistory: Array<{ text: string }>;
        repliesSinceEvolve: number;
        sessions: Conn<Id>;
      };
    };
    const r =
      await h.gql<A>(`{ agent(id: "agt_two") { name aliases bindings { platform userId username } basePersona evolvedPersona evolvedPersonaHistory { text }
      repliesSinceEvolve sessions { edges { node { id } } } } }`);
    expect(r.body.data!.agent).toEqual({
      name: 'Nova',
      aliases: ['nov'],
      bindings: [{ platform: 'discord', userId: '999', username: 'nova-bot' }],
      basePersona: 'Curious.',
      evolvedPersona: 'Curious and warm.',
      evolvedPersonaHistory: [{ text: 'Curious v1.' }],
      repliesSinceEvolve: 3,
      sessions: { edges: [{ node: { id: 'ses_2b' } }, { node: { id: 'ses_2a' } }] },
    });
    expect(JSON.stringify(r.body)).not.toContain(TEST_BOT_TOKEN);
    const d = await q<{
      agent: { reflection: Conn<Id>; dialogue: Conn<Id>; closed: Conn<Id> };
    }>(`{ agent(id: "agt_default") {
      reflection: sessions(kind: self_reflection) { edges { node { id } } }
      dialogue: sessions(kind: dialogue, first: 2) { edges { node { id } } }
      closed: sessions(status: closed, since: "${iso(T(0))}") { edges { node { id } } } } }`);
    expect(ids(d.agent.reflection)).toEqual(['ses_1r']);
    expect(ids(d.agent.dialogue)).toEqual(['ses_1b', 'ses_3a']);
    expect(ids(d.agent.closed)).toEqual(['ses_1r', 'ses_3a', 'ses_1a']);
    expect((await fails('{ agent(id: "agt_nope") { id } }')).code).toBe('NOT_FOUND');
  });

  it('lists memories with filters and follows a fact’s history', async () => {
    const list = async (args: string) =>
      ids((await q<{ memories: Conn<Id> }>(`{ memories${args} { edges { node { id } } } }`)).memories);
    expect(await list('(ownerId: "agt_default", subjectId: "hum_a")')).toEqual(['mem_4', 'mem_3', 'mem_2', 'mem_1']);
    expect(await list('(ownerId: "agt_default", status: active)')).toEqual(['mem_4', 'mem_3']);
    expect(await list('(ownerId: "agt_default", kind: preference)')).toEqual(['mem_4']);
    expect(await list('(subjectId: "hum_b")')).toEqual(['mem_5']);
    expect((await fails('{ memories(ownerId: "agt_nope") { edges { node { id } } } }')).code).toBe('NOT_FOUND');

    type Mem = {
      status: string;
      supersededBy: (Id & { mergedInto: Id | null }) | null;
      chain: Array<Id & { status: string }>;
    };
    const old = (
      await q<{ memory: Mem }>(
        '{ memory(id: "mem_1") { status supersededBy { id mergedInto { id } } chain { id status } } }',
      )
    ).memory;
    expect(old.status).toBe('superseded');
    expect(old.supersededBy).toEqual({ id: 'mem_2', mergedInto: { id: 'mem_3' } });
    expect(old.chain).toEqual([
      { id: 'mem_2', status: 'merged' },
      { id: 'mem_3', status: 'active' },
    ]);
    type Cur = {
      memory: {
        text: string;
        chain: unknown[];
        owner: { name: string };
        subject: { displayName: string };
        sources: {
          dialogue: Id;
          sessionId: string;
          turnIds: string[];
          messageIds: string[];
          memories: Array<{ text: string }>;
        };
      };
    };
    const cur = (
      await q<Cur>(
        '{ memory(id: "mem_3") { text chain { id } owner { name } subject { displayName } sources { dialogue { id } sessionId turnIds messageIds memories { text } } } }',
      )
    ).memory;
    expect(cur).toMatchObject({ text: 'Ada has a cat named Mochi', chain: [], subject: { displayName: 'Ada' } });
    expect(cur.sources).toEqual({
      dialogue: { id: 'dlg_1' },
      sessionId: 'ses_1a',
      turnIds: ['trn_1a1'],
      messageIds: ['m_01'],
      memories: [{ text: 'Ada has a cat' }],
    });
    expect((await fails('{ memory(id: "mem_nope") { id } }')).code).toBe('NOT_FOUND');
  });

  it('searches an agent’s memories semantically without counting it as a recall', async () => {
    type S = { searchMemories: { hits: Array<{ memory: Id & { text: string }; score: number }>; queries: string[] } };
    const r = await q<S>(
      '{ searchMemories(ownerId: "agt_default", subjectId: "hum_a", text: "What is the name of her cat?", limit: 5) { hits { memory { id text } score } queries } }',
    );
    expect(r.searchMemories.hits[0]!.memory.id).toBe('mem_3');
    expect(r.searchMemories.hits.map((x) => x.memory.id)).not.toContain('mem_1'); // only active memories are searched
    expect(r.searchMemories.hits.every((x) => x.score > 0)).toBe(true);
    expect(r.searchMemories.queries.length).toBeGreaterThan(0);
    expect((await h.app.store.memories.get('mem_3'))!.recall.count).toBe(0);
    const other = await q<S>(
      '{ searchMemories(ownerId: "agt_two", text: "marathon running", limit: 1) { hits { memory { id text } score } queries } }',
    );
    expect(other.searchMemories.hits.map((x) => x.memory.id)).toEqual(['mem_5']);
    expect((await fails('{ searchMemories(ownerId: "agt_default", text: "cat", limit: 21) { queries } }')).code).toBe(
      'BAD_REQUEST',
    );
    expect((await fails('{ searchMemories(ownerId: "agt_default", text: "  ") { queries } }')).code).toBe(
      'BAD_REQUEST',
    );
    expect((await fails('{ searchMemories(ownerId: "agt_nope", text: "cat") { queries } }')).code).toBe('NOT_FOUND');
    expect(
      (await fails('{ searchMemories(ownerId: "agt_default", subjectId: "hum_nope", text: "cat") { queries } }')).code,
    ).toBe('NOT_FOUND');
  });

  it('lists warnings newest first and the event log of a turn', async () => {
    type W = {
      warnings: Conn<{
        dialogueId: string;
        category: string;
        count: number;
        firstAt: string;
        lastAt: string;
        lastTurnId: string;
      }>;
    };
    const all = (
      await q<W>('{ warnings { edges { node { dialogueId category count firstAt lastAt lastTurnId } } } }')
    ).warnings.edges.map((e) => e.node);
    expect(all).toEqual([
      {
        dialogueId: 'dlg_2',
        category: 'conversation_max_tokens',
        count: 1,
        firstAt: iso(T(150)),
        lastAt: iso(T(150)),
        lastTurnId: 'trn_2b1',
      },
      {
        dialogueId: 'dlg_1',
        category: 'middle_section',
        count: 2,
        firstAt: iso(T(125)),
        lastAt: iso(T(200)),
        lastTurnId: 'trn_1b2',
      },
    ]);
    const cats = async (args: string) =>
      (await q<W>(`{ warnings${args} { edges { node { category } } } }`)).warnings.edges.map((e) => e.node.category);
    expect(await cats('(dialogueId: "dlg_1")')).toEqual(['middle_section']);
    expect(await cats(`(since: "${iso(T(160))}")`)).toEqual(['middle_section']);
    expect(await cats(`(until: "${iso(T(130))}")`)).toEqual(['middle_section']);
    expect(await cats(`(since: "${iso(T(201))}")`)).toEqual([]);
    expect((await fails('{ warnings(dialogueId: "dlg_nope") { edges { node { id } } } }')).code).toBe(
      'CONVERSATION_NOT_FOUND',
    );

    type E = { events: Conn<{ id: string; kind: string }> };
    const ev = (await q<E>('{ events(turnId: "trn_1b1") { edges { node { id kind } } } }')).events.edges.map(
      (e) => e.node.id,
    );
    expect(ev).toEqual(['evt_ctx', 'evt_llm1', 'evt_llm2', expect.stringMatching(/^evt/)]); // + the warning raised in the turn
    expect(
      (await q<E>('{ events(turnId: "trn_1b1", kind: llm_call) { edges { node { id kind } } } }')).events.edges.map(
        (e) => e.node.id,
      ),
    ).toEqual(['evt_llm1', 'evt_llm2']);
    expect(
      (
        await q<E>(`{ events(dialogueId: "dlg_2", kind: llm_call, since: "${iso(T(152))}") { edges { node { id } } } }`)
      ).events.edges.map((e) => e.node.id),
    ).toEqual(['evt_llm4']);
    expect((await fails('{ events { edges { node { id } } } }')).code).toBe('BAD_REQUEST');
    expect((await fails('{ events(turnId: "trn_nope") { edges { node { id } } } }')).code).toBe('NOT_FOUND');
  });

  it('counts, measures reply latency and sums tokens over a window', async () => {
    const STATS = `query ($since: DateTime, $until: DateTime, $dialogueId: ID) { stats(since: $since, until: $until, dialogueId: $dialogueId) {
      since until dialogueId dialogues { created active } sessions turns { total pending responded unresponded } messages { total human ai system }
      replyLatency { count p50Ms p90Ms p99Ms maxMs sampled } tokens { calls promptTokens completionTokens totalTokens byTask { task calls totalTokens } } } }`;
    type S = { stats: Record<string, unknown> & { since: string; until: string } };
    const week = (await q<S>(STATS)).stats;
    expect(Date.parse(week.until) - Date.parse(week.since)).toBe(7 * DAY);
    expect(week).toMatchObject({
      dialogueId: null,
      dialogues: { created: 3, active: 3 },
      sessions: 6,
      turns: { total: 8, pending: 1, responded: 5, unresponded: 2 },
      messages: { total: 11, human: 7, ai: 3, system: 1 },
      replyLatency: { count: 5, p50Ms: 3000, p90Ms: 10_000, p99Ms: 10_000, maxMs: 10_000, sampled: false },
      tokens: {
        calls: 4,
        promptTokens: 117,
        completionTokens: 28,
        totalTokens: 145,
        byTask: [
          { task: 'extract_memories', calls: 1, totalTokens: 120 },
          { task: 'reply', calls: 3, totalTokens: 25 },
        ],
      },
    });
    const one = (await q<S>(STATS, { dialogueId: 'dlg_1' })).stats;
    expect(one).toMatchObject({
      dialogueId: 'dlg_1',
      dialogues: { created: 1, active: 1 },
      sessions: 3,
      turns: { total: 5, pending: 1, responded: 2, unresponded: 2 },
      messages: { total: 8, human: 5, ai: 2, system: 1 },
      replyLatency: { count: 2, p50Ms: 1000, p90Ms: 2000 },
      tokens: { calls: 2, totalTokens: 135 },
    });
    const past = (
      await q<S>(STATS, { since: iso(new Date(OLD.getTime() - DAY)), until: iso(new Date(OLD.getTime() + DAY)) })
    ).stats;
    expect(past).toMatchObject({
      dialogues: { created: 1 },
      turns: { total: 1, responded: 1 },
      replyLatency: { count: 1, p50Ms: 99_999 },
      tokens: { totalTokens: 2000 },
    });

    expect(
      (await fails('{ stats(since: "2024-01-01T00:00:00Z", until: "2025-06-01T00:00:00Z") { sessions } }')).message,
    ).toMatch(/366 days/);
    expect(
      (await fails('{ stats(since: "2025-01-02T00:00:00Z", until: "2025-01-01T00:00:00Z") { sessions } }')).code,
    ).toBe('BAD_REQUEST');
    expect((await fails('{ stats(dialogueId: "dlg_nope") { sessions } }')).code).toBe('CONVERSATION_NOT_FOUND');
  });

  it('rejects oversized pages and malformed cursors on every new list', async () => {
    const cases = [
      '{ dialogue(id: "dlg_1") { messages(first: 101) { edges { node { id } } } } }',
      '{ humans(first: 101) { edges { node { id } } } }',
      '{ memories(first: 500) { edges { node { id } } } }',
      '{ humans(after: "bm90IGEgY3Vyc29y") { edges { node { id } } } }',
      '{ unrespondedTurns(dialogueId: "dlg_1", after: "%%%") { edges { node { id } } } }',
      '{ agent(id: "agt_default") { sessions(after: "x") { edges { node { id } } } } }',
      '{ warnings(after: "x") { edges { node { id } } } }',
    ];
    for (const query of cases) expect((await fails(query)).code, query).toBe('BAD_REQUEST');
  });
});

describe('GraphQL queries over a real pipeline run', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('reads back a Telegram DM: search finds both sides, stats count the turn and its tokens', async () => {
    h.llm.enqueue({ kind: 'reply', chunks: ['Bonjour ', 'Ada, ', '很高兴见到你！'], chunkDelayMs: 20 });
    h.tg.pushUpdate(
      privateText({ updateId: 1, chatId: 424242, firstName: 'Ada', text: 'Hello from the pipeline, 你好世界' }),
    );
    const dialogue = await eventually(
      async () => (await h.app.store.c.dialogues.findOne({ 'chat.chatId': '424242' })) ?? undefined,
      15_000,
      'dialogue',
    );
    const turn = await eventually(
      async () => (await h.app.store.c.turns.findOne({ dialogueId: dialogue._id, status: 'responded' })) ?? undefined,
      15_000,
      'turn responded',
    );

    type Found = { searchMessages: Conn<{ senderRole: string; content: string }> };
    const human = await h.gql<Found>('{ searchMessages(text: "好世") { edges { node { senderRole content } } } }');
    expect(human.body.data!.searchMessages.edges.map((e) => e.node)).toEqual([
      { senderRole: 'human', content: 'Hello from the pipeline, 你好世界' },
    ]);
    const reply = await h.gql<Found>(
      `{ searchMessages(text: "ADA, 很高兴", dialogueId: "${dialogue._id}") { edges { node { senderRole content } } } }`,
    );
    expect(reply.body.data!.searchMessages.edges.map((e) => e.node)).toEqual([
      { senderRole: 'ai', content: 'Bonjour Ada, 很高兴见到你！' },
    ]);

    type S = {
      stats: {
        turns: { responded: number };
        replyLatency: { count: number; p50Ms: number };
        tokens: { byTask: Array<{ task: string; calls: number; promptTokens: number; totalTokens: number }> };
      };
    };
    const s = await h.gql<S>(
      `{ stats(dialogueId: "${dialogue._id}") { turns { responded } replyLatency { count p50Ms } tokens { byTask { task calls promptTokens totalTokens } } } }`,
    );
    expect(s.body.errors).toBeUndefined();
    const stats = s.body.data!.stats;
    expect(stats.turns.responded).toBe(1);
    expect(stats.replyLatency).toEqual({ count: 1, p50Ms: turn.responseTime });
    const replyCalls = (await h.app.store.events.ofTurn(turn._id)).filter(
      (e) => e.kind === 'llm_call' && e.data.task === undefined,
    );
    const usage = replyCalls.map((e) => e.data.usage as { promptTokens: number; totalTokens: number });
    const byReply = stats.tokens.byTask.find((t) => t.task === 'reply')!;
    expect(byReply.calls).toBe(replyCalls.length);
    expect(byReply.totalTokens).toBe(usage.reduce((n, u) => n + u.totalTokens, 0));
    expect(byReply.promptTokens).toBeGreaterThan(0);

    type D = {
      dialogue: {
        latestSession: { id: string; turns: Conn<{ id: string; status: string }> };
        humans: Array<{ displayName: string; dialogues: Conn<Id> }>;
      };
    };
    const d = await h.gql<D>(
      `{ dialogue(id: "${dialogue._id}") { latestSession { id turns(status: responded) { edges { node { id status } } } } humans { displayName dialogues { edges { node { id } } } } } }`,
    );
    expect(d.body.data!.dialogue.latestSession.turns.edges.map((e) => e.node.id)).toEqual([turn._id]);
    expect(d.body.data!.dialogue.humans.map((x) => [x.displayName, ids(x.dialogues)])).toEqual([
      ['Ada', [dialogue._id]],
    ]);
  });
});
