// The stream stage between the model and the platform: a marker the model writes, cut across
// three chunks, never reaches the chat — not in a draft, a sent message or an edit — while the
// reply is stored as the model said it.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { markerStage } from '../../src/delivery/streamStage.js';
import { replyIdOf } from '../../src/domain/aiMessage.js';

const CHAT = 424_242;

describe('stream stage', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('holds back a marker split across three chunks: the platform never shows any part of it', async () => {
    const seen: string[] = [];
    h = await startHarness(
      {},
      ['gateway', 'worker'],
      {},
      // A deployment's own marker (the director's PROGRESS markers have their stage built in).
      { streamStages: [() => markerStage({ names: ['SCENE'], onMarker: (m) => seen.push(m) })] },
    );
    // Chunks far enough apart that the streamer pushes between them (STREAM_EDIT_INTERVAL_MS 50).
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['The gate creaks open. [SCE', 'NE:2:do', 'ne] Beyond it, a garden.'],
      chunkDelayMs: 200,
    });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, messageId: 1, text: 'I push the gate.' }));

    await h.tg.waitFor(() => h.tg.sentText(CHAT).some((t) => t.includes('Beyond it, a garden.')), 10_000);
    const shown = h.tg.sentText(CHAT).join('\n');
    expect(shown).toBe('The gate creaks open. Beyond it, a garden.');
    // Every text the platform was ever given (drafts, sends, edits) is free of the marker's pieces.
    const texts = h.tg.calls.map((c) => c.params.text).filter((t): t is string => typeof t === 'string');
    expect(texts.length).toBeGreaterThan(1); // it streamed: more than the final text was pushed
    for (const t of texts) expect(t).not.toMatch(/\[SCE|NE:2|:do|ne\]/);
    expect(seen).toEqual(['[SCENE:2:done]']);

    // The record keeps what the model said.
    const turn = await eventually(
      async () => (await h.app.store.c.turns.findOne({ status: 'responded' })) ?? undefined,
      5_000,
      'turn answered',
    );
    const reply = await h.app.store.messages.get(replyIdOf(turn._id));
    expect(reply).toMatchObject({
      content: 'The gate creaks open. [SCENE:2:done] Beyond it, a garden.',
      delivery: { state: 'complete' },
    });
  });
});
