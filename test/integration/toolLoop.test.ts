// The tool loop through the whole pipeline: the model asks for a tool, the tool runs (real HTTP
// to a local weather provider), the result goes back, the model answers; every step is in the
// turn's trace, in order. Both OpenAI APIs are exercised.
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { EventLog, Turn } from '../../src/domain/model.js';

const CHAT = 424242;

async function answeredTurn(h: Harness): Promise<Turn> {
  return eventually(
    async () => (await h.app.store.c.turns.findOne({ status: 'responded' })) ?? undefined,
    15_000,
    'a responded turn',
  );
}

// The reply's own events; background tasks on the turn (memory extraction) are left out.
const kinds = (events: EventLog[]) =>
  events
    .filter((e) => e.data.task === undefined)
    .map((e) => (e.kind === 'tool_call' ? `tool_call:${String(e.data.name)}` : e.kind));

describe.each(['chat', 'responses'] as const)('tool loop over the %s API', (api) => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('traces a call the model refused before answering: the context build, then the failed call', async () => {
    // The context build is stored once the model has the request (or the call failed), and the
    // failed call's event after it: a refusal must neither lose it nor wait on it forever.
    h = await startHarness({ LLM_API: api });
    h.llm.enqueue({ kind: 'error', status: 500, message: 'the model is overloaded' });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'Are you there?' }));
    const turn = await answeredTurn(h);
    expect(turn.outcome).toBe('error');
    const events = await h.app.store.events.ofTurn(turn._id);
    expect(kinds(events)).toEqual(['context_built', 'llm_call', 'delivery']);
    const [ctx, call] = events;
    expect(String(call!.data.error)).toContain('overloaded');
    expect((call!.data.promptRef as { contextEventId: string }).contextEventId).toBe(ctx!._id);
    expect(ctx!.at.getTime()).toBeLessThanOrEqual(call!.at.getTime());
  });

  it('answers a weather question with tool → second LLM call → answer, traced in order', async () => {
    h = await startHarness({ LLM_API: api });
    h.llm.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'call_w1', name: 'get_weather', arguments: '{"location":"Paris"}' }] },
      { kind: 'reply', chunks: ['It is 18°C and partly cloudy', ' in Paris right now.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'What is the weather in Paris?' }));
    const turn = await answeredTurn(h);

    const reply = await h.app.store.c.messages.findOne({ turnId: turn._id, senderRole: 'ai' });
    expect(reply?.content).toBe('It is 18°C and partly cloudy in Paris right now.');
    expect(reply?.delivery?.state).toBe('complete');
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes(reply!.content), 5_000);

    // The provider was really called: geocoding, then the forecast for the found coordinates.
    expect(h.weather.requests.map((r) => r.split('?')[0])).toEqual(['/v1/search', '/v1/forecast']);

    const events = await h.app.store.events.ofTurn(turn._id);
    expect(kinds(events)).toEqual(['context_built', 'llm_call', 'tool_call:get_weather', 'llm_call', 'delivery']);
    const [ctx, call1, tool, call2] = events;
    expect(call1!.data).toMatchObject({
      api,
      round: 1,
      toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: '{"location":"Paris"}' }],
    });
    expect(tool!.data).toMatchObject({
      ok: true,
      name: 'get_weather',
      callId: 'call_w1',
      result: { found: true, place: 'Paris, France', temperatureC: 18.4, conditions: 'partly cloudy' },
    });
    expect(call2!.data).toMatchObject({ api, round: 2, output: reply!.content, error: null });
    expect((call2!.data.promptRef as { contextEventId: string }).contextEventId).toBe(ctx!._id);

    // The DialogueTurn view of seed 000, rebuilt from the store, over the API.
    const trace = await h.gql<{
      turnTrace: {
        input: Array<{ content: string }>;
        llmCalls: Array<{ data: { round: number } }>;
        toolCalls: Array<{ data: { name: string; ok: boolean } }>;
        systemActions: Array<{ kind: string }>;
        response: Array<{ content: string; senderRole: string }>;
      };
    }>(
      `query ($id: ID!) { turnTrace(turnId: $id) { input { content } llmCalls { data } toolCalls { data } systemActions { kind } response { content senderRole } } }`,
      { id: turn._id },
    );
    expect(trace.body.errors).toBeUndefined();
    const view = trace.body.data!.turnTrace;
    expect(view.input.map((m) => m.content)).toEqual(['What is the weather in Paris?']);
    expect(view.llmCalls.map((c) => c.data.round)).toEqual([1, 2]);
    expect(view.toolCalls.map((c) => [c.data.name, c.data.ok])).toEqual([['get_weather', true]]);
    // The reply's actions first; the post-turn memory extraction may follow (not awaited here).
    expect(view.systemActions.map((e) => e.kind).slice(0, 5)).toEqual([
      'context_built',
      'llm_call',
      'tool_call',
      'llm_call',
      'delivery',
    ]);
    expect(view.response).toEqual([{ content: reply!.content, senderRole: 'ai' }]);

    // The second call carried the tool's result back to the model.
    if (api === 'chat') {
      const second = h.llm.requests[1]!.body.messages;
      expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_w1' });
      expect(String(second.at(-1)!.content)).toContain('"temperatureC":18.4');
      expect(h.llm.requests[0]!.body.tools).toHaveLength(3);
    } else {
      const input = h.llm.responsesRequests[1]!.body.input as Array<Record<string, unknown>>;
      expect(input.find((i) => i.type === 'function_call')).toMatchObject({ call_id: 'call_w1', name: 'get_weather' });
      expect(input.find((i) => i.type === 'function_call_output')).toMatchObject({ call_id: 'call_w1' });
      expect(String(input.find((i) => i.type === 'function_call_output')!.output)).toContain('"temperatureC":18.4');
    }
  });
});

describe('tool loop with bad input', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('returns unknown tools, malformed arguments and failing tools to the model as errors, and still answers', async () => {
    h = await startHarness();
    h.llm.enqueue(
      {
        kind: 'tool_calls',
        calls: [
          { id: 'c1', name: 'launch_rockets', arguments: '{}' },
          { id: 'c2', name: 'get_weather', arguments: '{"location": ' },
          { id: 'c3', name: 'current_time', arguments: '{"timezone":"Mars/Olympus_Mons"}' },
          { id: 'c4', name: 'get_weather', arguments: '{"location":"Atlantis"}' },
        ],
      },
      { kind: 'reply', chunks: ['Some of that did not work, sorry.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'do everything' }));
    const turn = await answeredTurn(h);
    const tools = (await h.app.store.events.ofTurn(turn._id)).filter((e) => e.kind === 'tool_call');
    const byId = Object.fromEntries(tools.map((e) => [String(e.data.callId), e.data]));
    expect(byId.c1).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
    expect(byId.c2).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', message: 'arguments are not valid JSON' },
    });
    expect(byId.c3).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(byId.c4).toMatchObject({ ok: true, result: { found: false, location: 'Atlantis' } });
    const toolMessages = h.llm.requests[1]!.body.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(4);
    expect(String(toolMessages.find((m) => m.tool_call_id === 'c1')!.content)).toContain('UNKNOWN_TOOL');
    expect((await h.app.store.c.messages.findOne({ turnId: turn._id, senderRole: 'ai' }))?.content).toBe(
      'Some of that did not work, sorry.',
    );
  });

  it('bounds a hanging tool by its timeout', async () => {
    h = await startHarness({ TOOL_TIMEOUT_MS: '300' });
    h.weather.hang = true;
    h.llm.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'w', name: 'get_weather', arguments: '{"location":"Paris"}' }] },
      { kind: 'reply', chunks: ['The weather service is not answering.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'weather?' }));
    const turn = await answeredTurn(h);
    const tool = (await h.app.store.events.ofTurn(turn._id)).find((e) => e.kind === 'tool_call');
    expect(tool?.data).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    expect(Number(tool?.data.durationMs)).toBeLessThan(2_000);
  });

  it('stops offering tools after the round limit and forces a worded answer', async () => {
    h = await startHarness({ TOOL_MAX_ROUNDS: '2' });
    const again = { kind: 'tool_calls' as const, calls: [{ name: 'current_time', arguments: '{}' }] };
    h.llm.enqueue(again, again, { kind: 'reply', chunks: ['It is late.'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'time?' }));
    const turn = await answeredTurn(h);
    expect(h.llm.requests).toHaveLength(3);
    expect(h.llm.requests[0]!.body.tools).toBeDefined();
    expect(h.llm.requests[1]!.body.tools).toBeDefined();
    expect(h.llm.requests[2]!.body.tools).toBeUndefined();
    const events = await h.app.store.events.ofTurn(turn._id);
    expect(kinds(events)).toEqual([
      'context_built',
      'llm_call',
      'tool_call:current_time',
      'llm_call',
      'tool_call:current_time',
      'llm_call',
      'delivery',
    ]);
  });
});
