// Rolling summary and the summarise action against the real MongoDB-wire server and Redis, with
// the fake OpenAI server's task brain as the model: the oldest turns folded once (and only
// once), whole-session mode folding nothing, a summarised session closed with its summary and
// memories and continued in a seeded successor, idempotent reruns, the model down (nothing
// lost), and the summary of a session closed by the idle gap.
import { startMemoryRig, type MemoryRig } from '../support/memoryRig.js';
import { dialogueRecord, sessionRecord } from '../support/records.js';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { Agent, Human, MemoryEntry, Message, Session, Turn } from '../../src/domain/model.js';
import { findSimilar } from '../../src/memory/similar.js';
import { successorIdOf } from '../../src/store/sessions.js';
import { updateRollingSummary } from '../../src/summary/rollingSummary.js';
import {
  summarizeSession,
  PLOT_IMPORTANCE,
  SUMMARY_IMPORTANCE,
  type SummarizeDeps,
} from '../../src/summary/summarizeSession.js';
import { summarizeClosedSession } from '../../src/summary/closeSummary.js';
import { type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { sectionsOf } from '../doubles/fakeSummaryBrain.js';

const AGENT = 'agt_rainbow';
const HUMAN = 'hum_alice';
const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 2, 18, 0, 0);
/** Turns start ten minutes apart; the reply comes a minute after the human's message. */
const TURN_GAP = 10 * MIN;
/** "Later": a day after the session started, long after its last turn. */
const DAY_AFTER = 24 * 3_600_000;

let rig: MemoryRig;
let store: Store;
let llm: FakeOpenAI;
let deps: SummarizeDeps;
let idleChecks: Array<{ sessionId: string; at: Date }>;

beforeAll(async () => {
  rig = await startMemoryRig();
  ({ store, llm } = rig);
});

afterAll(() => rig.close());

let dialogueId: string;
let sessionId: string;

beforeEach(async () => {
  llm.reset();
  idleChecks = [];
  deps = {
    ...rig.taskDeps(),
    scheduleIdleCheck: (id, at) => {
      idleChecks.push({ sessionId: id, at });
      return Promise.resolve();
    },
  };
  dialogueId = `dlg_${randomBytes(4).toString('hex')}`;
  sessionId = `ses_${randomBytes(4).toString('hex')}`;
  const at = new Date(T0);
  await store.c.agents.insertOne({
    _id: AGENT,
    name: 'Rainbow',
    basePersona: 'A kind companion.',
    isDefault: true,
    createdAt: at,
    updatedAt: at,
  } satisfies Agent);
  await store.c.humans.insertOne({
    _id: HUMAN,
    identities: [{ platform: 'telegram', userId: '42' }],
    displayName: 'Alice',
    createdAt: at,
    updatedAt: at,
  } satisfies Human);
  await store.c.dialogues.insertOne(
    dialogueRecord({ id: dialogueId, humanIds: [HUMAN], agentIds: [AGENT], at, currentSessionId: sessionId }),
  );
  await store.c.sessions.insertOne(sessionRecord({ id: sessionId, dialogueId, at }));
});

afterEach(() => rig.clear());

interface SeededTurn {
  turn: Turn;
  human: Message;
  reply: Message;
}

/** What Alice says in turn `i` (1-based): a distinct first sentence per turn. */
const said = (i: number): string => `Topic ${i}: I practised piece number ${i} on the cello. It went fine.`;

/** Turn `i` (1-based) of the session: Alice's message at T0 + (i-1)·10 min, the reply a minute later. */
async function seedTurn(
  i: number,
  o: { session?: string; replyState?: 'complete' | 'error'; text?: string } = {},
): Promise<SeededTurn> {
  const ses = o.session ?? sessionId;
  const at = T0 + (i - 1) * TURN_GAP;
  const turnId = `trn_${ses}_${String(i).padStart(2, '0')}`;
  const turn: Turn = {
    _id: turnId,
    dialogueId,
    sessionId: ses,
    kind: 'dialogue',
    initiatorRole: 'human',
    initiatorId: HUMAN,
    responderRole: 'ai',
    responderId: AGENT,
    startedAt: new Date(at),
    responseWindowMs: 3 * 3_600_000,
    deadlineAt: new Date(at + 3 * 3_600_000),
    status: 'responded',
    closedAt: new Date(at + MIN),
    responseTime: MIN,
    outcome: o.replyState ?? 'complete',
  };
  const human: Message = {
    _id: `msg_${turnId}_h`,
    dialogueId,
    sessionId: ses,
    turnId,
    senderRole: 'human',
    senderId: HUMAN,
    contentType: 'text',
    content: o.text ?? said(i),
    contentMeta: { senderName: 'Alice' },
    mentions: [],
    visible: true,
    platformRef: { platform: 'telegram', chatId: dialogueId, messageId: `${ses}-${i}-h` },
    createdAt: new Date(at),
    updatedAt: new Date(at),
  };
  const failed = o.replyState === 'error';
  const reply: Message = {
    _id: `msg_${turnId}_a`,
    dialogueId,
    sessionId: ses,
    turnId,
    senderRole: 'ai',
    senderId: AGENT,
    contentType: 'text',
    content: failed ? '' : `Reply ${i}: that sounds lovely.`,
    mentions: [],
    visible: true,
    delivery: failed
      ? {
          state: 'error',
          platformMessageIds: [],
          error: { code: 'LLM_SERVICE_ERROR', message: 'down' },
          completedAt: new Date(at + MIN),
        }
      : { state: 'complete', platformMessageIds: [`${ses}-${i}-a`], completedAt: new Date(at + MIN) },
    createdAt: new Date(at + MIN),
    updatedAt: new Date(at + MIN),
  };
  await store.c.turns.insertOne(turn);
  // Through the repository, as ingest and replies store them: the session's working window follows.
  for (const m of [human, reply]) await store.messages.insertOnce(m);
  return { turn, human, reply };
}

async function seedTurns(from: number, to: number, o: { session?: string } = {}): Promise<SeededTurn[]> {
  const out: SeededTurn[] = [];
  for (let i = from; i <= to; i++) out.push(await seedTurn(i, o));
  const ses = o.session ?? sessionId;
  const last = new Date(T0 + (to - 1) * TURN_GAP + MIN);
  await store.c.sessions.updateOne(
    { _id: ses },
    { $set: { lastActivityAt: last }, $inc: { 'stats.messageCount': 2 * out.length, 'stats.turnCount': out.length } },
  );
  await store.c.dialogues.updateOne(
    { _id: dialogueId },
    { $set: { lastActivityAt: last }, $inc: { messageCount: 2 * out.length } },
  );
  return out;
}

const session = async (id = sessionId): Promise<Session> => (await store.sessions.get(id))!;
const memories = async (): Promise<MemoryEntry[]> =>
  store.c.memories.find({ ownerId: AGENT }).sort({ kind: 1, text: 1 }).toArray();
const taskNames = (): string[] => llm.taskRequests.map((r) => r.task);
const line = (at: number, who: 'user (Alice)' | 'assistant (Rainbow)', text: string): string =>
  `[${new Date(at).toISOString()}] ${who}: ${text}`;
const humanLine = (i: number): string => line(T0 + (i - 1) * TURN_GAP, 'user (Alice)', said(i));
/** The fake model's session summary of turns `ks`: each speaker by name and what they said first. */
const talkedAbout = (ks: number[]): string =>
  `Alice talked about: ${ks.map((i) => `Topic ${i}: I practised piece number ${i} on the cello.`).join(' / ')} ` +
  `Rainbow talked about: ${ks.map((i) => `Reply ${i}: that sounds lovely.`).join(' / ')}`;

describe('rolling summary', () => {
  it('folds all but the last 10 of 20 turns once, then does nothing until more turns come', async () => {
    const turns = await seedTurns(1, 20);
    const now = new Date(T0 + 20 * TURN_GAP);
    const r = await updateRollingSummary(deps, { sessionId, now });
    // Turn 11's first message is the first one kept raw: everything before it is in the summary.
    expect(r).toEqual({
      kind: 'folded',
      turns: 10,
      messages: 20,
      turnsFolded: 10,
      coversUntil: turns[10]!.human.createdAt,
    });

    const stored = (await session()).rollingSummary!;
    // Each speaker named as the transcript named them: Alice, and the agent by its name.
    expect(stored).toEqual({
      text: Array.from({ length: 10 }, (_, k) => [
        `- Alice: Topic ${k + 1}: I practised piece number ${k + 1} on the cello.`,
        `- Rainbow: Reply ${k + 1}: that sounds lovely.`,
      ])
        .flat()
        .join('\n'),
      coversUntil: turns[10]!.human.createdAt,
      turnsFolded: 10,
      updatedAt: now,
    });
    // The model saw exactly turns 1–10, Alice and the agent by name, with their own times; no earlier summary.
    expect(taskNames()).toEqual(['rolling_summary']);
    const input = llm.taskRequests[0]!.input;
    expect(input).toContain('### Current summary\n(none)');
    expect(input).toContain(humanLine(1));
    expect(input).toContain(line(T0 + 9 * TURN_GAP + MIN, 'assistant (Rainbow)', 'Reply 10: that sounds lovely.'));
    expect(input).not.toContain('Topic 11:');
    // The session stays open; nothing else moved.
    expect(await session()).toMatchObject({ status: 'open', stats: { turnCount: 20, messageCount: 40 } });
    const events = await store.c.events.find({ sessionId, kind: 'llm_call' }).toArray();
    expect(events.map((e) => e.data.task)).toEqual(['rolling_summary']);

    // Ten raw turns left: below the threshold, no call, no change.
    const again = await updateRollingSummary(deps, { sessionId, now: new Date(now.getTime() + MIN) });
    expect(again).toEqual({ kind: 'skipped', reason: 'below_threshold' });
    expect(llm.taskRequests).toHaveLength(1);
    expect((await session()).rollingSummary).toEqual(stored);

    // Six more turns: 16 raw > 15, so turns 11–16 fold on top of the stored summary.
    const more = await seedTurns(21, 26);
    const third = await updateRollingSummary(deps, { sessionId, now: new Date(T0 + 26 * TURN_GAP) });
    expect(third).toEqual({
      kind: 'folded',
      turns: 6,
      messages: 12,
      turnsFolded: 16,
      coversUntil: turns[16]!.human.createdAt,
    });
    expect(more).toHaveLength(6);
    const second = sectionsOf(llm.taskRequests[1]!.input);
    expect(second.get('Current summary')).toBe(stored.text);
    const folded = second.get('Messages to fold')!;
    expect(folded.split('\n')).toHaveLength(12);
    expect(folded).toContain(humanLine(11));
    expect(folded).toContain(humanLine(16));
    expect(folded).not.toContain('Topic 10:');
    expect(folded).not.toContain('Topic 17:');
    const text = (await session()).rollingSummary!.text;
    expect(text.split('\n')).toHaveLength(32);
    expect(text.split('\n').slice(30)).toEqual([
      '- Alice: Topic 16: I practised piece number 16 on the cello.',
      '- Rainbow: Reply 16: that sounds lovely.',
    ]);
  });

  it('follows the configured thresholds and leaves failed replies out of the transcript', async () => {
    await store.config.update({ thresholds: { summary_threshold_turns: 6, recent_turns: 2 } }, new Date(T0));
    await seedTurn(1);
    await seedTurn(2, { replyState: 'error' });
    await seedTurns(3, 7);
    const r = await updateRollingSummary(deps, { sessionId, now: new Date(T0 + DAY_AFTER) });
    expect(r).toMatchObject({
      kind: 'folded',
      turns: 5,
      messages: 10,
      turnsFolded: 5,
      coversUntil: new Date(T0 + 5 * TURN_GAP),
    });
    const input = llm.taskRequests[0]!.input;
    // The failed reply of turn 2 is not a line; its human message is.
    expect(input).toContain(humanLine(2));
    expect(input.match(/\] assistant \(Rainbow\): /g)).toHaveLength(4);
    expect(input).not.toContain('Topic 6:');
  });

  it('folds nothing in whole-session mode (conversation_load_all)', async () => {
    await seedTurns(1, 20);
    await store.config.update({ preferences: { conversation_load_all: true } }, new Date(T0));
    const r = await updateRollingSummary(deps, { sessionId, now: new Date(T0 + DAY_AFTER) });
    expect(r).toEqual({ kind: 'skipped', reason: 'load_all' });
    expect(llm.taskRequests).toHaveLength(0);
    expect((await session()).rollingSummary).toBeUndefined();
  });

  it('writes nothing when the model fails, and folds on the retry', async () => {
    const turns = await seedTurns(1, 16);
    llm.enqueueTask({ kind: 'error', status: 500, message: 'the model is down' });
    await expect(updateRollingSummary(deps, { sessionId, now: new Date(T0 + DAY_AFTER) })).rejects.toMatchObject({
      code: 'LLM_SERVICE_ERROR',
    });
    expect((await session()).rollingSummary).toBeUndefined();
    const retry = await updateRollingSummary(deps, { sessionId, now: new Date(T0 + DAY_AFTER) });
    expect(retry).toMatchObject({ kind: 'folded', turns: 6, coversUntil: turns[6]!.human.createdAt });
  });

  it('two racing runs leave one consistent summary: the same boundary, counted once', async () => {
    const turns = await seedTurns(1, 18);
    const now = new Date(T0 + DAY_AFTER);
    // Slow answers, so both runs read the session before either writes.
    llm.enqueueTask(
      { kind: 'reply', chunks: ['{"summary":"first"}'], firstByteDelayMs: 300 },
      { kind: 'reply', chunks: ['{"summary":"second"}'], firstByteDelayMs: 300 },
    );
    const results = await Promise.all([
      updateRollingSummary(deps, { sessionId, now }),
      updateRollingSummary(deps, { sessionId, now }),
    ]);
    // MongoDB refuses the second write (moved_meanwhile); FerretDB 1.24 does not evaluate the
    // guard atomically, so there both may report success — either way the stored summary is one
    // run's whole result, never a double count.
    expect(results.filter((r) => r.kind === 'folded').length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect(['folded', 'moved_meanwhile']).toContain(r.kind === 'folded' ? 'folded' : r.reason);
    expect((await session()).rollingSummary).toMatchObject({ turnsFolded: 8, coversUntil: turns[8]!.human.createdAt });
    expect(['first', 'second']).toContain((await session()).rollingSummary!.text);
    expect(llm.taskRequests).toHaveLength(2);
    // The next run builds on the stored boundary.
    await seedTurns(19, 26);
    expect(await updateRollingSummary(deps, { sessionId, now })).toMatchObject({
      kind: 'folded',
      turns: 8,
      turnsFolded: 16,
      coversUntil: turns[16]!.human.createdAt,
    });
  });

  it('skips a closed session', async () => {
    await seedTurns(1, 20);
    await store.sessions.close({ _id: sessionId, dialogueId }, 'timeout', new Date(T0 + DAY_AFTER));
    expect(await updateRollingSummary(deps, { sessionId, now: new Date(T0 + DAY_AFTER) })).toEqual({
      kind: 'skipped',
      reason: 'closed',
    });
    expect(llm.taskRequests).toHaveLength(0);
  });
});

describe('summarise a session', () => {
  it('closes the session, writes summary and plot memories, and continues in a seeded successor', async () => {
    await store.config.update(
      { thresholds: { summary_last_n_turns: 3 }, preferences: { summary_order: 'last_n_first' } },
      new Date(T0),
    );
    const turns = await seedTurns(1, 8);
    const now = new Date(T0 + 8 * TURN_GAP);
    const r = await summarizeSession(deps, { sessionId, now, by: 'test' });

    const expectedSummary = talkedAbout([1, 2, 3]);
    const successor = successorIdOf(sessionId);
    expect(r).toEqual({
      summary: expectedSummary,
      newSessionId: successor,
      memories: 1 + 8 + 16,
      alreadySummarized: false,
    });

    // The old session is closed as summarised, with the summary; the dialogue moved on.
    expect(await session()).toMatchObject({
      status: 'closed',
      closeReason: 'summarized',
      endedAt: now,
      summary: expectedSummary,
    });
    expect((await store.dialogues.get(dialogueId))!.currentSessionId).toBe(successor);
    const next = await session(successor);
    expect(next).toMatchObject({
      _id: successor,
      dialogueId,
      kind: 'dialogue',
      status: 'open',
      startedAt: now,
      stats: { messageCount: 0, turnCount: 0 },
      seed: {
        fromSessionId: sessionId,
        summary: expectedSummary,
        // The last 3 turns, human then reply, oldest first.
        messageIds: turns.slice(5).flatMap((t) => [t.human._id, t.reply._id]),
        order: 'last_n_first',
      },
    });
    expect(idleChecks).toEqual([{ sessionId: successor, at: now }]);

    // Memories: the summary and each plot point as `summary`, each detail as `plot`, all with their sources.
    const rows = await memories();
    const summaries = rows.filter((m) => m.kind === 'summary');
    const plots = rows.filter((m) => m.kind === 'plot');
    expect(summaries.map((m) => m.text).sort()).toEqual(
      [expectedSummary, ...Array.from({ length: 8 }, (_, k) => `Alice said: ${said(k + 1)}`)].sort(),
    );
    // 16 transcript lines, cut at 20 details: all of them.
    expect(plots).toHaveLength(16);
    expect(plots.map((m) => m.text)).toContain('Rainbow: Reply 8: that sounds lovely.');
    for (const m of rows) {
      expect(m).toMatchObject({
        ownerId: AGENT,
        subjectId: HUMAN,
        status: 'active',
        sources: { dialogueId, sessionId },
        // When the conversation happened: the session's last activity, not the summarising time.
        occurredAt: new Date(T0 + 7 * TURN_GAP + MIN),
        importance: m.kind === 'summary' ? SUMMARY_IMPORTANCE : PLOT_IMPORTANCE,
      });
      expect(m.embedding?.model).toBe(deps.embedder.id);
    }
    // Recall finds a detail at once (the write noted the scope).
    const [hits] = await findSimilar(
      { embedder: deps.embedder, cache: deps.cache },
      { ownerId: AGENT, subjectId: HUMAN },
      ['Reply 8: that sounds lovely'],
      1,
    );
    expect(hits![0]!.entry.text).toBe('Rainbow: Reply 8: that sounds lovely.');

    // The model saw the whole session with its times.
    expect(taskNames()).toEqual(['summarize_session']);
    const input = llm.taskRequests[0]!.input;
    expect(input).toContain(
      `Session: ${new Date(T0).toISOString()} to ${new Date(T0 + 7 * TURN_GAP + MIN).toISOString()} (UTC)`,
    );
    expect(input).toContain(humanLine(1));
    expect(input).toContain(humanLine(8));

    // Summarising again: the stored result, no model call, nothing new written.
    const again = await summarizeSession(deps, { sessionId, now: new Date(now.getTime() + MIN) });
    expect(again).toEqual({ summary: expectedSummary, newSessionId: successor, memories: 0, alreadySummarized: true });
    expect(llm.taskRequests).toHaveLength(1);
    expect(await store.c.memories.countDocuments({})).toBe(rows.length);
    expect(await store.c.sessions.countDocuments({ dialogueId })).toBe(2);
    expect((await session()).endedAt).toEqual(now);
    expect(idleChecks).toHaveLength(1);
  });

  it('carries the rolling summary into the session summary, with the default order and last 5 turns', async () => {
    const turns = await seedTurns(1, 20);
    await updateRollingSummary(deps, { sessionId, now: new Date(T0 + 20 * TURN_GAP) });
    const rolling = (await session()).rollingSummary!.text;
    const r = await summarizeSession(deps, { sessionId, now: new Date(T0 + 21 * TURN_GAP) });
    expect(r.summary.startsWith(`Earlier: ${rolling.replace(/\n/g, ' ')} Alice talked about: Topic 1:`)).toBe(true);
    expect(llm.taskRequests[1]!.input).toContain(`### Earlier summary\n${rolling}`);
    // Plot points and details are capped (12 and 20) by the output schema.
    expect(r.memories).toBe(1 + 12 + 20);
    expect((await session(r.newSessionId!)).seed).toEqual({
      fromSessionId: sessionId,
      summary: r.summary,
      messageIds: turns.slice(15).flatMap((t) => [t.human._id, t.reply._id]),
      order: 'summary_first',
    });
  });

  it('keeps the session open and writes nothing when the model fails; the retry succeeds', async () => {
    await seedTurns(1, 6);
    llm.enqueueTask({ kind: 'error', status: 500, message: 'the model is down' });
    await expect(summarizeSession(deps, { sessionId, now: new Date(T0 + DAY_AFTER) })).rejects.toMatchObject({
      code: 'LLM_SERVICE_ERROR',
    });
    expect(await session()).toMatchObject({ status: 'open' });
    expect((await session()).summary).toBeUndefined();
    expect((await store.dialogues.get(dialogueId))!.currentSessionId).toBe(sessionId);
    expect(await store.c.memories.countDocuments({})).toBe(0);
    expect(await store.sessions.get(successorIdOf(sessionId))).toBeNull();
    expect(await store.c.messages.countDocuments({ sessionId })).toBe(12);

    // Unusable output twice (not JSON, then no summary) fails the same way.
    llm.enqueueTask(
      { kind: 'reply', chunks: ['sorry, I cannot'] },
      { kind: 'reply', chunks: ['{"summary":"","plotPoints":[]}'] },
    );
    await expect(summarizeSession(deps, { sessionId, now: new Date(T0 + DAY_AFTER) })).rejects.toMatchObject({
      code: 'LLM_SERVICE_ERROR',
    });
    expect(await session()).toMatchObject({ status: 'open' });

    const r = await summarizeSession(deps, { sessionId, now: new Date(T0 + DAY_AFTER) });
    expect(r).toMatchObject({ alreadySummarized: false, newSessionId: successorIdOf(sessionId), memories: 1 + 6 + 12 });
    expect(await session()).toMatchObject({ status: 'closed', closeReason: 'summarized' });
  });

  it('a rerun after a crash between moving the dialogue and closing the session converges on the same successor', async () => {
    await seedTurns(1, 4);
    const now = new Date(T0 + DAY_AFTER);
    const first = await summarizeSession(deps, { sessionId, now });
    // Simulate the crash: the session was never marked.
    await store.c.sessions.updateOne(
      { _id: sessionId },
      { $set: { status: 'open' }, $unset: { closeReason: '', summary: '', endedAt: '' } },
    );
    const count = await store.c.memories.countDocuments({});
    // A model asked again would word it differently; the rerun must not.
    llm.enqueueTask({
      kind: 'reply',
      chunks: [JSON.stringify({ summary: 'A different summary.', plotPoints: ['Something else.'], details: [] })],
    });
    const rerun = await summarizeSession(deps, { sessionId, now: new Date(now.getTime() + MIN) });
    expect(rerun).toEqual({
      alreadySummarized: false,
      newSessionId: first.newSessionId,
      summary: first.summary,
      memories: 0,
    });
    expect(llm.taskRequests).toHaveLength(1);
    expect((await store.dialogues.get(dialogueId))!.currentSessionId).toBe(first.newSessionId);
    expect(await session(first.newSessionId!)).toMatchObject({ status: 'open', seed: { summary: first.summary } });
    expect(await session()).toMatchObject({ status: 'closed', closeReason: 'summarized', summary: first.summary });
    expect(await store.c.memories.countDocuments({})).toBe(count);
    expect(await store.c.sessions.countDocuments({ dialogueId })).toBe(2);
  });

  it('does not steal the dialogue from a session ingest opened meanwhile', async () => {
    await seedTurns(1, 4);
    const newer = await store.sessions.open(dialogueId, 'dialogue', new Date(T0 + DAY_AFTER));
    await store.c.dialogues.updateOne({ _id: dialogueId }, { $set: { currentSessionId: newer._id } });
    await store.sessions.close({ _id: sessionId, dialogueId }, 'timeout', new Date(T0 + 4 * TURN_GAP));
    const r = await summarizeSession(deps, { sessionId, now: new Date(T0 + DAY_AFTER) });
    expect(r.newSessionId).toBeNull();
    expect((await store.dialogues.get(dialogueId))!.currentSessionId).toBe(newer._id);
    expect(await store.sessions.get(successorIdOf(sessionId))).toBeNull();
    // Closed earlier by the gap: it keeps its end time and becomes summarised.
    expect(await session()).toMatchObject({
      status: 'closed',
      closeReason: 'summarized',
      endedAt: new Date(T0 + 4 * TURN_GAP),
      summary: r.summary,
    });
    expect(idleChecks).toEqual([]);
  });
});

describe('summary of an idle-closed session', () => {
  it('summarises a session closed by the gap once, without opening a new one', async () => {
    await seedTurns(1, 3);
    const endedAt = new Date(T0 + 2 * TURN_GAP + MIN + 3_600_000);
    expect(await summarizeClosedSession(deps, { sessionId, now: endedAt })).toEqual({
      kind: 'skipped',
      reason: 'open',
    });
    await store.sessions.close({ _id: sessionId, dialogueId }, 'timeout', endedAt);

    const r = await summarizeClosedSession(deps, { sessionId, now: endedAt });
    const expectedSummary = talkedAbout([1, 2, 3]);
    expect(r).toEqual({ kind: 'summarized', summary: expectedSummary, memories: 1 + 3 + 6 });
    expect(await session()).toMatchObject({
      status: 'closed',
      closeReason: 'timeout',
      endedAt,
      summary: expectedSummary,
    });
    expect(await store.c.sessions.countDocuments({ dialogueId })).toBe(1);
    const rows = await memories();
    expect(rows).toHaveLength(10);
    expect(rows.every((m) => m.sources.sessionId === sessionId && m.occurredAt.getTime() === endedAt.getTime())).toBe(
      true,
    );
    expect(llm.taskRequests[0]!.input).toContain(
      `Session: ${new Date(T0).toISOString()} to ${endedAt.toISOString()} (UTC)`,
    );

    expect(await summarizeClosedSession(deps, { sessionId, now: endedAt })).toEqual({
      kind: 'skipped',
      reason: 'has_summary',
    });
    expect(llm.taskRequests).toHaveLength(1);
    expect(await store.c.memories.countDocuments({})).toBe(10);
  });

  it('summarises a one-exchange session, skips one where nothing was said, and leaves a failed call retryable', async () => {
    await store.sessions.close({ _id: sessionId, dialogueId }, 'timeout', new Date(T0 + 3_600_000));
    expect(await summarizeClosedSession(deps, { sessionId })).toEqual({ kind: 'skipped', reason: 'nothing_said' });
    await seedTurns(1, 1);
    llm.enqueueTask({ kind: 'error', status: 503, message: 'overloaded' });
    await expect(summarizeClosedSession(deps, { sessionId })).rejects.toMatchObject({ code: 'LLM_SERVICE_ERROR' });
    expect((await session()).summary).toBeUndefined();
    const done = await summarizeClosedSession(deps, { sessionId });
    expect(done).toMatchObject({ kind: 'summarized' });
    // The fake model names what the one exchange was about.
    expect(done.kind === 'summarized' && done.summary).toContain('piece number 1 on the cello');
  });
});
