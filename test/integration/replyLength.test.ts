// The reply length limit (config `limits.max_reply_tokens`, seed 003) end to end on both OpenAI
// APIs: every reply call sends it, a change applies on the next turn, and an answer the model
// cut at it is delivered and stored as a complete reply, with the cut on the trace.
import { afterEach, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import type { EventLog, Turn } from '../../src/domain/model.js';

const CHAT = 636363;
const LONG = Array.from({ length: 40 }, (_, i) => `Chapter ${i}: the keeper climbed the stairs again. `).join('');

async function respondedTurns(h: Harness, n: number): Promise<Turn[]> {
  return eventually(
    async () => {
      const turns = await h.app.store.c.turns.find({ status: 'responded' }).sort({ startedAt: 1 }).toArray();
      return turns.length >= n ? turns : undefined;
    },
    15_000,
    `${n} responded turn(s)`,
  );
}

/** The reply's own llm_call events (background tasks on the turn left out). */
const replyCalls = (events: EventLog[]) => events.filter((e) => e.kind === 'llm_call' && e.data.task === undefined);

describe.each(['chat', 'responses'] as const)('reply length limit over the %s API', (api) => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  const limitSent = (i: number) =>
    api === 'chat' ? h.llm.requests[i]?.body.max_tokens : h.llm.responsesRequests[i]?.body.max_output_tokens;
  const cutReason = api === 'chat' ? 'length' : 'incomplete';

  it('sends the limit with every reply call, follows updateConfig, and delivers a cut answer as complete', async () => {
    h = await startHarness({ LLM_API: api });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, messageId: 1, text: 'hello' }));
    const [first] = await respondedTurns(h, 1);
    expect(limitSent(0)).toBe(2_000);
    expect(replyCalls(await h.app.store.events.ofTurn(first!._id))[0]?.data).toMatchObject({
      maxOutputTokens: 2_000,
      truncated: false,
    });

    const patched = await h.gql<{ updateConfig: { limits: { max_reply_tokens: number } } }>(
      'mutation { updateConfig(patch: { limits: { max_reply_tokens: 64 } }) { limits { max_reply_tokens } } }',
    );
    expect(patched.body.errors).toBeUndefined();
    expect(patched.body.data?.updateConfig.limits.max_reply_tokens).toBe(64);

    h.llm.enqueue({ kind: 'reply', chunks: LONG.split(/(?<=\s)/) });
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, messageId: 3, text: 'tell me the whole story' }));
    const [, second] = await respondedTurns(h, 2);
    expect(limitSent(1)).toBe(64);

    const reply = await h.app.store.c.messages.findOne({ turnId: second!._id, senderRole: 'ai' });
    expect(reply?.delivery?.state).toBe('complete');
    expect(reply?.delivery?.error).toBeUndefined();
    expect(second!.outcome).toBe('complete');
    // Cut where the model stopped: a prefix of what it would have said, at most the limit.
    expect(reply!.content.length).toBeGreaterThan(100);
    expect(reply!.content.length).toBeLessThan(LONG.length);
    expect(LONG.startsWith(reply!.content)).toBe(true);
    expect(countTokens(reply!.content)).toBeLessThanOrEqual(64);
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes(reply!.content.trim()), 5_000);

    const calls = replyCalls(await h.app.store.events.ofTurn(second!._id));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.data).toMatchObject({
      api,
      round: 1,
      maxOutputTokens: 64,
      truncated: true,
      finishReason: cutReason,
      output: reply!.content,
      error: null,
    });
  });

  it('ends a tool round cut at the limit without running the tool or calling the model again', async () => {
    h = await startHarness({ LLM_API: api });
    await h.app.store.config.update({ limits: { max_reply_tokens: 64 } }, new Date());
    const args = JSON.stringify({ location: 'Paris', details: LONG });
    h.llm.enqueue({ kind: 'tool_calls', calls: [{ id: 'call_cut', name: 'get_weather', arguments: args }] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, text: 'weather in Paris, in detail?' }));
    const [turn] = await respondedTurns(h, 1);

    expect(h.llm.requests.length + h.llm.responsesRequests.length).toBe(1);
    expect(h.weather.requests).toEqual([]);
    const events = await h.app.store.events.ofTurn(turn!._id);
    expect(events.filter((e) => e.kind === 'tool_call')).toEqual([]);
    expect(replyCalls(events).map((e) => e.data.truncated)).toEqual([true]);
    // Nothing was said within the limit: an empty reply, not a failure.
    const reply = await h.app.store.c.messages.findOne({ turnId: turn!._id, senderRole: 'ai' });
    expect(reply?.delivery?.state).toBe('empty');
    expect(turn!.outcome).toBe('empty');
  });
});
