// The reply's output limit through both LLM clients against the fake model, which honours it
// like the real API: the limit goes out as `max_tokens` / `max_output_tokens`, and a longer
// answer comes back cut at it and marked truncated (not a failure).
import OpenAI from 'openai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/llm/createClient.js';
import type { CompletionRequest, LlmClient } from '../../src/llm/types.js';
import { startFakeOpenAI, type FakeOpenAI } from '../doubles/fakeOpenAI.js';

const LONG = Array.from({ length: 60 }, (_, i) => `Sentence ${i} of a story that goes on, 很长很长. `).join('');
const words = (text: string) => text.split(/(?<=\s)/);

describe.each(['chat', 'responses'] as const)('the output limit over the %s API', (api) => {
  let fake: FakeOpenAI;
  let llm: LlmClient;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    llm = createLlmClient(api, new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 }));
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  const call = (extra: Partial<CompletionRequest> = {}) => {
    let streamed = '';
    const result = llm.complete({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'tell me a long story' }],
      signal: AbortSignal.timeout(5_000),
      onDelta: (d) => (streamed += d),
      ...extra,
    });
    return result.then((r) => ({ ...r, streamed }));
  };
  const sentLimit = () =>
    api === 'chat' ? fake.requests[0]!.body.max_tokens : fake.responsesRequests[0]!.body.max_output_tokens;

  it('sends the limit and cuts a longer answer at it, reporting it truncated', async () => {
    expect(countTokens(LONG)).toBeGreaterThan(300);
    fake.enqueue({ kind: 'reply', chunks: words(LONG) });
    const r = await call({ maxOutputTokens: 64 });
    expect(sentLimit()).toBe(64);
    expect(r.truncated).toBe(true);
    expect(r.finishReason).toBe(api === 'chat' ? 'length' : 'incomplete');
    expect(LONG.startsWith(r.text)).toBe(true);
    expect(r.streamed).toBe(r.text);
    expect(countTokens(r.text)).toBeLessThanOrEqual(64);
    expect(countTokens(r.text)).toBeGreaterThan(60);
    expect(r.usage?.completionTokens).toBeLessThanOrEqual(64);
  });

  it('leaves an answer within the limit whole, and sends no limit when none is asked', async () => {
    fake.enqueue({ kind: 'reply', chunks: ['A short', ' answer.'] }, { kind: 'reply', chunks: words(LONG) });
    const short = await call({ maxOutputTokens: 64 });
    expect(short).toMatchObject({ text: 'A short answer.', truncated: false });
    expect(short.finishReason).toBe(api === 'chat' ? 'stop' : 'completed');
    const unlimited = await call();
    expect(unlimited).toMatchObject({ text: LONG, truncated: false });
    const second = api === 'chat' ? fake.requests[1]!.body : fake.responsesRequests[1]!.body;
    expect(second).not.toHaveProperty(api === 'chat' ? 'max_tokens' : 'max_output_tokens');
  });

  it('cuts tool-call arguments at the limit too', async () => {
    const args = JSON.stringify({ location: 'Paris', note: LONG });
    fake.enqueue({ kind: 'tool_calls', calls: [{ id: 'call_1', name: 'get_weather', arguments: args }] });
    const r = await call({
      maxOutputTokens: 64,
      tools: [{ name: 'get_weather', description: 'weather', parameters: { type: 'object' } }],
    });
    expect(r.truncated).toBe(true);
    expect(r.text).toBe('');
    expect(r.toolCalls.every((c) => args.startsWith(c.arguments) && c.arguments.length < args.length)).toBe(true);
  });
});
