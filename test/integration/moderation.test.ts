// Moderation of replies through the real pipeline (SPEC §14): Telegram in (grammY against the
// fake Bot API), the fake model streaming, the moderation gate among the stream stages, and the
// real `openai` client against a local `/moderations` double. A flagged reply never reaches the
// platform — not a draft, a send or an edit — only the notice does; it is stored as withheld,
// its text kept for operators in the trace event and listed among the health incidents. A clean
// reply is shown (the positive control), and an endpoint that is down lets replies through with
// a warning logged.
import { createServer } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { startFakeModeration, type FakeModeration } from '../doubles/fakeModeration.js';
import type { Message } from '../../src/domain/model.js';

const CHAT = 737373;
const WITHHELD = 'Sorry, this reply did not pass content moderation and was withheld.';

/** The AI messages once `n` of them are finished, oldest first. */
async function finishedReplies(h: Harness, n: number): Promise<Message[]> {
  return eventually(
    async () => {
      const ai = await h.app.store.c.messages.find({ senderRole: 'ai' }).sort({ createdAt: 1 }).toArray();
      return ai.length >= n && ai.every((m) => m.delivery?.state !== 'streaming') ? ai : undefined;
    },
    20_000,
    `${n} finished AI message(s)`,
  );
}

/** Every text the platform was ever given for the chat: drafts, sends and edits. */
const everyText = (h: Harness): string[] =>
  h.tg.calls
    .filter((c) => String(c.params.chat_id) === String(CHAT))
    .map((c) => c.params.text)
    .filter((t): t is string => typeof t === 'string');

function say(h: Harness, n: number, text: string): void {
  h.tg.pushUpdate(privateText({ updateId: n, chatId: CHAT, messageId: n, text }));
}

async function moderationEvents(h: Harness, turnId: string) {
  return (await h.app.store.events.ofTurn(turnId)).filter((e) => e.kind === 'moderation');
}

async function incidents(h: Harness) {
  const r = await h.gql<{ health: { incidents: Array<{ kind: string; turnId: string | null; message: string }> } }>(
    '{ health { incidents { kind turnId message } } }',
  );
  return r.body.data?.health.incidents ?? [];
}

/** A port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('moderation of replies', () => {
  let h: Harness;
  let fake: FakeModeration | undefined;
  afterEach(async () => {
    await h.stop();
    await fake?.close();
    fake = undefined;
  });

  it('withholds a reply holding a configured keyword: the platform shows only the notice; a clean reply is shown', async () => {
    h = await startHarness();
    await h.app.store.config.update({ moderation: { keywords: ['forbidden fruit'] } }, new Date(), 'test');
    // Chunks far enough apart that an unchecked reply would stream in several pushes.
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['Here is where to find ', 'the Forbidden Fruit', ': behind the old garden wall.'],
      chunkDelayMs: 150,
    });
    say(h, 1, 'Where can I find something sweet?');
    const [withheld] = await finishedReplies(h, 1);
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes(WITHHELD), 5_000);

    for (const t of everyText(h)) expect(t).not.toMatch(/Forbidden|Here is where|garden wall/);
    expect(h.tg.sentText(CHAT)).toEqual([WITHHELD]);
    // Stored as withheld: no text said (it reaches no prompt or memory), the notice as shown.
    expect(withheld!.content).toBe('');
    expect(withheld!.delivery).toMatchObject({
      state: 'error',
      shown: WITHHELD,
      error: { code: 'REPLY_WITHHELD', message: 'moderation withheld the reply: keyword "forbidden fruit"' },
    });
    const [event] = await moderationEvents(h, withheld!.turnId!);
    expect(event?.data).toMatchObject({
      direction: 'out',
      flagged: true,
      by: 'keyword',
      matched: 'forbidden fruit',
      text: 'Here is where to find the Forbidden Fruit: behind the old garden wall.',
    });
    const listed = (await incidents(h)).find((i) => i.kind === 'moderation');
    expect(listed).toMatchObject({ turnId: withheld!.turnId });
    expect(listed?.message).toBe('reply flagged by keyword "forbidden fruit": withheld, a notice shown instead');
    // The platform shows the final text just before the turn is closed in the store.
    const turn = await eventually(
      async () => {
        const t = await h.app.store.turns.get(withheld!.turnId!);
        return t && t.status !== 'pending' ? t : undefined;
      },
      5_000,
      'turn closed',
    );
    expect(turn.status).toBe('responded');

    // Positive control: a clean reply under the same keywords is shown whole.
    h.llm.enqueue({ kind: 'reply', chunks: ['Apples grow ', 'on trees.'], chunkDelayMs: 100 });
    say(h, 2, 'And something ordinary?');
    const [, clean] = await finishedReplies(h, 2);
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Apples grow on trees.'), 5_000);
    expect(clean!.content).toBe('Apples grow on trees.');
    expect(clean!.delivery?.state).toBe('complete');
    expect(await moderationEvents(h, clean!.turnId!)).toEqual([]);
  });

  it('withholds a reply the /moderations endpoint flags (real client, OpenAI’s response shape); a clean one is shown', async () => {
    fake = await startFakeModeration({ hurt: 'violence' });
    h = await startHarness({ MODERATION_BASE_URL: fake.baseURL, MODERATION_API_KEY: 'sk-moderation-test-0000' });
    h.llm.enqueue({ kind: 'reply', chunks: ['I will ', 'hurt you.'], chunkDelayMs: 100 });
    say(h, 1, 'What will you do?');
    const [withheld] = await finishedReplies(h, 1);
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes(WITHHELD), 5_000);
    for (const t of everyText(h)) expect(t).not.toMatch(/hurt/);
    expect(withheld!.delivery).toMatchObject({
      state: 'error',
      error: { code: 'REPLY_WITHHELD', message: 'moderation withheld the reply (endpoint: violence)' },
    });
    const [event] = await moderationEvents(h, withheld!.turnId!);
    expect(event?.data).toMatchObject({
      direction: 'out',
      by: 'endpoint',
      categories: ['violence'],
      text: 'I will hurt you.',
    });
    expect(fake.requests).toContainEqual(
      expect.objectContaining({
        model: 'omni-moderation-latest',
        input: 'I will hurt you.',
        authorization: 'Bearer sk-moderation-test-0000',
      }),
    );

    h.llm.enqueue({ kind: 'reply', chunks: ['I will ', 'make tea.'] });
    say(h, 2, 'And then?');
    const [, clean] = await finishedReplies(h, 2);
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('I will make tea.'), 5_000);
    expect(clean!.delivery?.state).toBe('complete');
    expect(fake.requests.some((r) => r.input === 'I will make tea.')).toBe(true);
  });

  it('shows the reply when the endpoint is down, logging a warning and recording it as unchecked', async () => {
    const lines: Array<{ level: number; msg: string; code?: string; direction?: string }> = [];
    const log = pino(
      { level: 'warn' },
      { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[0]) },
    );
    const port = await closedPort();
    h = await startHarness(
      { MODERATION_BASE_URL: `http://127.0.0.1:${port}/v1`, MODERATION_TIMEOUT_MS: '2000' },
      undefined,
      {},
      {},
      { log },
    );
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello from ', 'the garden.'] });
    say(h, 1, 'Hi!');
    const [reply] = await finishedReplies(h, 1);
    await h.tg.waitFor(() => h.tg.sentText(CHAT).includes('Hello from the garden.'), 5_000);
    expect(reply).toMatchObject({ content: 'Hello from the garden.', delivery: { state: 'complete' } });
    const warned = lines.find((l) => l.code === 'MODERATION_UNAVAILABLE' && l.direction === 'out');
    expect(warned?.level).toBe(40);
    expect(warned?.msg).toBe('moderation endpoint failed: the text passes unchecked by it (fail open)');
    // The person's message went unchecked too: both directions are in the turn's record.
    const events = await moderationEvents(h, reply!.turnId!);
    expect(events.map((e) => e.data.direction).sort()).toEqual(['in', 'out']);
    const event = events.find((e) => e.data.direction === 'out');
    expect(event?.data).toMatchObject({ direction: 'out', flagged: false, text: 'Hello from the garden.' });
    expect(event?.data.endpointFailed).toEqual(expect.any(String));
    const listed = (await incidents(h)).filter((i) => i.kind === 'moderation').map((i) => i.message);
    expect(listed).toContainEqual(
      expect.stringMatching(/^moderation endpoint failed \(.+\): the reply passed unchecked by it$/),
    );
  });
});
