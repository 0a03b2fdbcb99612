// Seed 001's director over a Telegram DM: the outline and progress instruction in the prompt,
// `[PROGRESS:n:status]` markers (one split across chunks) moving the plot with their evidence and
// never seen on Telegram, replies without progress counted up to the reminder, and markers still
// hidden (but not parsed) with the director off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';

const CHAT = 661_001;
let h: Harness;
let dialogueId: string;
let update = 0;

/** One DM answered; resolves with the prompt the model was sent. */
async function turn(text: string): Promise<string> {
  const before = await h.app.store.c.turns.countDocuments({ status: 'responded' });
  const requests = h.llm.requests.length;
  h.tg.pushUpdate(privateText({ updateId: ++update, messageId: update * 100, chatId: CHAT, text }));
  await eventually(
    async () => ((await h.app.store.c.turns.countDocuments({ status: 'responded' })) > before ? true : undefined),
    15_000,
    `an answer to "${text}"`,
  );
  return JSON.stringify(h.llm.requests[requests]!.body.messages);
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
  await h.gql('mutation($d: ID!, $b: ID) { switchBackground(dialogueId: $d, backgroundId: $b) { noUpdateCount } }', {
    d: dialogueId,
    b: bg.body.data!.createBackground.id,
  });
  await h.gql('mutation($d: ID!) { setDirector(dialogueId: $d, on: true) }', { d: dialogueId });
});
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

  it('counts replies without progress (bad markers too) and reminds at the threshold (3)', async () => {
    h.llm.enqueue(
      { kind: 'reply', chunks: ['Quiet night. [PROGRESS:9:done]'] },
      { kind: 'reply', chunks: ['Still quiet. [PROGRESS:one:done]'] },
      { kind: 'reply', chunks: ['Nothing happens.'] },
    );
    await turn('Anything?');
    await turn('And now?');
    await turn('Still?');
    expect((await story()).noUpdateCount).toBe(3);
    expect(everythingShown().filter((t) => /\[|PROG/.test(t))).toEqual([]);
    const prompt = await turn('What next?');
    expect(prompt).toContain('[Director reminder]');
    expect(prompt).toContain('beat 2: Sneak into the base');
    const directorEvents = await h.app.store.c.events.find({ dialogueId, kind: 'director' }).toArray();
    expect(directorEvents.some((e) => JSON.stringify(e.data.refused).includes('UNKNOWN_BEAT'))).toBe(true);
    expect(directorEvents.some((e) => JSON.stringify(e.data.refused).includes('MALFORMED'))).toBe(true);
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
