// The operator mutations over HTTP against a running gateway (gateway, worker and API roles,
// fake Telegram and OpenAI): turns, sessions, posted messages, summaries, persona evolution and
// dialogue deletion, each with the role that may use it, the roles that may not, and bad input.
import { dialogueRecord, sessionRecord } from '../support/records.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_OPERATOR_TOKEN, TEST_VIEWER_TOKEN, eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { Message, Session, Turn } from '../../src/domain/model.js';
import { DEFAULT_AGENT_ID } from '../../src/store/participants.js';
import { successorIdOf } from '../../src/store/sessions.js';
import { RedisReplyLease } from '../../jobs/replyLease.js';

type Gql = Awaited<ReturnType<Harness['gql']>>;
const codeOf = (r: Gql) => r.body.errors?.[0]?.extensions?.code;
const noStack = (r: Gql) => expect(JSON.stringify(r.body)).not.toMatch(/at .*\.(ts|js):\d+/);

const TURN_FIELDS =
  'id status kind initiatorRole responderRole startedAt deadlineAt closedAt responseWindowMs responseTimeMs';
const OPEN_TURN = `mutation ($s: ID!, $ir: Role!, $iid: String!, $rr: Role!, $rid: String!, $w: Int) {
  openTurn(sessionId: $s, initiatorRole: $ir, initiatorId: $iid, responderRole: $rr, responderId: $rid, responseWindowMinutes: $w) { ${TURN_FIELDS} } }`;
const CLOSE_TURN = `mutation ($t: ID!, $s: CloseTurnStatus!) { closeTurn(turnId: $t, status: $s) { ${TURN_FIELDS} } }`;
const SESSION_FIELDS = 'id dialogueId kind status closeReason endedAt';
const CREATE_SESSION = `mutation ($d: ID!, $k: NewSessionKind!) { createSession(dialogueId: $d, kind: $k) { ${SESSION_FIELDS} } }`;
const CLOSE_SESSION = `mutation ($s: ID!, $r: CloseSessionReason!) { closeSession(sessionId: $s, reason: $r) { ${SESSION_FIELDS} } }`;
const POST = `mutation ($d: ID!, $text: String!, $as: PostMessageAs!) {
  postMessage(dialogueId: $d, text: $text, as: $as) { id sessionId turnId senderRole senderId content delivery { state platformMessageIds error { code } } } }`;

interface TurnOut {
  id: string;
  status: string;
  kind: string;
  startedAt: string;
  deadlineAt: string;
  closedAt: string | null;
  responseWindowMs: number;
  responseTimeMs: number | null;
}
interface SessionOut {
  id: string;
  dialogueId: string;
  kind: string;
  status: string;
  closeReason: string | null;
}
interface PostedOut {
  id: string;
  sessionId: string;
  turnId: string | null;
  senderRole: string;
  senderId: string;
  content: string;
  delivery: { state: string; platformMessageIds: string[]; error: { code: string } | null };
}

describe('GraphQL mutations', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ DEFAULT_LOCALE: 'en' });
  }, 60_000);
  afterAll(async () => {
    await h.stop();
  });

  let update = 0;
  /** A human message through the fake Telegram, answered by the AI; returns the stored message. */
  async function say(chatId: number, text: string): Promise<Message> {
    h.tg.pushUpdate(privateText({ updateId: 70_000 + ++update, chatId, firstName: 'Mia', text }));
    const msg = await eventually(
      async () => (await h.app.store.c.messages.findOne({ content: text, senderRole: 'human' })) ?? undefined,
      15_000,
      `"${text}" stored`,
    );
    await eventually(
      async () => (await h.app.store.turns.get(msg.turnId!))?.status === 'responded',
      20_000,
      `"${text}" answered`,
    );
    return msg;
  }

  async function seedDialogue(
    id: string,
    o: { platform?: 'telegram' | 'discord'; sessionStatus?: Session['status'] } = {},
  ): Promise<{ dialogueId: string; sessionId: string }> {
    const at = new Date();
    const sessionId = `ses_${id}`;
    await h.app.store.c.dialogues.insertOne(
      dialogueRecord({
        id,
        humanIds: ['hum_seed'],
        agentIds: [DEFAULT_AGENT_ID],
        at,
        currentSessionId: sessionId,
        chatId: `9${Math.floor(Math.random() * 1e6)}`,
        ...(o.platform ? { platform: o.platform } : {}),
      }),
    );
    await h.app.store.c.sessions.insertOne(
      sessionRecord({ id: sessionId, dialogueId: id, at, ...(o.sessionStatus ? { status: o.sessionStatus } : {}) }),
    );
    return { dialogueId: id, sessionId };
  }

  it('lets a viewer use no mutation and an operator not delete a dialogue', async () => {
    const { dialogueId, sessionId } = await seedDialogue('dlg_roles');
    const mutations: Record<string, string> = {
      openTurn: `mutation { openTurn(sessionId: "${sessionId}", initiatorRole: ai, initiatorId: "${DEFAULT_AGENT_ID}", responderRole: human, responderId: "hum_seed") { id } }`,
      closeTurn: 'mutation { closeTurn(turnId: "trn_x", status: RESPONDED) { id } }',
      createSession: `mutation { createSession(dialogueId: "${dialogueId}", kind: DIALOGUE) { id } }`,
      closeSession: `mutation { closeSession(sessionId: "${sessionId}", reason: MANUAL) { id } }`,
      postMessage: `mutation { postMessage(dialogueId: "${dialogueId}", text: "hello", as: OPERATOR) { id } }`,
      summarizeSession: `mutation { summarizeSession(sessionId: "${sessionId}") { queued } }`,
      evolvePersona: `mutation { evolvePersona(agentId: "${DEFAULT_AGENT_ID}") { queued } }`,
      deleteDialogue: `mutation { deleteDialogue(id: "${dialogueId}") { found } }`,
      exportDialogue: `mutation { exportDialogue(dialogueId: "${dialogueId}", format: MARKDOWN) { fileName } }`,
      updateConfig: 'mutation { updateConfig(patch: {}) { version } }',
      resetConfig: 'mutation { resetConfig { version } }',
    };
    const sendsBefore = h.tg.callsOf('sendMessage').length;
    for (const [name, doc] of Object.entries(mutations)) {
      const r = await h.gql(doc, {}, TEST_VIEWER_TOKEN);
      expect(codeOf(r), `viewer ${name}`).toBe('FORBIDDEN');
      noStack(r);
    }
    const op = await h.gql(mutations.deleteDialogue!, {}, TEST_OPERATOR_TOKEN);
    expect(codeOf(op)).toBe('FORBIDDEN');
    // Nothing happened: no turn, the session still open, nothing sent, the dialogue still there.
    expect(await h.app.store.c.turns.countDocuments({ dialogueId })).toBe(0);
    expect((await h.app.store.sessions.get(sessionId))?.status).toBe('open');
    expect(h.tg.callsOf('sendMessage').length).toBe(sendsBefore);
    expect(await h.app.store.dialogues.get(dialogueId)).not.toBeNull();
  });

  it('opens and closes turns, one pending turn per open session, with clear errors', async () => {
    const { sessionId } = await seedDialogue('dlg_turns');
    const vars = { s: sessionId, ir: 'ai', iid: DEFAULT_AGENT_ID, rr: 'human', rid: 'hum_seed' };
    const opened = await h.gql<{ openTurn: TurnOut }>(OPEN_TURN, vars, TEST_OPERATOR_TOKEN);
    expect(opened.body.errors).toBeUndefined();
    const turn = opened.body.data!.openTurn;
    expect(turn).toMatchObject({
      status: 'pending',
      kind: 'dialogue',
      initiatorRole: 'ai',
      responderRole: 'human',
      responseWindowMs: h.env.RESPONSE_WINDOW_MS,
    });
    expect(Date.parse(turn.deadlineAt) - Date.parse(turn.startedAt)).toBe(h.env.RESPONSE_WINDOW_MS);
    expect((await h.app.store.sessions.get(sessionId))?.stats.turnCount).toBe(1);

    const second = await h.gql(OPEN_TURN, vars, TEST_OPERATOR_TOKEN);
    expect(codeOf(second)).toBe('BAD_REQUEST');
    expect(second.body.errors?.[0]?.message).toContain(`already has a pending turn (${turn.id})`);

    const closed = await h.gql<{ closeTurn: TurnOut }>(CLOSE_TURN, { t: turn.id, s: 'RESPONDED' }, TEST_OPERATOR_TOKEN);
    expect(closed.body.data?.closeTurn).toMatchObject({ id: turn.id, status: 'responded' });
    expect(closed.body.data!.closeTurn.responseTimeMs).toBe(
      Date.parse(closed.body.data!.closeTurn.closedAt!) - Date.parse(turn.startedAt),
    );
    const again = await h.gql(CLOSE_TURN, { t: turn.id, s: 'UNRESPONDED' }, TEST_OPERATOR_TOKEN);
    expect(codeOf(again)).toBe('BAD_REQUEST');
    expect(again.body.errors?.[0]?.message).toContain('already responded');
    expect((await h.app.store.turns.get(turn.id))?.status).toBe('responded');

    const short = await h.gql<{ openTurn: TurnOut }>(OPEN_TURN, { ...vars, w: 5 }, TEST_OPERATOR_TOKEN);
    expect(short.body.data?.openTurn.responseWindowMs).toBe(5 * 60_000);
    const expired = await h.gql<{ closeTurn: TurnOut }>(
      CLOSE_TURN,
      { t: short.body.data!.openTurn.id, s: 'UNRESPONDED' },
      TEST_OPERATOR_TOKEN,
    );
    expect(expired.body.data?.closeTurn).toMatchObject({ status: 'unresponded', responseTimeMs: null });
    expect(expired.body.data?.closeTurn.closedAt).not.toBeNull();

    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ ...vars, s: 'ses_nope' }, 'NOT_FOUND', /no session/],
      [{ ...vars, w: 0 }, 'BAD_REQUEST', /responseWindowMinutes/],
      [{ ...vars, w: 7 * 24 * 60 + 1 }, 'BAD_REQUEST', /responseWindowMinutes/],
      [{ ...vars, rid: 'hum_stranger' }, 'BAD_REQUEST', /not a human of dialogue/],
      [{ ...vars, iid: ' ' }, 'BAD_REQUEST', /initiator\.id/],
    ];
    for (const [v, code, message] of cases) {
      const r = await h.gql(OPEN_TURN, v, TEST_OPERATOR_TOKEN);
      expect(codeOf(r), JSON.stringify(v)).toBe(code);
      expect(r.body.errors?.[0]?.message).toMatch(message);
      noStack(r);
    }
    const { sessionId: closedSession } = await seedDialogue('dlg_turns_closed', { sessionStatus: 'closed' });
    const inClosed = await h.gql(OPEN_TURN, { ...vars, s: closedSession }, TEST_OPERATOR_TOKEN);
    expect(codeOf(inClosed)).toBe('BAD_REQUEST');
    expect(inClosed.body.errors?.[0]?.message).toContain('is closed');
    expect(codeOf(await h.gql(CLOSE_TURN, { t: 'trn_nope', s: 'RESPONDED' }, TEST_OPERATOR_TOKEN))).toBe('NOT_FOUND');
  });

  it('creates and closes sessions; the next message opens a fresh session; a human answer closes an operator-opened turn', async () => {
    const CHAT = 850_001;
    const first = await say(CHAT, 'Hello there, I am testing sessions.');
    const dialogueId = first.dialogueId;

    const created = await h.gql<{ createSession: SessionOut }>(
      CREATE_SESSION,
      { d: dialogueId, k: 'DIALOGUE' },
      TEST_OPERATOR_TOKEN,
    );
    expect(created.body.errors).toBeUndefined();
    const s2 = created.body.data!.createSession;
    expect(s2).toMatchObject({ dialogueId, kind: 'dialogue', status: 'open' });
    expect(await h.app.store.sessions.get(first.sessionId)).toMatchObject({ status: 'closed', closeReason: 'manual' });
    expect((await h.app.store.dialogues.get(dialogueId))?.currentSessionId).toBe(s2.id);

    const reflection = await h.gql<{ createSession: SessionOut }>(
      CREATE_SESSION,
      { d: dialogueId, k: 'SELF_REFLECTION' },
      TEST_OPERATOR_TOKEN,
    );
    expect(reflection.body.data?.createSession).toMatchObject({ kind: 'self_reflection', status: 'open' });
    expect((await h.app.store.dialogues.get(dialogueId))?.currentSessionId).toBe(s2.id);

    const closed = await h.gql<{ closeSession: SessionOut }>(
      CLOSE_SESSION,
      { s: s2.id, r: 'TASK_COMPLETED' },
      TEST_OPERATOR_TOKEN,
    );
    expect(closed.body.data?.closeSession).toMatchObject({
      id: s2.id,
      status: 'closed',
      closeReason: 'task_completed',
    });
    const twice = await h.gql(CLOSE_SESSION, { s: s2.id, r: 'MANUAL' }, TEST_OPERATOR_TOKEN);
    expect(codeOf(twice)).toBe('BAD_REQUEST');
    expect(twice.body.errors?.[0]?.message).toContain('already closed');

    const next = await say(CHAT, 'Are you still there after the session ended?');
    expect([first.sessionId, s2.id, reflection.body.data!.createSession.id]).not.toContain(next.sessionId);
    expect(await h.app.store.sessions.get(next.sessionId)).toMatchObject({ status: 'open', kind: 'dialogue' });
    expect((await h.app.store.dialogues.get(dialogueId))?.currentSessionId).toBe(next.sessionId);

    // An AI-initiated turn opened by an operator is answered by the human's next message.
    const opened = await h.gql<{ openTurn: TurnOut }>(
      OPEN_TURN,
      { s: next.sessionId, ir: 'ai', iid: DEFAULT_AGENT_ID, rr: 'human', rid: first.senderId },
      TEST_OPERATOR_TOKEN,
    );
    expect(opened.body.errors).toBeUndefined();
    const answer = await say(CHAT, 'Yes, I am answering your question.');
    const answered = await h.app.store.turns.get(opened.body.data!.openTurn.id);
    expect(answered).toMatchObject({ status: 'responded', responseMessageId: answer._id });

    // A turn the AI must answer, opened by an operator, is answered at once (not by the sweeper).
    await eventually(async () => (await h.app.store.turns.openIn(next.sessionId)) === null, 15_000, 'no pending turn');
    const sendsBefore = h.tg.callsOf('sendMessage').length;
    const forAi = await h.gql<{ openTurn: TurnOut }>(
      OPEN_TURN,
      { s: next.sessionId, ir: 'human', iid: first.senderId, rr: 'ai', rid: DEFAULT_AGENT_ID },
      TEST_OPERATOR_TOKEN,
    );
    expect(forAi.body.errors).toBeUndefined();
    const replied = await eventually(
      async () => {
        const t = await h.app.store.turns.get(forAi.body.data!.openTurn.id);
        return t?.status === 'responded' ? t : undefined;
      },
      10_000,
      'the AI answers the operator-opened turn',
    );
    expect(replied.outcome).toBe('complete');
    expect(h.tg.callsOf('sendMessage').length).toBeGreaterThan(sendsBefore);

    expect(codeOf(await h.gql(CREATE_SESSION, { d: 'dlg_nope', k: 'DIALOGUE' }, TEST_OPERATOR_TOKEN))).toBe(
      'CONVERSATION_NOT_FOUND',
    );
    expect(codeOf(await h.gql(CLOSE_SESSION, { s: 'ses_nope', r: 'MANUAL' }, TEST_OPERATOR_TOKEN))).toBe('NOT_FOUND');
  }, 90_000);

  it('posts operator and system messages to Telegram, recorded as system utterances that no AI answers', async () => {
    const CHAT = 850_002;
    const first = await say(CHAT, 'Hi, please keep me posted.');
    const { dialogueId, sessionId } = first;
    const before = {
      dialogue: (await h.app.store.dialogues.get(dialogueId))!,
      session: (await h.app.store.sessions.get(sessionId))!,
      turns: await h.app.store.c.turns.countDocuments({ dialogueId }),
      aiMessages: await h.app.store.c.messages.countDocuments({ dialogueId, senderRole: 'ai' }),
      llm: h.llm.requests.length + h.llm.responsesRequests.length,
    };
    const text = 'Scheduled maintenance tonight at 22:00 — 今晚十点维护，请提前保存。';
    const r = await h.gql<{ postMessage: PostedOut }>(
      POST,
      { d: dialogueId, text, as: 'OPERATOR' },
      TEST_OPERATOR_TOKEN,
    );
    expect(r.body.errors).toBeUndefined();
    const posted = r.body.data!.postMessage;
    expect(posted).toMatchObject({
      senderRole: 'system',
      senderId: 'operator:op',
      content: text,
      turnId: null,
      sessionId,
    });
    expect(posted.delivery.state).toBe('complete');
    expect(posted.delivery.platformMessageIds).toHaveLength(1);
    // It reached the chat, as the bot.
    expect(h.tg.sentText(CHAT)).toContain(text);
    const event = await h.app.store.c.events.findOne({ kind: 'system_utterance', messageId: posted.id });
    expect(event?.data).toMatchObject({ code: 'operator_message', by: 'op', content: text });

    // Counted like any message, and no AI reply follows.
    expect((await h.app.store.dialogues.get(dialogueId))?.messageCount).toBe(before.dialogue.messageCount + 1);
    expect((await h.app.store.sessions.get(sessionId))?.stats.messageCount).toBe(before.session.stats.messageCount + 1);
    await new Promise((res) => setTimeout(res, 1500));
    expect(await h.app.store.c.turns.countDocuments({ dialogueId })).toBe(before.turns);
    expect(h.llm.requests.length + h.llm.responsesRequests.length).toBe(before.llm);
    // Counted against the dialogue's AI messages before the post, not by time: the first reply's
    // own message may be younger than the wait when the machine is quick.
    expect(await h.app.store.c.messages.countDocuments({ dialogueId, senderRole: 'ai' })).toBe(before.aiMessages);

    // Longer than one Telegram message: split like replies, every part recorded.
    const long = `${'All systems will restart in order. '.repeat(260)}`.trim();
    const split = await h.gql<{ postMessage: PostedOut }>(
      POST,
      { d: dialogueId, text: long, as: 'SYSTEM' },
      TEST_OPERATOR_TOKEN,
    );
    expect(split.body.data?.postMessage).toMatchObject({ senderId: 'system', delivery: { state: 'complete' } });
    expect(split.body.data!.postMessage.delivery.platformMessageIds).toHaveLength(3);
    expect(h.tg.sentText(CHAT).slice(-3).join(' ').replace(/\s+/g, ' ')).toBe(long);

    // The platform refuses: recorded with a stable code, not lost.
    h.tg.failNext('sendMessage', { error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    const refused = await h.gql<{ postMessage: PostedOut }>(
      POST,
      { d: dialogueId, text: 'Are you there?', as: 'OPERATOR' },
      TEST_OPERATOR_TOKEN,
    );
    expect(refused.body.errors).toBeUndefined();
    expect(refused.body.data?.postMessage.delivery).toMatchObject({
      state: 'error',
      platformMessageIds: [],
      error: { code: 'PLATFORM_REJECTED' },
    });
    expect((await h.app.store.messages.get(refused.body.data!.postMessage.id))?.delivery?.error?.code).toBe(
      'PLATFORM_REJECTED',
    );
  }, 90_000);

  it('refuses empty, oversized and undeliverable messages before storing or sending anything', async () => {
    const { dialogueId } = await seedDialogue('dlg_post_bad');
    const { dialogueId: discordDialogue } = await seedDialogue('dlg_post_discord', { platform: 'discord' });
    const sends = h.tg.callsOf('sendMessage').length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ d: dialogueId, text: '', as: 'OPERATOR' }, 'MESSAGE_CONTENT_REQUIRED'],
      [{ d: dialogueId, text: ' \n\t ', as: 'SYSTEM' }, 'MESSAGE_CONTENT_REQUIRED'],
      [{ d: dialogueId, text: '长'.repeat(10_001), as: 'OPERATOR' }, 'MESSAGE_TOO_LONG'],
      [{ d: 'dlg_nope', text: 'hello', as: 'OPERATOR' }, 'CONVERSATION_NOT_FOUND'],
      [{ d: discordDialogue, text: 'hello', as: 'OPERATOR' }, 'PLATFORM_NOT_CONFIGURED'],
    ];
    for (const [v, code] of cases) {
      const r = await h.gql(POST, v, TEST_OPERATOR_TOKEN);
      expect(codeOf(r), code).toBe(code);
      noStack(r);
    }
    expect(h.tg.callsOf('sendMessage').length).toBe(sends);
    expect(await h.app.store.c.messages.countDocuments({ dialogueId: { $in: [dialogueId, discordDialogue] } })).toBe(0);
    // Exactly at the limit is fine.
    const max = await h.gql<{ postMessage: PostedOut }>(
      POST,
      { d: dialogueId, text: '长'.repeat(10_000), as: 'SYSTEM' },
      TEST_OPERATOR_TOKEN,
    );
    expect(max.body.data?.postMessage.delivery.state).toBe('complete');
  });

  it('summarises a session in the worker: it closes as summarized and a seeded successor becomes current', async () => {
    const CHAT = 850_003;
    const first = await say(CHAT, 'I adopted a cat called Mochi yesterday.');
    await say(CHAT, 'She loves sleeping on my keyboard.');
    const r = await h.gql<{ summarizeSession: { sessionId: string; queued: boolean } }>(
      `mutation ($s: ID!) { summarizeSession(sessionId: $s) { sessionId queued } }`,
      { s: first.sessionId },
      TEST_OPERATOR_TOKEN,
    );
    expect(r.body.data?.summarizeSession).toEqual({ sessionId: first.sessionId, queued: true });
    const done = await eventually(
      async () => {
        const s = await h.app.store.sessions.get(first.sessionId);
        return s?.closeReason === 'summarized' ? s : undefined;
      },
      30_000,
      'session summarized',
    );
    expect(done.summary).toContain('Mochi');
    const successor = successorIdOf(first.sessionId);
    expect((await h.app.store.dialogues.get(first.dialogueId))?.currentSessionId).toBe(successor);
    expect(await h.app.store.sessions.get(successor)).toMatchObject({
      status: 'open',
      seed: { fromSessionId: first.sessionId },
    });
    const next = await say(CHAT, 'What was I telling you about?');
    expect(next.sessionId).toBe(successor);

    const unknown = await h.gql(
      `mutation { summarizeSession(sessionId: "ses_nope") { queued } }`,
      {},
      TEST_OPERATOR_TOKEN,
    );
    expect(codeOf(unknown)).toBe('NOT_FOUND');
  }, 120_000);

  it("evolves the agent's persona in the worker", async () => {
    await say(850_004, 'I play the cello every evening.');
    const before = (await h.app.store.participants.getAgent(DEFAULT_AGENT_ID))?.evolvedPersona;
    const r = await h.gql<{ evolvePersona: { agentId: string; queued: boolean } }>(
      `mutation { evolvePersona(agentId: "${DEFAULT_AGENT_ID}") { agentId queued } }`,
      {},
      TEST_OPERATOR_TOKEN,
    );
    expect(r.body.data?.evolvePersona).toEqual({ agentId: DEFAULT_AGENT_ID, queued: true });
    const after = await eventually(
      async () => {
        const p = (await h.app.store.participants.getAgent(DEFAULT_AGENT_ID))?.evolvedPersona;
        return p !== undefined && p !== before ? p : undefined;
      },
      30_000,
      'persona evolved',
    );
    expect(after).toContain('Recently:');
    expect(
      codeOf(await h.gql(`mutation { evolvePersona(agentId: "agt_nope") { queued } }`, {}, TEST_OPERATOR_TOKEN)),
    ).toBe('NOT_FOUND');
  }, 90_000);

  it('deletes a dialogue with everything under it (admin), waiting for a running reply', async () => {
    const { dialogueId, sessionId } = await seedDialogue('dlg_delete');
    const at = new Date();
    await h.app.store.c.turns.insertOne({
      _id: 'trn_delete',
      dialogueId,
      sessionId,
      kind: 'dialogue',
      initiatorRole: 'human',
      initiatorId: 'hum_seed',
      responderRole: 'ai',
      responderId: DEFAULT_AGENT_ID,
      startedAt: at,
      responseWindowMs: 1000,
      deadlineAt: at,
      status: 'responded',
    } satisfies Turn);
    await h.app.store.c.messages.insertMany(
      ['a', 'b'].map((x): Message => ({
        _id: `msg_delete_${x}`,
        dialogueId,
        sessionId,
        turnId: 'trn_delete',
        senderRole: 'human',
        senderId: 'hum_seed',
        contentType: 'text',
        content: x,
        mentions: [],
        visible: true,
        createdAt: at,
        updatedAt: at,
      })),
    );
    await h.app.store.events.record({ kind: 'warning', dialogueId, data: {} });
    const { dialogueId: other } = await seedDialogue('dlg_keep');

    // A reply holds the dialogue's lease: the deletion waits for it instead of racing it.
    const redis = new Redis(h.env.REDIS_URL, { maxRetriesPerRequest: null });
    const release = await new RedisReplyLease(redis, h.env.QUEUE_PREFIX, 30_000).acquire(dialogueId);
    expect(release).not.toBeNull();
    const pending = h.gql<{ deleteDialogue: { found: boolean; deleted: Record<string, number> } }>(
      `mutation ($id: ID!) { deleteDialogue(id: $id) { found deleted { messages archivedMessages turns sessions events memories } } }`,
      { id: dialogueId },
    );
    await new Promise((res) => setTimeout(res, 800));
    expect(await h.app.store.c.messages.countDocuments({ dialogueId })).toBe(2);
    await release!();
    await redis.quit();
    const r = await pending;
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.deleteDialogue).toEqual({
      found: true,
      deleted: { messages: 2, archivedMessages: 0, turns: 1, sessions: 1, events: 1, memories: 0 },
    });
    expect(await h.app.store.dialogues.get(dialogueId)).toBeNull();
    expect(codeOf(await h.gql(`{ dialogue(id: "${dialogueId}") { id } }`))).toBe('CONVERSATION_NOT_FOUND');
    expect(await h.app.store.dialogues.get(other)).not.toBeNull();
    expect(await h.app.store.sessions.get(`ses_${other}`)).not.toBeNull();

    const again = await h.gql(`mutation { deleteDialogue(id: "${dialogueId}") { found } }`);
    expect(codeOf(again)).toBe('CONVERSATION_NOT_FOUND');
    noStack(again);
  });

  it('gives up with DIALOGUE_BUSY when a reply keeps the lease, deleting nothing', async () => {
    const { dialogueId, sessionId } = await seedDialogue('dlg_busy');
    const redis = new Redis(h.env.REDIS_URL, { maxRetriesPerRequest: null });
    const release = await new RedisReplyLease(redis, h.env.QUEUE_PREFIX, 30_000).acquire(dialogueId);
    try {
      const started = Date.now();
      const r = await h.gql(`mutation { deleteDialogue(id: "${dialogueId}") { found } }`);
      expect(codeOf(r)).toBe('DIALOGUE_BUSY');
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
      expect(await h.app.store.dialogues.get(dialogueId)).not.toBeNull();
      expect(await h.app.store.sessions.get(sessionId)).not.toBeNull();
    } finally {
      await release?.();
      await redis.quit();
    }
  }, 30_000);
});
