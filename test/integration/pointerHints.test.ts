// A chat's next message reads its session and turn beside the dialogue, from what this process
// last saw (src/ingest/pointerHints.ts). Another process may have moved the dialogue on since:
// the message must still land in the dialogue's real current session and turn.
import { afterEach, describe, expect, it } from 'vitest';
import { inboundEventSchema } from '../../src/ingest/inboundEvent.js';
import { ingest, type IngestDeps } from '../../src/ingest/ingest.js';
import { PointerHints } from '../../src/ingest/pointerHints.js';
import { startNewSession } from '../../src/lifecycle/currentSession.js';
import { noScheduler } from '../support/noScheduler.js';
import { startHarness, type Harness } from '../support/harness.js';

const message = (id: number, text: string) =>
  inboundEventSchema.parse({
    platform: 'telegram',
    chat: { chatId: '4242', kind: 'private' },
    platformMessageId: String(id),
    sender: { userId: '4242', isBot: false, displayName: 'Hinted' },
    text,
    sentAt: new Date(),
  });

describe('pointer hints', () => {
  let h: Harness;
  afterEach(async () => h.stop());

  it('follows the dialogue, not a stale hint, when another process opened a new session', async () => {
    h = await startHarness({}, ['api']);
    const hints = new PointerHints();
    const deps: IngestDeps = {
      store: h.app.store,
      enqueueReply: async () => {},
      scheduler: noScheduler,
      sessionGapMs: 3_600_000,
      responseWindowMs: 10_800_000,
      pointerHints: hints,
    };
    const first = await ingest(deps, message(1, 'first'));
    if (first.kind !== 'accepted') throw new Error(`first was ${first.kind}`);
    expect(hints.get(first.dialogueId)).toEqual({ sessionId: first.sessionId, openTurnId: first.turnId });

    // Joined while the turn is open: the hint is right and is used.
    const joined = await ingest(deps, message(2, 'and more'));
    expect(joined).toMatchObject({ kind: 'accepted', turnId: first.turnId, sessionId: first.sessionId });

    // Elsewhere (an operator, another gateway process), the dialogue moves to a new session.
    const next = await startNewSession(
      { store: h.app.store, scheduler: noScheduler, sessionGapMs: 3_600_000 },
      first.dialogueId,
      { _id: first.sessionId, dialogueId: first.dialogueId },
      new Date(),
    );
    const later = await ingest(deps, message(3, 'new topic'));
    if (later.kind !== 'accepted') throw new Error(`later was ${later.kind}`);
    expect(later.sessionId).toBe(next._id);
    expect(later.turnId).not.toBe(first.turnId);
    const turn = await h.app.store.turns.get(later.turnId);
    expect(turn?.sessionId).toBe(next._id);
    expect(hints.get(first.dialogueId)).toEqual({ sessionId: next._id, openTurnId: later.turnId });
  });

  it('forgets the chats placed longest ago beyond its capacity', () => {
    const hints = new PointerHints(2);
    hints.set('a', { sessionId: 's1', openTurnId: null });
    hints.set('b', { sessionId: 's2', openTurnId: null });
    hints.set('a', { sessionId: 's1', openTurnId: 't1' }); // placed again: now the newest
    hints.set('c', { sessionId: 's3', openTurnId: null });
    expect(hints.get('b')).toBeUndefined();
    expect(hints.get('a')).toEqual({ sessionId: 's1', openTurnId: 't1' });
    expect(hints.get('c')).toBeDefined();
  });
});
