// Which embedder a deployment runs (issue 18's fix of `auto`): with no key and no embeddings
// endpoint, recall never calls an embeddings API (it used to try one on every turn and wait out
// the timeout); with EMBEDDING_BASE_URL it calls that server, apart from the chat endpoint.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { eventually } from '../support/testEnv.js';

let h: Harness | undefined;
let embeddings: FakeOpenAI | undefined;
afterEach(async () => {
  await h?.stop();
  await embeddings?.close();
  h = undefined;
  embeddings = undefined;
});

async function oneTurn(harness: Harness, chatId: number, text: string): Promise<void> {
  harness.tg.pushUpdate(privateText({ updateId: 1, chatId, text }));
  await eventually(
    async () => (await harness.app.store.c.turns.findOne({ status: 'responded' })) ?? undefined,
    15_000,
    'the turn answered',
  );
}

describe('embedder choice', () => {
  it('a keyless deployment recalls offline: no embeddings call at all', async () => {
    h = await startHarness({ OPENAI_API_KEY: '' });
    await oneTurn(h, 991_001, 'My sister lives in Porto and I visit her every spring.');
    expect(h.llm.requests.length).toBeGreaterThan(0); // the chat endpoint answered
    expect(h.llm.embeddingsRequests).toHaveLength(0);
  });

  it('EMBEDDING_BASE_URL: embeddings go to that server, not the chat endpoint', async () => {
    embeddings = await startFakeOpenAI();
    h = await startHarness({ OPENAI_API_KEY: '', EMBEDDING_BASE_URL: embeddings.baseURL });
    await oneTurn(h, 991_002, 'My sister lives in Porto and I visit her every spring.');
    // A first turn has nothing to recall (no query embedding); the memories extracted from it
    // are embedded when stored.
    const server = embeddings;
    await eventually(
      () => Promise.resolve(server.embeddingsRequests.length > 0 || undefined),
      15_000,
      'an embeddings call',
    );
    expect(h.llm.embeddingsRequests).toHaveLength(0);
  });
});
