// The start of a reply (src/respond/beginReply.ts): the model is asked as soon as the turn is
// read, while its mark ("being answered") is still being stored; nothing of the reply is shown
// before the mark is stored, the dialogue's guard is held until then (so a message arriving
// meanwhile opens the next turn), and a mark that cannot be stored fails the reply before
// anything is shown. A slow or failing store write is simulated on the app's own store.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import type { InboundEventInput } from '../../src/ingest/inboundEvent.js';
import type { Turn } from '../../src/domain/model.js';
import { dialogueIdOf } from '../../src/store/dialogues.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function dm(chatId: string, n: number, text: string): InboundEventInput {
  return {
    kind: 'message',
    platform: 'telegram',
    chat: { chatId, kind: 'private' },
    platformMessageId: String(n),
    sender: { userId: chatId, isBot: false, displayName: 'Ada', languageCode: 'en' },
    text,
    sentAt: new Date(),
  };
}

describe('the start of a reply', () => {
  let h: Harness;
  let original: Harness['app']['store']['turns']['markReplyStarted'];
  beforeAll(async () => {
    h = await startHarness({ STREAM_EDIT_INTERVAL_MS: '50' }, ['gateway', 'worker']);
    original = h.app.store.turns.markReplyStarted.bind(h.app.store.turns);
  });
  afterEach(() => {
    h.app.store.turns.markReplyStarted = original;
  });
  afterAll(async () => {
    await h.stop();
  });

  /** The message is answered after one failed attempt: the model asked twice, `text` sent once. */
  async function answeredOnceAfterRetry(message: InboundEventInput, text: string): Promise<void> {
    h.llm.enqueue({ kind: 'reply', chunks: [text] });
    h.llm.enqueue({ kind: 'reply', chunks: [text] });
    const sentBefore = h.tg.callsOf('sendMessage').length;
    const asksBefore = h.llm.requests.length;
    const r = await h.app.handleInbound(message);
    if (r.kind !== 'accepted') throw new Error(`message ${r.kind}`);
    const turn = await eventually(
      async () => {
        const t = await h.app.store.turns.get(r.turnId);
        return t?.status === 'responded' ? t : undefined;
      },
      20_000,
      'the turn answered after a retry',
    );
    expect(turn.outcome).toBe('complete');
    expect(h.llm.requests.length - asksBefore).toBe(2); // the failed attempt had asked already
    const sends = h.tg.callsOf('sendMessage').slice(sentBefore);
    expect(sends.map((c) => c.params.text)).toEqual([text]);
  }

  it('asks the model before the mark is stored, shows nothing until it is, and a message meanwhile opens the next turn', async () => {
    const chat = '770001';
    let storedAt = 0;
    let first = true;
    h.app.store.turns.markReplyStarted = async (turn: Turn, at: Date, heard?: string[]) => {
      const slow = first;
      first = false;
      if (slow) await sleep(600); // a slow store write, the first reply's only
      const marked = await original(turn, at, heard);
      if (slow) storedAt = Date.now();
      return marked;
    };
    h.llm.enqueue({ kind: 'reply', chunks: ['first', ' answer'] });
    h.llm.enqueue({ kind: 'reply', chunks: ['second answer'] });
    const sentBefore = h.tg.callsOf('sendMessage').length;

    const r1 = await h.app.handleInbound(dm(chat, 1, 'hello there'));
    if (r1.kind !== 'accepted') throw new Error(`first message ${r1.kind}`);
    await eventually(() => Promise.resolve(h.llm.requests.length > 0 || undefined), 5_000, 'the model asked');
    const askedAt = h.llm.requests.at(-1)!.receivedAt;
    // The mark is still being stored: a message now waits for the guard, then opens a new turn.
    const r2 = await h.app.handleInbound(dm(chat, 2, 'and another thing'));
    if (r2.kind !== 'accepted') throw new Error(`second message ${r2.kind}`);

    await eventually(
      async () => {
        const turns = await Promise.all([r1.turnId, r2.turnId].map((id) => h.app.store.turns.get(id)));
        return turns.every((t) => t?.status === 'responded') ? true : undefined;
      },
      15_000,
      'both turns answered',
    );
    expect(storedAt).toBeGreaterThan(0);
    expect(askedAt).toBeLessThan(storedAt);
    expect(r2.turnId).not.toBe(r1.turnId);
    const sends = h.tg.callsOf('sendMessage').slice(sentBefore);
    expect(sends.length).toBe(2);
    expect(Math.min(...sends.map((c) => c.at))).toBeGreaterThanOrEqual(storedAt);
    // The first prompt never held the second message.
    const prompts = h.llm.requests.slice(-2).map((r) => JSON.stringify(r.body.messages));
    expect(prompts[0]).not.toContain('and another thing');
    expect(prompts[1]).toContain('and another thing');
  });

  it('a mark that cannot be stored fails the reply before anything is shown; the retry answers once', async () => {
    const chat = '770002';
    let failures = 1;
    h.app.store.turns.markReplyStarted = async (turn: Turn, at: Date, heard?: string[]) => {
      if (failures-- > 0) {
        await sleep(200); // long enough for the model's answer to be ready to show
        throw new Error('store write failed (simulated)');
      }
      return original(turn, at, heard);
    };
    await answeredOnceAfterRetry(dm(chat, 1, 'are you there?'), 'shown once');
  });

  it('an attempt that fails after its text went out finishes that send before the retry: shown once', async () => {
    // The store gone mid-reply: the model's answer is streaming out when recording the model
    // call fails. The send already under way is recorded late (the store coming back); the
    // retry must find it and edit that message, not send another.
    const chat = '770003';
    const dialogueId = dialogueIdOf({ platform: 'telegram', chatId: chat });
    const { events, messages } = h.app.store;
    const record = events.record.bind(events);
    const recordSent = messages.recordPlatformMessage.bind(messages);
    let failures = 1;
    events.record = async (e) => {
      // This chat's model call only: an earlier test's memory jobs record theirs too.
      if (e.kind === 'llm_call' && e.dialogueId === dialogueId && failures-- > 0)
        throw new Error('store write failed (simulated)');
      return record(e);
    };
    messages.recordPlatformMessage = async (...args) => {
      await sleep(1_500); // longer than the respond job's first retry delay (1 s)
      return recordSent(...args);
    };
    try {
      await answeredOnceAfterRetry(dm(chat, 1, 'still there?'), 'said once');
    } finally {
      events.record = record;
      messages.recordPlatformMessage = recordSent;
    }
  });
});
