// A local model that just works (SPEC §14), end to end through the gateway: Telegram (fake) →
// ingest → worker → the provider chain → an Ollama-like server (test/doubles/fakeProviders.ts)
// that refuses tools for its model (400) and has no embeddings model (404). Three messages get
// three replies; tools are refused once and never sent to that model again; the embeddings fall
// back to the offline embedder (memories are stored with its vectors); health warns of both.
// A DeepSeek-like primary answering 503 hands the reply to a fallback, and the trace says so.
import { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { startQuirkyProvider, type QuirkyProvider } from '../doubles/fakeProviders.js';
import { healthProbes } from '../../app/healthProbes.js';
import { HealthMarks } from '../../app/healthMarks.js';
import { collectHealth } from '../../src/health/collectHealth.js';
import { HashedNgramEmbedder } from '../../src/memory/hashedNgramEmbedder.js';
import { createLogger } from '../../src/log.js';
import type { EventLog } from '../../src/domain/model.js';

const CHAT = 474_747;
const MODEL = 'gemma2:2b';

let h: Harness | undefined;
let servers: QuirkyProvider[] = [];
let redis: Redis | undefined;
afterEach(async () => {
  await h?.stop();
  await Promise.all(servers.map((s) => s.close()));
  redis?.disconnect();
  h = undefined;
  servers = [];
  redis = undefined;
});

async function answered(harness: Harness, n: number): Promise<void> {
  await eventually(
    async () => (await harness.app.store.c.turns.countDocuments({ status: 'responded' })) >= n || undefined,
    20_000,
    `${n} responded turns`,
  );
}

/** The reply's own llm_call events (background tasks have a `task`), oldest first. */
async function replyCalls(harness: Harness): Promise<EventLog[]> {
  const events = await harness.app.store.c.events.find({ kind: 'llm_call' }).toArray();
  return events.filter((e) => e.data.task === undefined).sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** Query.health's data as the API process computes it, from this deployment's real probes. */
async function health(harness: Harness) {
  redis = new Redis(harness.env.REDIS_URL);
  const queueStub = {
    getJobCounts: () => Promise.resolve({}),
    getJobs: () => Promise.resolve([]),
  } as unknown as Queue;
  const probes = healthProbes({
    env: harness.env,
    store: harness.app.store,
    redis,
    respondQueue: queueStub,
    embedder: new HashedNgramEmbedder(harness.env.EMBEDDING_DIMS),
    marks: new HealthMarks(redis, harness.env.QUEUE_PREFIX, createLogger('silent')),
  });
  return collectHealth(harness.app.store, probes, new Date());
}

describe('local models that just work', () => {
  it('an Ollama model without tools or embeddings: three messages, three replies, one refused request, health warnings', async () => {
    const ollama = await startQuirkyProvider('ollama');
    servers.push(ollama);
    h = await startHarness({
      OPENAI_BASE_URL: ollama.baseURL,
      OPENAI_API_KEY: '',
      LLM_MODEL: MODEL,
      // The README's recipe: embeddings from the same server, with the default model it lacks.
      EMBEDDING_BASE_URL: ollama.baseURL,
    });
    const texts = ['My sister lives in Porto.', 'She has two cats.', 'What is the time where she lives?'];
    for (const [i, text] of texts.entries()) {
      h.tg.pushUpdate(privateText({ updateId: i + 1, chatId: CHAT, text }));
      await answered(h, i + 1);
    }
    const replies = await h.app.store.c.messages.find({ senderRole: 'ai' }).sort({ createdAt: 1 }).toArray();
    expect(replies).toHaveLength(3);
    replies.forEach((r, i) => expect(r.content).toContain(texts[i]));
    const turns = await h.app.store.c.turns.find({ status: 'responded' }).toArray();
    expect(turns.map((t) => t.outcome)).toEqual(['complete', 'complete', 'complete']);

    // Tools: offered on the first call and refused (400), never offered to the model again.
    const chat = ollama.chatCalls(MODEL);
    expect(chat[0]).toMatchObject({ tools: true, status: 400 });
    expect(chat.filter((c) => c.tools)).toHaveLength(1);
    expect(chat.filter((c) => !c.tools && c.status === 200).length).toBeGreaterThanOrEqual(3);
    const calls = await replyCalls(h);
    expect(calls).toHaveLength(3);
    const label = `${new URL(ollama.baseURL).host} ${MODEL}`;
    for (const call of calls)
      expect(call.data).toMatchObject({ provider: label, providersSkipped: [], toolsOmitted: true });

    // Embeddings: the server answered 404 (it was asked), then the offline embedder took over.
    await eventually(
      async () =>
        (await h!.app.store.c.memories.countDocuments({ 'embedding.model': /^hashed-ngram/ })) > 0 ? true : undefined,
      20_000,
      'memories stored with offline vectors',
    );
    const embeddingCalls = ollama.calls.filter((c) => c.path === '/v1/embeddings');
    expect(embeddingCalls.map((c) => c.status)).toEqual([404]);
    const remoteVectors = await h.app.store.c.memories.countDocuments({ 'embedding.model': /^openai:/ });
    expect(remoteVectors).toBe(0);

    const report = await health(h);
    expect(report.providers).toEqual([
      expect.objectContaining({ id: 'primary', label, state: 'ok', toolsRefused: [MODEL] }),
    ]);
    expect(report.warnings.map((w) => [w.kind, w.subject])).toEqual([
      ['tools_refused', 'primary'],
      ['embeddings_offline', 'embeddings'],
    ]);
    expect(report.warnings[0]!.message).toContain(MODEL);
    // A warning, not a failing service: the embeddings show the offline fallback.
    expect(report.embeddings.state).toBe('off');
    expect(report.embeddings.target).toContain('offline fallback');
  });

  it('a primary answering 503: the reply comes from the fallback and its llm_call names both', async () => {
    const deepseek = await startQuirkyProvider('deepseek', { apiKey: 'sk-deepseek-test-0000' });
    const lmstudio = await startQuirkyProvider('lmstudio');
    servers.push(deepseek, lmstudio);
    h = await startHarness({
      OPENAI_BASE_URL: deepseek.baseURL,
      OPENAI_API_KEY: 'sk-deepseek-test-0000',
      LLM_MODEL: 'deepseek-chat',
      LLM_FALLBACKS: JSON.stringify([{ baseUrl: lmstudio.baseURL, model: 'qwen2.5-7b-instruct' }]),
      EMBEDDINGS: 'offline',
    });
    deepseek.overload(1);
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'Are you awake?' }));
    await answered(h, 1);
    const reply = await h.app.store.c.messages.findOne({ senderRole: 'ai' });
    expect(reply?.content).toContain('Are you awake?');
    expect(deepseek.chatCalls('deepseek-chat')[0]).toMatchObject({ status: 503 });
    expect(lmstudio.chatCalls('qwen2.5-7b-instruct')[0]).toMatchObject({ status: 200 });
    const [call] = await replyCalls(h);
    expect(call!.data).toMatchObject({
      provider: `${new URL(lmstudio.baseURL).host} qwen2.5-7b-instruct`,
      providersSkipped: [
        { provider: `${new URL(deepseek.baseURL).host} deepseek-chat`, reason: 'status', status: 503 },
      ],
      error: null,
    });
    const report = await health(h);
    expect(report.providers.map((p) => [p.id, p.state])).toEqual([
      ['primary', 'cooling'],
      ['fallback-1', 'ok'],
    ]);
    expect(report.warnings.map((w) => w.kind)).toContain('provider_cooling');
  });
});
