// Every way a reply can end (SPEC §4, seed 001), each consistent across the stored message,
// the turn, the trace and what the user sees on Telegram.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { Message } from '../../src/domain/model.js';

const CHAT = 515151;

async function finishedReply(h: Harness, n = 1): Promise<Message[]> {
  return eventually(
    async () => {
      const ai = await h.app.store.c.messages.find({ senderRole: 'ai' }).sort({ createdAt: 1 }).toArray();
      return ai.length >= n && ai.every((m) => m.delivery?.state !== 'streaming') ? ai : undefined;
    },
    15_000,
    `${n} finished AI message(s)`,
  );
}

/** The platform shows the final text just before the turn is closed in the store. */
async function closedTurn(h: Harness, turnId: string) {
  return eventually(
    async () => {
      const t = await h.app.store.turns.get(turnId);
      return t && t.status !== 'pending' ? t : undefined;
    },
    5_000,
    'turn closed',
  );
}

describe('reply outcomes', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('keeps the partial text and tells the user when the LLM stream breaks halfway', async () => {
    h = await startHarness();
    h.llm.enqueue({ kind: 'break', chunks: ['The first half of', ' an answer'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'tell me a story' }));
    const [reply] = await finishedReply(h);
    expect(reply!.delivery?.state).toBe('error');
    expect(reply!.delivery?.error?.code).toBe('LLM_SERVICE_ERROR');
    expect(reply!.content).toBe('The first half of an answer');
    await h.tg.waitFor(
      () =>
        h.tg
          .sentText(CHAT)
          .some((t) => t.startsWith('The first half of an answer') && t.includes('AI service had an error')),
      5_000,
    );
    const turn = await closedTurn(h, reply!.turnId!);
    expect(turn).toMatchObject({ status: 'responded', outcome: 'error' });
    const llmCall = (await h.app.store.events.ofTurn(turn._id)).find((e) => e.kind === 'llm_call');
    expect(llmCall?.data.error).toMatch(/LLM/);
  });

  it('ends a reply that takes longer than the limit as GENERATION_TIMEOUT (BR-004)', async () => {
    h = await startHarness({ LLM_TIMEOUT_MS: '400' });
    h.llm.enqueue({ kind: 'hang' });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'hello?' }));
    const [reply] = await finishedReply(h);
    expect(reply!.delivery).toMatchObject({ state: 'timeout', error: { code: 'GENERATION_TIMEOUT' } });
    expect(reply!.content).toBe('');
    await h.tg.waitFor(() => h.tg.sentText(CHAT).some((t) => /took too long/.test(t)), 5_000);
    expect(await closedTurn(h, reply!.turnId!)).toMatchObject({ status: 'responded', outcome: 'timeout' });
  });

  it('stores "(no reply)" flagged empty when the model says nothing', async () => {
    h = await startHarness();
    h.llm.enqueue({ kind: 'reply', chunks: [] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: '...' }));
    const [reply] = await finishedReply(h);
    expect(reply!.delivery?.state).toBe('empty');
    expect(reply!.content).toBe('(no reply)');
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('(no reply)'), 5_000);
  });

  it('stops a streaming reply on /stop, keeping what was said (BR-005)', async () => {
    h = await startHarness();
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['Once upon a time', ' there was', ' a very', ' long', ' story', ' that', ' never', ' ended.'],
      chunkDelayMs: 250,
    });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, messageId: 1, text: 'tell me a long story' }));
    await h.tg.waitFor((calls) => calls.some((c) => c.method === 'sendMessage'), 5_000);
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, messageId: 3, text: '/stop' }));
    const [reply] = await finishedReply(h);
    expect(reply!.delivery?.state).toBe('interrupted');
    expect(reply!.content.startsWith('Once upon a time')).toBe(true);
    expect(reply!.content).not.toContain('ended.');
    expect(await closedTurn(h, reply!.turnId!)).toMatchObject({ status: 'responded', outcome: 'interrupted' });
    await h.tg.waitFor(() => h.tg.sentText(CHAT).some((t) => t === `${reply!.content} (stopped)`), 5_000);
    // The command is on record but opened no turn and reached no model.
    const command = await h.app.store.c.messages.findOne({ contentType: 'command' });
    expect(command).toMatchObject({ content: '/stop' });
    expect(command?.turnId).toBeUndefined();
    expect(h.llm.requests).toHaveLength(1);
  });

  it('answers /stop with a notice when nothing is being generated', async () => {
    h = await startHarness();
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, languageCode: 'en', text: '/stop' }));
    await h.tg.waitFor(() => h.tg.sentText(CHAT).some((t) => /no reply in progress/.test(t)), 5_000);
    expect(h.llm.requests).toHaveLength(0);
  });

  it('folds messages sent during a reply into the next turn, answered after, in order', async () => {
    h = await startHarness();
    h.llm.enqueue(
      { kind: 'reply', chunks: ['First', ' answer', ' here.'], chunkDelayMs: 250 },
      { kind: 'reply', chunks: ['Second answer.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, messageId: 1, text: 'question one' }));
    await h.tg.waitFor((calls) => calls.some((c) => c.method === 'sendMessage'), 5_000);
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, messageId: 3, text: 'and also this' }));
    h.tg.pushUpdate(privateText({ updateId: 3, chatId: CHAT, messageId: 4, text: 'and this too' }));
    const replies = await finishedReply(h, 2);
    expect(replies.map((r) => r.content)).toEqual(['First answer here.', 'Second answer.']);

    const turns = await h.app.store.c.turns.find({}).sort({ startedAt: 1 }).toArray();
    expect(turns).toHaveLength(2);
    const humanByTurn = async (turnId: string) =>
      (await h.app.store.c.messages.find({ turnId, senderRole: 'human' }).sort({ createdAt: 1 }).toArray()).map(
        (m) => m.content,
      );
    expect(await humanByTurn(turns[0]!._id)).toEqual(['question one']);
    expect(await humanByTurn(turns[1]!._id)).toEqual(['and also this', 'and this too']);
    // The second reply was generated only after the first finished, and saw both new messages.
    const second = h.llm.requests[1]!.body.messages.map((m) => m.content);
    expect(second).toEqual(
      expect.arrayContaining(['question one', 'First answer here.', 'and also this', 'and this too']),
    );
    expect(h.llm.requests[1]!.receivedAt).toBeGreaterThan(replies[0]!.delivery!.completedAt!.getTime() - 5);
    expect(h.tg.callsOf('sendMessage')).toHaveLength(2);
  });
});
