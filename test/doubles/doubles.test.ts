// Proves the doubles speak the real wire formats: the unmodified `openai` and `grammy` clients drive them.
import { Api, Bot, GrammyError } from 'grammy';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLACES, privatePhoto, privateSticker, privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakeOpenAI.js';
import { startFakeTelegram, type FakeTelegram } from './fakeTelegram.js';

describe('fakeOpenAI with the real openai client', () => {
  let fake: FakeOpenAI;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    client = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 }); // retries would eat script steps
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('streams a scripted reply whose chunks concatenate, with usage when requested', async () => {
    fake.enqueue({ kind: 'reply', chunks: ['Hel', 'lo', ' world'], chunkDelayMs: 5 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'say hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello world');
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.total_tokens).toBe((last?.usage?.prompt_tokens ?? 0) + (last?.usage?.completion_tokens ?? 0));
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'say hello' }],
    });
  });

  it('echoes the last user message by default, non-streamed', async () => {
    const res = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi there' },
      ],
    });
    expect(res.object).toBe('chat.completion');
    expect(res.choices[0]?.message.content).toBe('echo: hi there');
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams tool calls that the client accumulates into complete calls', async () => {
    const args = JSON.stringify({ city: 'Lisbon', unit: 'celsius' });
    fake.enqueue({
      kind: 'tool_calls',
      calls: [
        { id: 'call_weather', name: 'get_weather', arguments: args },
        { name: 'get_time', arguments: '{}' },
      ],
    });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
    });
    const done = await stream.finalChatCompletion();

    expect(done.choices[0]?.finish_reason).toBe('tool_calls');
    const calls = done.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : []))).toEqual([
      ['call_weather', 'get_weather', args],
      [expect.stringMatching(/^call_/), 'get_time', '{}'],
    ]);
    expect(fake.requests[0]?.body.tools).toHaveLength(1);
  });

  it('surfaces an error step as OpenAI.APIError with its status and message', async () => {
    fake.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached, slow down' });
    const err: unknown = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((err as Error).message).toContain('Rate limit reached, slow down');
  });

  it('makes stream iteration throw when the socket breaks mid-stream', async () => {
    fake.enqueue({ kind: 'break', chunks: ['par', 'tial'] });
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    let text = '';
    const iterate = async (): Promise<void> => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    };
    await expect(iterate()).rejects.toThrow();
    expect(text).toBe('partial');
  });

  it('times out a hanging request on the client side', async () => {
    fake.enqueue({ kind: 'hang' });
    const impatient = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0, timeout: 150 });
    const call = impatient.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await expect(call).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('lists models, and answers 401 without a key and 404 on unknown paths', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4o-mini');
    const noKey = await fetch(`${fake.baseURL}/models`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const unknown = await fetch(`${fake.baseURL}/nope`, { headers: { authorization: 'Bearer test' } });
    expect(unknown.status).toBe(404);
  });
});

describe('fakeOpenAI Responses API with the real openai client', () => {
  let fake: FakeOpenAI;
  let client: OpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    client = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 }); // retries would eat script steps
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  const weatherTool = {
    type: 'function' as const,
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    strict: false,
  };

  it('streams a scripted reply as Responses events whose text deltas concatenate, completed with usage', async () => {
    fake.enqueue({ kind: 'reply', chunks: ['Hel', 'lo', ' world'], chunkDelayMs: 5 });
    const stream = await client.responses.create({ model: 'gpt-4o-mini', input: 'say hello', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);

    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const deltas = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    expect(deltas.join('')).toBe('Hello world');

    const created = events[0];
    if (created?.type !== 'response.created') throw new Error('expected response.created first');
    expect(created.response.id).toMatch(/^resp_/);
    expect(created.response).toMatchObject({
      object: 'response',
      status: 'in_progress',
      model: 'gpt-4o-mini',
      output: [],
    });
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('expected response.completed last');
    const usage = completed.response.usage;
    expect(usage?.output_tokens).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBe((usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0));
    expect(completed.response).toMatchObject({
      id: created.response.id,
      status: 'completed',
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Hello world', annotations: [] }],
        },
      ],
    });
    expect(completed.response.output[0]?.id).toMatch(/^msg_/);

    expect(fake.requests).toHaveLength(0);
    expect(fake.responsesRequests).toHaveLength(1);
    expect(fake.responsesRequests[0]).toMatchObject({
      endpoint: 'responses',
      body: { model: 'gpt-4o-mini', input: 'say hello', stream: true },
    });
  });

  it('feeds the SDK stream helper, echoing the last user input item by default', async () => {
    const stream = client.responses.stream({
      model: 'gpt-4o',
      instructions: 'be brief',
      input: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'input_text', text: 'hi there' }] },
      ],
    });
    let snapshot = '';
    stream.on('response.output_text.delta', (e) => (snapshot = e.snapshot));
    const final = await stream.finalResponse();

    expect(final.output_text).toBe('echo: hi there');
    expect(snapshot).toBe('echo: hi there');
    expect(final.status).toBe('completed');
    expect(fake.responsesRequests[0]?.body).toMatchObject({ instructions: 'be brief', stream: true });
  });

  it('answers a non-streamed request with the final response object', async () => {
    fake.enqueue({ kind: 'reply', chunks: ['plain ', 'answer'] });
    const res = await client.responses.create({ model: 'gpt-4o-mini', input: 'hi' });
    expect(res).toMatchObject({ object: 'response', status: 'completed', output_text: 'plain answer' });
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
    expect(fake.responsesRequests[0]?.body.stream).toBeUndefined();
  });

  it('streams function calls whose arguments parse back to the scripted object', async () => {
    const args = { city: 'Lisbon', unit: 'celsius' };
    fake.enqueue({
      kind: 'tool_calls',
      calls: [
        { id: 'call_weather', name: 'get_weather', arguments: JSON.stringify(args) },
        { name: 'get_time', arguments: '{}' },
      ],
    });
    const stream = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'weather?',
      tools: [weatherTool],
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);

    const added = events.flatMap((e) => (e.type === 'response.output_item.added' ? [e.item] : []));
    expect(added).toMatchObject([
      { type: 'function_call', name: 'get_weather', call_id: 'call_weather', arguments: '', status: 'in_progress' },
      { type: 'function_call', name: 'get_time', arguments: '', status: 'in_progress' },
    ]);
    const argDeltas = events.filter((e) => e.type === 'response.function_call_arguments.delta' && e.output_index === 0);
    expect(argDeltas.length).toBeGreaterThanOrEqual(2);
    const calls = events.flatMap((e) =>
      e.type === 'response.output_item.done' && e.item.type === 'function_call' ? [e.item] : [],
    );
    expect(calls.map((c) => [c.name, c.call_id, JSON.parse(c.arguments) as unknown])).toEqual([
      ['get_weather', 'call_weather', args],
      ['get_time', expect.stringMatching(/^call_/), {}],
    ]);
    expect(calls[0]?.id).toMatch(/^fc_/);
    const completed = events.at(-1);
    expect(completed?.type === 'response.completed' && completed.response.output).toEqual(calls);
    expect(fake.responsesRequests[0]?.body.tools).toEqual([weatherTool]);
  });

  it('surfaces an error step as OpenAI.APIError with its status, streamed or not', async () => {
    fake.enqueue({ kind: 'error', status: 500, message: 'The server had an error' });
    fake.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached, slow down' });
    const streamed: unknown = await client.responses
      .create({ model: 'm', input: 'x', stream: true })
      .catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(OpenAI.InternalServerError);
    expect((streamed as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
    const plain: unknown = await client.responses.create({ model: 'm', input: 'x' }).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(OpenAI.APIError);
    expect((plain as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((plain as Error).message).toContain('Rate limit reached, slow down');
  });

  it('records a follow-up whose input carries the function_call_output', async () => {
    fake.enqueue({
      kind: 'tool_calls',
      calls: [{ id: 'call_weather', name: 'get_weather', arguments: '{"city":"Lisbon"}' }],
    });
    const first = await client.responses
      .stream({ model: 'm', input: 'weather?', tools: [weatherTool] })
      .finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    if (!call) throw new Error('expected a function_call item');

    const second = await client.responses
      .stream({
        model: 'm',
        tools: [weatherTool],
        input: [
          { role: 'user', content: 'weather?' },
          { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
          { type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":21}' },
        ],
      })
      .finalResponse();

    expect(second.output_text).toBe('echo: weather?');
    expect(fake.responsesRequests).toHaveLength(2);
    expect(fake.responsesRequests[1]?.body.input).toContainEqual({
      type: 'function_call_output',
      call_id: 'call_weather',
      output: '{"temp_c":21}',
    });
  });

  it('breaks a stream mid-reply so iteration throws, and times out a hanging request', async () => {
    fake.enqueue({ kind: 'break', chunks: ['par', 'tial'] }, { kind: 'hang' });
    const stream = await client.responses.create({ model: 'm', input: 'x', stream: true });
    let text = '';
    const iterate = async (): Promise<void> => {
      for await (const e of stream) if (e.type === 'response.output_text.delta') text += e.delta;
    };
    await expect(iterate()).rejects.toThrow();
    expect(text).toBe('partial');

    const impatient = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0, timeout: 150 });
    const call = impatient.responses.create({ model: 'm', input: 'x', stream: true });
    await expect(call).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('shares one FIFO script between chat completions and responses', async () => {
    fake.enqueue(
      { kind: 'reply', chunks: ['one'] },
      { kind: 'reply', chunks: ['two'] },
      { kind: 'reply', chunks: ['three'] },
    );
    const a = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'a' }] });
    const b = await client.responses.create({ model: 'm', input: 'b' });
    const c = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'c' }] });
    expect([a.choices[0]?.message.content, b.output_text, c.choices[0]?.message.content]).toEqual([
      'one',
      'two',
      'three',
    ]);
    await fake.waitForRequests(3);
    await expect(fake.waitForRequests(4, 50)).rejects.toThrow(/2 chat \+ 1 responses/);
    expect(fake.requests.map((r) => r.endpoint)).toEqual(['chat', 'chat']);
    expect(fake.responsesRequests.map((r) => r.endpoint)).toEqual(['responses']);
  });
});

describe('fakeTelegram with a real grammY bot', () => {
  const token = '123456:TEST-token';
  let tg: FakeTelegram;
  let bot: Bot | undefined;
  let running: Promise<void> | undefined;

  beforeEach(async () => {
    tg = await startFakeTelegram();
  });
  afterEach(async () => {
    if (bot?.isRunning()) await bot.stop();
    await running; // surfaces a crashed polling loop as a test failure
    bot = running = undefined;
    await tg.close();
  });

  /** Starts long polling and resolves once the first long poll is open. */
  async function startBot(setup: (b: Bot) => void): Promise<Bot> {
    const b = new Bot(token, { client: { apiRoot: tg.apiRoot } });
    setup(b);
    bot = b;
    running = b.start();
    await tg.waitFor((calls) => calls.some((c) => c.method === 'getUpdates'));
    return b;
  }

  it('delivers a pushed update by long polling and records the ctx.reply', async () => {
    const replies: number[] = [];
    await startBot((b) =>
      b.on('message:text', async (ctx) => {
        const sent = await ctx.reply(`you said: ${ctx.message.text}`);
        replies.push(sent.message_id);
      }),
    );
    tg.pushUpdate(privateText({ updateId: 10, chatId: 42, text: 'hello' }));
    await tg.waitFor((calls) => calls.some((c) => c.method === 'sendMessage'));

    expect(tg.sentText(42)).toEqual(['you said: hello']);
    expect(tg.callsOf('sendMessage')[0]).toMatchObject({ token, params: { chat_id: 42, text: 'you said: hello' } });
    expect(tg.callsOf('getMe')).toHaveLength(1);
    expect(tg.callsOf('deleteWebhook')).toHaveLength(1);
    await expect.poll(() => replies).toEqual([11]); // ids are shared with the user's message 10

    await bot?.stop();
    expect(tg.callsOf('getUpdates').at(-1)?.params).toMatchObject({ offset: 11 }); // confirms the update
  });

  it('delivers photo and sticker fixtures that grammY filters recognise', async () => {
    const seen: string[] = [];
    await startBot((b) => {
      b.on('message:photo', (ctx) => void seen.push(`photo ${ctx.message.photo.length} ${ctx.message.caption ?? ''}`));
      b.on('message:sticker', (ctx) => void seen.push(`sticker ${ctx.message.sticker.emoji ?? ''}`));
    });
    tg.pushUpdate(privatePhoto({ updateId: 1, caption: 'look' }));
    tg.pushUpdate(privateSticker({ updateId: 2, emoji: '🐱' }));
    await expect.poll(() => seen).toEqual(['photo 4 look', 'sticker 🐱']);
  });

  it('applies editMessageText to sentText and rejects an unchanged edit', async () => {
    const api = new Bot(token, { client: { apiRoot: tg.apiRoot } }).api;
    const first = await api.sendMessage(-100777, 'draft');
    expect(first).toMatchObject({ message_id: 1, chat: { id: -100777, type: 'supergroup' }, from: { is_bot: true } });
    await api.sendMessage(-100777, 'second');
    const edited = await api.editMessageText(-100777, first.message_id, 'final');

    expect(edited).toMatchObject({ text: 'final' });
    expect(edited !== true && typeof edited.edit_date).toBe('number');
    expect(tg.sentText(-100777)).toEqual(['final', 'second']);
    const err: unknown = await api.editMessageText(-100777, first.message_id, 'final').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrammyError);
    expect((err as GrammyError).description).toContain('message is not modified');
  });

  it('answers 400 for oversized or empty text, and failNext with retry_after', async () => {
    const api = new Bot(token, { client: { apiRoot: tg.apiRoot } }).api;
    const tooLong: unknown = await api.sendMessage(42, 'x'.repeat(4097)).catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(GrammyError);
    expect(tooLong).toMatchObject({ error_code: 400, description: 'Bad Request: message is too long' });
    await expect(api.sendMessage(42, ' ')).rejects.toMatchObject({
      error_code: 400,
      description: 'Bad Request: message text is empty',
    });
    await expect(api.sendMessage(42, 'x'.repeat(4096))).resolves.toMatchObject({ message_id: 1 });

    tg.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 7', retry_after: 7 });
    await expect(api.sendMessage(42, 'hi')).rejects.toMatchObject({ error_code: 429, parameters: { retry_after: 7 } });
    await expect(api.sendMessage(42, 'hi')).resolves.toMatchObject({ message_id: 2 });
    expect(tg.sentText(42)).toEqual(['x'.repeat(4096), 'hi']);
  });

  it('holds getUpdates open until an update is pushed, and 404s unknown methods', async () => {
    const api = new Bot(token, { client: { apiRoot: tg.apiRoot } }).api;
    const started = Date.now();
    const poll = api.getUpdates({ timeout: 5 });
    await tg.waitFor((calls) => calls.some((c) => c.method === 'getUpdates'));
    setTimeout(() => tg.pushUpdate(privateText({ updateId: 5, text: 'late' })), 100);
    const got = await poll;
    expect(got.map((u) => u.update_id)).toEqual([5]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    await expect(api.getUpdates({ offset: 6, timeout: 0 })).resolves.toEqual([]);

    const res = await fetch(`${tg.apiRoot}/bot${token}/noSuchMethod`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error_code: 404, description: 'Not Found' });
  });
});

describe('fakeTelegram serving several bots, one per token', () => {
  const [t1, t2] = ['1001:alpha-token', '1002:beta-token'];
  const alpha = { id: 1001, first_name: 'Alpha', username: 'alpha_bot' };
  const group = PLACES.group.chatId;
  let tg: FakeTelegram;
  const bots: Bot[] = [];
  const running: Array<Promise<void>> = [];

  afterEach(async () => {
    for (const b of bots) if (b.isRunning()) await b.stop();
    await Promise.all(running); // surfaces a crashed polling loop (e.g. a 409) as a test failure
    bots.length = running.length = 0;
    await tg.close();
  });

  /** Alpha is configured up front, beta added later; api(token) talks to the fake as that bot. */
  async function start(o: { botToBot?: boolean } = {}): Promise<void> {
    tg = await startFakeTelegram({ bots: { [t1]: alpha }, ...o });
    tg.addBot(t2, { id: 1002, first_name: 'Beta' });
  }
  const api = (token: string): Api => new Api(token, { apiRoot: tg.apiRoot });
  const groupText = (updateId: number, text: string) => textUpdate({ updateId, place: PLACES.group, text });
  const updateIds = async (token: string): Promise<number[]> =>
    (await api(token).getUpdates({ timeout: 0 })).map((u) => u.update_id);

  it("answers getMe with each token's identity, and the default one for other tokens", async () => {
    await start();
    await expect(api(t1).getMe()).resolves.toMatchObject({ ...alpha, is_bot: true });
    await expect(api(t2).getMe()).resolves.toMatchObject({ id: 1002, first_name: 'Beta', username: 'fake_1002_bot' });
    await expect(api('999:other').getMe()).resolves.toMatchObject({ id: 7_000_000_001, username: 'fake_test_bot' });
    const sent = await api(t2).sendMessage(group, 'hi');
    expect(sent.from).toEqual({ id: 1002, is_bot: true, first_name: 'Beta', username: 'fake_1002_bot' });
  });

  it('delivers one pushed group message to every polling bot, each on its own long poll', async () => {
    await start();
    const seen: string[] = [];
    tg.pushUpdate(groupText(1, 'before anyone polled'));
    for (const token of [t1, t2]) {
      const b = new Bot(token, { client: { apiRoot: tg.apiRoot } });
      b.on('message:text', (ctx) => void seen.push(`${ctx.me.first_name}: ${ctx.message.text}`));
      bots.push(b);
      running.push(b.start());
      await tg.waitFor((calls) => calls.some((c) => c.method === 'getUpdates' && c.token === token));
    }
    tg.pushUpdate(groupText(2, 'hello bots'));
    await expect
      .poll(() => [...seen].sort())
      .toEqual(['Alpha: before anyone polled', 'Alpha: hello bots', 'Beta: before anyone polled', 'Beta: hello bots']);
  });

  it('queues an update pushed with tokens for those bots only', async () => {
    await start();
    await api(t1).getMe();
    tg.pushUpdate(groupText(5, 'for alpha'), { tokens: [t1] });
    await expect(updateIds(t1)).resolves.toEqual([5]);
    await expect(updateIds(t2)).resolves.toEqual([]); // not seen before, yet it inherits nothing targeted
  });

  it("with botToBot, shows a bot's group message to the other bots only, as a message update", async () => {
    await start({ botToBot: true });
    await Promise.all([api(t1).getMe(), api(t2).getMe()]);
    const sent = await api(t1).sendMessage(group, 'Alpha here');
    await api(t1).sendMessage(42, 'a private reply is not shared');

    const [update, ...rest] = await api(t2).getUpdates({ timeout: 0 });
    expect(rest).toEqual([]);
    expect(update?.message).toMatchObject({
      message_id: sent.message_id,
      chat: { id: group },
      from: { id: alpha.id, is_bot: true, username: 'alpha_bot' },
      text: 'Alpha here',
    });
    await expect(updateIds(t1)).resolves.toEqual([]);
    // A test's update id that clashes with a generated one is numbered after it in that bot's queue.
    tg.pushUpdate(groupText(1, 'user'));
    await expect(updateIds(t2)).resolves.toEqual([1, 2]);
    await expect(updateIds(t1)).resolves.toEqual([1]);
  });

  it("without botToBot, bots never see each other's messages", async () => {
    await start();
    await Promise.all([api(t1).getMe(), api(t2).getMe()]);
    await api(t1).sendMessage(group, 'Alpha here');
    await expect(updateIds(t2)).resolves.toEqual([]);
    await expect(updateIds(t1)).resolves.toEqual([]);
  });

  it('lets a bot edit only its own messages, and sentBy names the sender', async () => {
    await start();
    const first = await api(t1).sendMessage(group, 'alpha draft');
    await api(t2).sendMessage(group, 'beta says');
    await expect(api(t2).editMessageText(group, first.message_id, 'hijacked')).rejects.toMatchObject({
      error_code: 400,
      description: "Bad Request: message can't be edited",
    });
    await api(t1).editMessageText(group, first.message_id, 'alpha final');

    expect(tg.sentBy(group)).toEqual([
      { token: t1, botId: 1001, text: 'alpha final' },
      { token: t2, botId: 1002, text: 'beta says' },
    ]);
    expect(tg.sentText(group)).toEqual(['alpha final', 'beta says']);
  });

  it('keeps webhooks and command menus per token', async () => {
    await start();
    await api(t1).setWebhook('http://127.0.0.1:9/hook');
    await expect(api(t1).getUpdates({ timeout: 0 })).rejects.toMatchObject({ error_code: 409 });
    await expect(api(t2).getUpdates({ timeout: 0 })).resolves.toEqual([]);
    await expect(api(t2).getWebhookInfo()).resolves.toMatchObject({ url: '' });

    await api(t2).setMyCommands([{ command: 'beta', description: 'Beta' }]);
    await expect(api(t1).getMyCommands()).resolves.toEqual([]);
    expect(tg.commandsFor('', t2)).toEqual([{ command: 'beta', description: 'Beta' }]);
    expect(tg.commandsFor()).toEqual([{ command: 'beta', description: 'Beta' }]); // the first bot with a menu
    await expect(tg.deliverWebhook(groupText(1, 'x'), { token: t2 })).rejects.toThrow(/no webhook is set for/);
  });
});
