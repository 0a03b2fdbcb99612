// Seed 001's director over a Telegram DM: the outline and progress instruction in the prompt,
// `[PROGRESS:n:status]` markers (one split across chunks) moving the plot with their evidence and
// never seen on Telegram, replies without progress counted up to the reminder, and markers still
// hidden (but not parsed) with the director off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-sse';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';

const CHAT = 661_001;
let h: Harness;
let dialogueId: string;
let backgroundId: string;
let update = 0;

/** One DM answered; resolves with the prompt the model was sent. */
async function turn(text: string, chatId = CHAT): Promise<string> {
  const before = await h.app.store.c.turns.countDocuments({ status: 'responded' });
  const requests = h.llm.requests.length;
  h.tg.pushUpdate(privateText({ updateId: ++update, messageId: update * 100, chatId, text }));
  await eventually(
    async () => ((await h.app.store.c.turns.countDocuments({ status: 'responded' })) > before ? true : undefined),
    15_000,
    `an answer to "${text}"`,
  );
  return JSON.stringify(h.llm.requests[requests]?.body.messages ?? null); // null: the model was not called
}

const story = async () =>
  (
    await h.gql<{
      dialogue: {
        story: {
          beats: Array<{ status: string }>;
          noUpdateCount: number;
          steps: Array<{ n: number; messageIds: string[] }>;
        };
      };
    }>('query($d: ID!) { dialogue(id: $d) { story { beats { status } noUpdateCount steps { n messageIds } } } }', {
      d: dialogueId,
    })
  ).body.data!.dialogue.story;

/** Every text the bot put on Telegram, streamed edits included. */
const everythingShown = () =>
  h.tg.calls
    .filter((c) => ['sendMessage', 'editMessageText', 'sendMessageDraft'].includes(c.method))
    .map((c) => String(c.params.text));

beforeAll(async () => {
  h = await startHarness();
  await turn('hello');
  dialogueId = (await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) }))!._id;
  const bg = await h.gql<{ createBackground: { id: string } }>(
    'mutation { createBackground(name: "Wasteland", worldSetting: "2087, fifty years after the war.", beats: ["Find the trail", "Sneak into the base", "Face the enemy", "Choose"]) { id } }',
  );
  backgroundId = bg.body.data!.createBackground.id;
  await follow(dialogueId);
});

/** The dialogue follows the test's background with the director on. */
async function follow(d: string): Promise<void> {
  await h.gql('mutation($d: ID!, $b: ID) { switchBackground(dialogueId: $d, backgroundId: $b) { noUpdateCount } }', {
    d,
    b: backgroundId,
  });
  await h.gql('mutation($d: ID!) { setDirector(dialogueId: $d, on: true) }', { d });
}
afterAll(() => h.stop());

describe('the director', () => {
  it('puts the outline in the prompt; a marker split across chunks moves the plot and is never shown', async () => {
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['We find tracks. [PROG', 'RESS:1:do', 'ne] The road is long.'],
      chunkDelayMs: 80,
    });
    const prompt = await turn('Where do we start?');
    expect(prompt).toContain('2087, fifty years after the war.');
    expect(prompt).toContain('1. [active] Find the trail');
    expect(prompt).toContain('[PROGRESS:<beat number>');

    const s = await story();
    expect(s.beats.map((b) => b.status)).toEqual(['done', 'pending', 'pending', 'pending']);
    const reply = await h.app.store.c.messages
      .find({ dialogueId, senderRole: 'ai' })
      .sort({ createdAt: -1 })
      .limit(1)
      .next();
    expect(reply!.content).toContain('[PROGRESS:1:done]'); // the record keeps what the model said
    expect(s.steps).toEqual([{ n: 1, messageIds: expect.arrayContaining([reply!._id]) as string[] }]);
    expect(everythingShown().filter((t) => /\[|PROG/.test(t))).toEqual([]);
    expect(everythingShown().at(-1)).toBe('We find tracks. The road is long.');
  });

  it('counts replies without progress (bad markers and failed replies too) and reminds at the threshold (3)', async () => {
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Quiet night. [PROGRESS:9:done]'] },
      { kind: 'reply', chunks: ['Still quiet. [PROGRESS:one:done]'] },
      // A failed reply moves nothing either (seed 001: no marker found).
      { kind: 'error', status: 400, message: 'the model refused' },
    );
    await turn('Anything?');
    await turn('And now?');
    await turn('Still?');
    expect((await story()).noUpdateCount).toBe(3);
    expect(everythingShown().filter((t) => /\[|PROG/.test(t))).toEqual([]);
    // Another storyline of the same agent and background got past beat 2.
    const OTHER = 661_002;
    await turn('hi there', OTHER);
    await follow((await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(OTHER) }))!._id);
    h.llm.enqueue({ kind: 'reply', chunks: ['The guard sleeps; we slip past the fence. [PROGRESS:2:done]'] });
    await turn('my-private-plan: go around the back', OTHER);

    const prompt = await turn('What next?');
    expect(prompt).toContain('[Director reminder]');
    expect(prompt).toContain('beat 2: Sneak into the base');
    // Built from this story's own progress and the other storyline's narration of the beat,
    // never the other person's words.
    expect(prompt).toContain('We find tracks. The road is long.');
    expect(prompt).toContain('The guard sleeps; we slip past the fence.');
    expect(prompt).not.toContain('my-private-plan');
    expect(prompt).not.toContain('PROGRESS:2:done');
    const built = await h.app.store.c.events
      .find({ dialogueId, kind: 'context_built' })
      .sort({ _id: -1 })
      .limit(1)
      .next();
    expect(built!.data.directorFallback).toMatchObject({ beat: 2, dialogueIds: [expect.any(String)] });
    const directorEvents = await h.app.store.c.events.find({ dialogueId, kind: 'director' }).toArray();
    expect(directorEvents.some((e) => JSON.stringify(e.data.refused ?? []).includes('UNKNOWN_BEAT'))).toBe(true);
    expect(directorEvents.some((e) => JSON.stringify(e.data.refused ?? []).includes('MALFORMED'))).toBe(true);
  });

  it("streams the director's decisions to a subscriber: a reply's markers and an operator's beat change", async () => {
    const client = createClient({
      url: `${h.app.apiUrl!}/graphql`,
      headers: { authorization: `Bearer ${TEST_VIEWER_TOKEN}` },
      retryAttempts: 0,
    });
    const seen: Array<{ kind: string; data: { applied: unknown[]; by?: string } }> = [];
    const dispose = client.subscribe<{ storyEvents: (typeof seen)[number] }>(
      { query: 'subscription($d: ID!) { storyEvents(dialogueId: $d) { kind data } }', variables: { d: dialogueId } },
      { next: (r) => void (r.data && seen.push(r.data.storyEvents)), error: () => {}, complete: () => {} },
    );
    try {
      // The subscription is live once a write reaches it; keep writing until one does.
      await eventually(
        async () => {
          await h.gql('mutation($d: ID!) { setBeatStatus(dialogueId: $d, n: 3, status: active) { noUpdateCount } }', {
            d: dialogueId,
          });
          return seen.length > 0 ? true : undefined;
        },
        10_000,
        'a director event on the subscription',
      );
      expect(seen[0]).toMatchObject({
        kind: 'director',
        data: { by: 'operator', applied: [{ n: 3, status: 'active' }] },
      });
      h.llm.enqueue({ kind: 'reply', chunks: ['The gate opens. [PROGRESS:3:done]'] });
      await turn('Open it.');
      await eventually(
        () =>
          Promise.resolve(
            seen.some((e) => JSON.stringify(e.data.applied) === '[{"n":3,"status":"done"}]') ? true : undefined,
          ),
        10_000,
        "the reply's director event",
      );
    } finally {
      dispose();
      client.dispose();
    }
  });

  it('counts a turn whose prompt was too long to send as one without progress', async () => {
    const before = (await story()).noUpdateCount;
    const requests = h.llm.requests.length;
    await h.app.store.config.update(
      { limits: { max_total_tokens: 10_000, middle_section_warning_tokens: 5_000 } },
      new Date(),
    );
    try {
      // Rare characters: several tokens each, so one message is over the limit.
      const huge = Array.from({ length: 6_000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7_919) % 20_000))).join(
        '',
      );
      await turn(huge);
      expect(h.llm.requests.length).toBe(requests); // the model was not called
      expect((await story()).noUpdateCount).toBe(before + 1);
    } finally {
      await h.app.store.config.update(
        { limits: { max_total_tokens: 100_000, middle_section_warning_tokens: 20_000 } },
        new Date(),
      );
    }
  });

  it('with the director off, markers stay hidden and move nothing', async () => {
    await h.gql('mutation($d: ID!) { setDirector(dialogueId: $d, on: false) }', { d: dialogueId });
    const before = await story();
    h.llm.enqueue({ kind: 'reply', chunks: ['Off the record [PROGRESS:2:done] indeed.'] });
    const prompt = await turn('Director?');
    expect(prompt).not.toContain('[Story outline]');
    expect(everythingShown().at(-1)).toBe('Off the record indeed.');
    expect(await story()).toEqual(before);
  });
});
