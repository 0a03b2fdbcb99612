// The chain of model providers (SPEC §14) through the real `openai` client against doubles of
// real servers' quirks (test/doubles/fakeProviders.ts): a primary answering 503 or hanging
// before its first token hands the call to the fallback, rests for its cool-down and gets the
// calls back after it; the request's own stop, a failure after the first token and a 401 are
// nobody else's business; a model that refuses tools is asked once more without them and never
// offered them again; vision's calls go through the same providers.
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/config/env.js';
import { buildModelRoutes } from '../../app/llmProviders.js';
import { ChainLlmClient } from '../../src/llm/chainClient.js';
import { LlmFailure, type CompletionRequest, type ToolSpec } from '../../src/llm/types.js';
import type { ProviderObserver, ProviderRef } from '../../src/llm/provider.js';
import { describeImageVia } from '../../src/media/vision.js';
import { startQuirkyProvider, type QuirkyProvider } from '../doubles/fakeProviders.js';

const DEEPSEEK_KEY = 'sk-deepseek-test-0000';
const DASHSCOPE_KEY = 'sk-dashscope-test-0000';
const TOOLS: ToolSpec[] = [
  { name: 'get_time', description: 'The current time', parameters: { type: 'object', properties: {} } },
];

let servers: QuirkyProvider[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function provider(...args: Parameters<typeof startQuirkyProvider>): Promise<QuirkyProvider> {
  const s = await startQuirkyProvider(...args);
  servers.push(s);
  return s;
}

const host = (s: QuirkyProvider) => new URL(s.baseURL).host;

/** What the chain told its observer, in order. */
function recorder(): ProviderObserver & { events: string[] } {
  const events: string[] = [];
  return {
    events,
    answered: (p: ProviderRef) => void events.push(`ok ${p.id}`),
    failed: (p: ProviderRef, o) => void events.push(`failed ${p.id}${o.coolingUntil ? ' cooling' : ''}`),
    toolsRefused: (p: ProviderRef, model: string) => void events.push(`tools refused ${p.id} ${model}`),
  };
}

function chain(vars: Record<string, string>, observer?: ProviderObserver) {
  const env = loadEnv({
    LLM_TIMEOUT_MS: '5000',
    LLM_FIRST_TOKEN_TIMEOUT_MS: '300',
    LLM_FALLBACK_COOLDOWN_MS: '400',
    ...vars,
  });
  const routes = buildModelRoutes(env, observer);
  return { env, routes, llm: new ChainLlmClient(routes.chat!) };
}

function ask(text: string, o: Partial<CompletionRequest> = {}): CompletionRequest {
  return {
    model: 'deepseek-chat',
    messages: [{ role: 'user', content: text }],
    signal: AbortSignal.timeout(5000),
    onDelta: () => {},
    ...o,
  };
}

/** A DeepSeek-like primary and a Qwen/DashScope-like fallback. */
async function hostedPair(observer?: ProviderObserver) {
  const primary = await provider('deepseek', { apiKey: DEEPSEEK_KEY });
  const fallback = await provider('dashscope', { apiKey: DASHSCOPE_KEY });
  const c = chain(
    {
      OPENAI_BASE_URL: primary.baseURL,
      OPENAI_API_KEY: DEEPSEEK_KEY,
      LLM_MODEL: 'deepseek-chat',
      LLM_FALLBACKS: JSON.stringify([{ baseUrl: fallback.baseURL, model: 'qwen-plus', apiKey: DASHSCOPE_KEY }]),
    },
    observer,
  );
  return { primary, fallback, ...c };
}

describe('provider chain', () => {
  it('a primary answering 503 hands the reply to the fallback, and the result says who and why', async () => {
    const { primary, fallback, llm } = await hostedPair();
    primary.overload(1);
    const r = await llm.complete(ask('hello there'));
    expect(r.text).toBe('echo: hello there');
    expect(r.provider).toBe(`${host(fallback)} qwen-plus`);
    expect(r.providersSkipped).toEqual([{ provider: `${host(primary)} deepseek-chat`, reason: 'status', status: 503 }]);
    // The primary was asked (and refused); the fallback answered with its own model.
    expect(primary.chatCalls().map((c) => c.status)).toEqual([503]);
    expect(fallback.chatCalls().map((c) => [c.model, c.status])).toEqual([['qwen-plus', 200]]);
  });

  it('a primary sending no token within the first-token wait is left for the fallback, well before the reply limit', async () => {
    const { primary, fallback, llm } = await hostedPair();
    primary.stall(1);
    const started = Date.now();
    const r = await llm.complete(ask('are you there?'));
    const took = Date.now() - started;
    expect(r.provider).toBe(`${host(fallback)} qwen-plus`);
    expect(r.providersSkipped).toEqual([{ provider: `${host(primary)} deepseek-chat`, reason: 'timeout' }]);
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(3000);
    // The primary did answer (200, keep-alives) — it only never sent a token.
    expect(primary.chatCalls().map((c) => c.status)).toEqual([200]);
    expect(fallback.chatCalls()).toHaveLength(1);
  });

  it('a failed provider rests for the cool-down, then gets the calls back once it answers again', async () => {
    const seen = recorder();
    const { primary, fallback, llm } = await hostedPair(seen);
    primary.overload(1);
    const first = await llm.complete(ask('one'));
    expect(first.provider).toBe(`${host(fallback)} qwen-plus`);
    // Resting: not asked at all, and the trace says why it was passed over.
    const second = await llm.complete(ask('two'));
    expect(second.provider).toBe(`${host(fallback)} qwen-plus`);
    expect(second.providersSkipped).toEqual([{ provider: `${host(primary)} deepseek-chat`, reason: 'cooling_down' }]);
    expect(primary.chatCalls()).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 450));
    const third = await llm.complete(ask('three'));
    expect(third.provider).toBe(`${host(primary)} deepseek-chat`);
    expect(third.providersSkipped).toEqual([]);
    expect(primary.chatCalls().map((c) => c.status)).toEqual([503, 200]);
    expect(fallback.chatCalls()).toHaveLength(2);
    expect(seen.events).toEqual(['failed primary cooling', 'ok fallback-1', 'ok fallback-1', 'ok primary']);
  });

  it("the request's own stop ends the call: no fallback is asked and it is the user's stop, not a provider failure", async () => {
    const seen = recorder();
    const { primary, fallback, llm } = await hostedPair(seen);
    primary.stall(1);
    const stop = new AbortController();
    setTimeout(() => stop.abort('interrupted'), 100);
    const failure = await llm.complete(ask('long story please', { signal: stop.signal })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LlmFailure);
    expect((failure as LlmFailure).aborted).toBe('interrupted');
    expect((failure as LlmFailure).error.code).toBe('GENERATION_ABORTED');
    expect(primary.chatCalls()).toHaveLength(1);
    expect(fallback.chatCalls()).toHaveLength(0);
    expect(seen.events).toEqual([]); // nobody blamed, nobody resting
  });

  it('a failure after the first token stays with that provider: the partial text is kept, the fallback not asked', async () => {
    const { primary, fallback, llm } = await hostedPair();
    primary.inner.enqueue({ kind: 'break', chunks: ['Once upon', ' a time'] });
    const shown: string[] = [];
    const failure = await llm
      .complete(ask('tell me a story', { onDelta: (d) => shown.push(d) }))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LlmFailure);
    expect((failure as LlmFailure).partial.text).toBe('Once upon a time');
    expect(shown.join('')).toBe('Once upon a time');
    expect((failure as LlmFailure).route?.provider).toBe(`${host(primary)} deepseek-chat`);
    expect(primary.chatCalls()).toHaveLength(1);
    expect(fallback.chatCalls()).toHaveLength(0);
  });

  it('a 429 fails over (DashScope throttle), a 401 does not (a wrong key is no passing failure)', async () => {
    const qwen = await provider('dashscope', { apiKey: DASHSCOPE_KEY });
    const lmstudio = await provider('lmstudio');
    const fallbacks = JSON.stringify([{ baseUrl: lmstudio.baseURL, model: 'qwen2.5-7b-instruct' }]);
    const throttled = chain({ OPENAI_BASE_URL: qwen.baseURL, OPENAI_API_KEY: DASHSCOPE_KEY, LLM_FALLBACKS: fallbacks });
    qwen.overload(1);
    const r = await throttled.llm.complete(ask('hi', { model: 'qwen-plus' }));
    expect(r.providersSkipped).toEqual([{ provider: `${host(qwen)} qwen-plus`, reason: 'status', status: 429 }]);
    expect(r.provider).toBe(`${host(lmstudio)} qwen2.5-7b-instruct`); // LM Studio: no key given, none needed

    const wrongKey = chain({
      OPENAI_BASE_URL: qwen.baseURL,
      OPENAI_API_KEY: 'sk-wrong-key-0000',
      LLM_FALLBACKS: fallbacks,
    });
    const failure = await wrongKey.llm.complete(ask('hi', { model: 'qwen-plus' })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LlmFailure);
    expect((failure as LlmFailure).error.code).toBe('LLM_SERVICE_ERROR');
    expect(String((failure as LlmFailure).message)).toContain('401');
    expect(qwen.chatCalls().map((c) => c.status)).toEqual([429, 401]);
    expect(lmstudio.chatCalls()).toHaveLength(1); // only the throttled call reached it
  });

  it('vLLM without a tool parser: asked again without tools, remembered per model — one refused request for concurrent calls', async () => {
    const seen = recorder();
    const vllm = await provider('vllm', { toolModels: ['tool-model'] });
    const { llm } = chain({ OPENAI_BASE_URL: vllm.baseURL, OPENAI_API_KEY: '' }, seen);
    const model = 'Qwen/Qwen2.5-7B-Instruct';
    const replies = await Promise.all(['a', 'b', 'c'].map((t) => llm.complete(ask(t, { model, tools: TOOLS }))));
    expect(replies.map((r) => [r.text, r.toolsOmitted])).toEqual([
      ['echo: a', true],
      ['echo: b', true],
      ['echo: c', true],
    ]);
    const later = await llm.complete(ask('d', { model, tools: TOOLS }));
    expect(later.toolsOmitted).toBe(true);
    const calls = vllm.chatCalls(model);
    // Tools were offered once, refused (vLLM's top-level error body read through the reshaping fetch)…
    expect(calls.filter((c) => c.tools).map((c) => c.status)).toEqual([400]);
    expect(calls[0]).toMatchObject({ tools: true, status: 400 });
    // …and every call since went without them.
    expect(calls.slice(1).map((c) => [c.tools, c.status])).toEqual([
      [false, 200],
      [false, 200],
      [false, 200],
      [false, 200],
    ]);
    expect(seen.events.filter((e) => e.startsWith('tools refused'))).toEqual([`tools refused primary ${model}`]);
    // Per model: another model of the same server that takes tools still gets them.
    const other = await llm.complete(ask('e', { model: 'tool-model', tools: TOOLS }));
    expect(other.toolsOmitted).toBeUndefined();
    expect(vllm.chatCalls('tool-model').map((c) => [c.tools, c.status])).toEqual([[true, 200]]);
  });

  it("a prompt over vLLM's context window is the call's own 400 (its message readable), not a failover", async () => {
    const vllm = await provider('vllm', { contextTokens: 50 });
    const lmstudio = await provider('lmstudio');
    const { llm } = chain({
      OPENAI_BASE_URL: vllm.baseURL,
      OPENAI_API_KEY: '',
      LLM_FALLBACKS: JSON.stringify([{ baseUrl: lmstudio.baseURL, model: 'local-model' }]),
    });
    const fits = await llm.complete(ask('short', { model: 'm' }));
    expect(fits.provider).toBe(`${host(vllm)} m`);
    const failure = await llm.complete(ask('x'.repeat(400), { model: 'm' })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LlmFailure);
    expect((failure as LlmFailure).message).toContain("This model's maximum context length is 50 tokens");
    expect(vllm.chatCalls().map((c) => c.status)).toEqual([200, 400]);
    expect(lmstudio.chatCalls()).toHaveLength(0);
  });

  it('the Ollama double drops the oldest messages past its context window, silently, as Ollama does', async () => {
    const ollama = await provider('ollama', { contextTokens: 60 });
    const { llm } = chain({ OPENAI_BASE_URL: ollama.baseURL, OPENAI_API_KEY: '' });
    const r = await llm.complete({
      ...ask('', { model: 'llama3.2' }),
      messages: [
        { role: 'system', content: 'You are kind.' },
        { role: 'user', content: 'a'.repeat(200) },
        { role: 'assistant', content: 'b'.repeat(40) },
        { role: 'user', content: 'the latest question' },
      ],
    });
    expect(r.text).toBe('echo: the latest question');
    expect(ollama.chatCalls()[0]).toMatchObject({ status: 200, truncated: 1 });
    const sent = ollama.inner.requests[0]!.body.messages.map((m) => m.role);
    expect(sent).toEqual(['system', 'assistant', 'user']);
  });

  it('vision: the vision server answering 503 hands the image to the fallback, with the fallback model', async () => {
    const vision = await provider('lmstudio');
    const fallback = await provider('dashscope', { apiKey: DASHSCOPE_KEY });
    const { routes } = chain({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', // the chat server is not used by vision here
      OPENAI_API_KEY: 'sk-unused-0000',
      VISION_BASE_URL: vision.baseURL,
      VISION_MODEL: 'llava',
      LLM_FALLBACKS: JSON.stringify([{ baseUrl: fallback.baseURL, model: 'qwen-vl-plus', apiKey: DASHSCOPE_KEY }]),
    });
    vision.inner.enqueueVision({ kind: 'error', status: 503, message: 'Service Unavailable' });
    const text = await describeImageVia(routes.vision, {
      model: 'llava',
      data: Buffer.from('a red bicycle'),
      mime: 'image/png',
      signal: AbortSignal.timeout(5000),
    });
    expect(text).toBe('An image showing a red bicycle.');
    expect(vision.chatCalls().map((c) => [c.model, c.status])).toEqual([['llava', 503]]);
    expect(fallback.chatCalls().map((c) => [c.model, c.status])).toEqual([['qwen-vl-plus', 200]]);
  });
});
