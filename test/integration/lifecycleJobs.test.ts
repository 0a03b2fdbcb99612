// Delayed and scheduled work (SPEC §4.4): proactive check-ins, response-window expiry,
// idle-session close, the lost-job sweeper — and delayed jobs outliving the processes that
// scheduled them.
import { inboundEventSchema } from '../../src/ingest/inboundEvent.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { startApp, type RunningApp } from '../../app/startApp.js';
import { createLogger } from '../../src/log.js';
import { ingest } from '../../src/ingest/ingest.js';
import { noScheduler } from '../support/noScheduler.js';

const CHAT = 313131;
describe('lifecycle jobs', () => {
  let h: Harness;
  const extraApps: RunningApp[] = [];
  afterEach(async () => {
    for (const a of extraApps.splice(0)) await a.stop();
    await h.stop();
  });

  it('checks in after a silence; unanswered, the AI turn becomes unresponded at its deadline and is listed', async () => {
    h = await startHarness({ PROACTIVE_CHECKIN_AFTER_MS: '300', RESPONSE_WINDOW_MS: '800' });
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello!'] }, { kind: 'reply', chunks: ['Still there? How was your day?'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'hi' }));

    const aiTurn = await eventually(
      async () => (await h.app.store.c.turns.findOne({ initiatorRole: 'ai' })) ?? undefined,
      10_000,
      'check-in turn',
    );
    expect(aiTurn).toMatchObject({ responderRole: 'human', status: 'pending' });
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Still there? How was your day?'), 5_000);
    // The check-in prompt carried the instruction after the history.
    expect(String(h.llm.requests[1]!.body.messages.at(-1)!.content)).toMatch(/quiet for a while/);

    const expired = await eventually(
      async () => {
        const t = await h.app.store.turns.get(aiTurn._id);
        return t?.status === 'unresponded' ? t : undefined;
      },
      10_000,
      'check-in turn unresponded',
    );
    expect(expired.closedAt).toEqual(expired.deadlineAt);
    const listed = await h.app.store.turns.unresponded(aiTurn.dialogueId);
    expect(listed.map((t) => t._id)).toEqual([aiTurn._id]);
    // The human's own turn was answered in time: its expiry job changed nothing.
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.app.store.c.turns.countDocuments({ initiatorRole: 'human', status: 'responded' })).toBe(1);
    // Only one check-in: the AI does not keep talking to silence.
    expect(await h.app.store.c.turns.countDocuments({ initiatorRole: 'ai' })).toBe(1);
  });

  it('closes the AI-initiated turn when the human answers, and answers the human', async () => {
    h = await startHarness({ PROACTIVE_CHECKIN_AFTER_MS: '200' });
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Hello!'] },
      { kind: 'reply', chunks: ['Checking in!'] },
      { kind: 'reply', chunks: ['Glad to hear it.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, messageId: 1, text: 'hi' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Checking in!'), 10_000);
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, messageId: 10, text: 'all good here' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Glad to hear it.'), 10_000);

    const aiTurn = await h.app.store.c.turns.findOne({ initiatorRole: 'ai' });
    const answer = await h.app.store.c.messages.findOne({ content: 'all good here' });
    expect(aiTurn).toMatchObject({ status: 'responded', responseMessageId: answer!._id });
    expect(aiTurn!.responseTime).toBeGreaterThan(0);
    // The platform shows the reply just before the turn is closed in the store.
    const humanTurns = await eventually(
      async () => {
        const ts = await h.app.store.c.turns.find({ initiatorRole: 'human' }).sort({ startedAt: 1 }).toArray();
        return ts.length === 2 && ts.every((t) => t.status === 'responded') ? ts : undefined;
      },
      5_000,
      'both human turns responded',
    );
    expect(answer!.turnId).toBe(humanTurns[1]!._id);
  });

  it('a message arriving while a check-in streams is answered after it, knowing what the check-in said', async () => {
    h = await startHarness({ PROACTIVE_CHECKIN_AFTER_MS: '200' });
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Hello!'] },
      { kind: 'reply', chunks: ['Are ', 'you ', 'still ', 'there?'], chunkDelayMs: 300 },
      { kind: 'reply', chunks: ['Yes, right here.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, messageId: 1, text: 'hi' }));
    // The check-in's request reached the model; its answer takes about a second to stream.
    await eventually(() => Promise.resolve(h.llm.requests.length === 2 || undefined), 10_000, 'check-in requested');
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, messageId: 10, text: 'I am back' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Yes, right here.'), 10_000);

    const checkInTurn = await h.app.store.c.turns.findOne({ initiatorRole: 'ai' });
    const checkIn = await h.app.store.c.messages.findOne({ turnId: checkInTurn!._id, senderRole: 'ai' });
    const back = await h.app.store.c.messages.findOne({ content: 'I am back' });
    const answered = await h.app.store.turns.get(back!.turnId!);
    expect(checkIn).toMatchObject({ content: 'Are you still there?', delivery: { state: 'complete' } });
    // One reply at a time: the answer began only once the check-in had been written in full…
    expect(answered!.replyStartedAt!.getTime()).toBeGreaterThanOrEqual(checkIn!.updatedAt.getTime());
    // …so the model saw the check-in, whole, before the person's answer to it.
    const prompt = h.llm.requests[2]!.body.messages.map((m) => String(m.content)).join('\n');
    expect(prompt).toContain('Are you still there?');
    expect(prompt.indexOf('Are you still there?')).toBeLessThan(prompt.lastIndexOf('I am back'));
  });

  it('closes an idle session after the gap, and the next message opens a new one', async () => {
    h = await startHarness({ SESSION_GAP_MS: '600' });
    h.llm.enqueue({ kind: 'reply', chunks: ['One.'] }, { kind: 'reply', chunks: ['Two.'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'first' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('One.'), 10_000);
    const closed = await eventually(
      async () => {
        const s = await h.app.store.c.sessions.findOne({});
        return s?.status === 'closed' ? s : undefined;
      },
      10_000,
      'session closed by its job',
    );
    expect(closed.closeReason).toBe('timeout');
    expect(closed.endedAt).toEqual(closed.lastActivityAt);

    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, text: 'second' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Two.'), 10_000);
    const sessions = await h.app.store.c.sessions.find({}).sort({ startedAt: 1 }).toArray();
    expect(sessions).toHaveLength(2);
    expect(sessions[1]!.status).toBe('open');
  });

  it('re-enqueues a stored turn whose job was lost (crash between store and enqueue)', async () => {
    h = await startHarness({ SWEEP_AFTER_MS: '300' });
    h.llm.enqueue({ kind: 'reply', chunks: ['Found you after all.'] });
    const r = await ingest(
      {
        store: h.app.store,
        enqueueReply: async () => {},
        scheduler: noScheduler,
        sessionGapMs: 3_600_000,
        responseWindowMs: 10_800_000,
      },
      inboundEventSchema.parse({
        platform: 'telegram',
        chat: { chatId: String(CHAT), kind: 'private' },
        platformMessageId: '77',
        sender: { userId: String(CHAT), isBot: false, displayName: 'Lost' },
        text: 'did anyone get this?',
        sentAt: new Date(),
      }),
    );
    expect(r.kind).toBe('accepted');
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Found you after all.'), 10_000);
    await eventually(
      async () => (await h.app.store.c.turns.countDocuments({ status: 'responded' })) === 1,
      5_000,
      'turn responded',
    );
    expect(h.llm.requests).toHaveLength(1);
  });

  it('keeps delayed jobs across a restart of every process', async () => {
    h = await startHarness({ PROACTIVE_CHECKIN_AFTER_MS: '100', RESPONSE_WINDOW_MS: '1500' });
    h.llm.enqueue({ kind: 'reply', chunks: ['Hi.'] }, { kind: 'reply', chunks: ['Are you there?'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'hello' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Are you there?'), 10_000);
    const aiTurn = await eventually(
      async () => (await h.app.store.c.turns.findOne({ initiatorRole: 'ai' })) ?? undefined,
    );
    // Every process goes away while the expiry job is still waiting in Redis…
    await h.app.stop();
    expect(await h.app.store.ping()).toBe(false);
    // …and a brand-new worker process, started later, carries it out.
    const fresh = await startApp(h.env, {
      roles: new Set(['worker']),
      log: createLogger('silent'),
      mongoUri: h.env.MONGODB_URI!,
      redisUrl: h.env.REDIS_URL,
    });
    extraApps.push(fresh);
    const t = await eventually(
      async () => {
        const x = await fresh.store.turns.get(aiTurn._id);
        return x?.status === 'unresponded' ? x : undefined;
      },
      10_000,
      'expiry after restart',
    );
    expect(t.closedAt).toEqual(aiTurn.deadlineAt);
    h.app = fresh; // the harness stops this one (and drops the database)
    extraApps.pop();
  });
});
