// Seed 001's backgrounds over GraphQL: a dialogue follows one; beats move (by an operator here,
// by the director later); switching to another background and back restores the first story's
// plot state; bad input is refused with its code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { streamedText, webApi } from '../support/webClient.js';
import { eventually, TEST_OPS_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';

let h: Harness;
let dialogueId: string;

const STORY = '{ background { name } beats { n status } noUpdateCount steps { n status by } }';

async function background(name: string, beats: string[]): Promise<string> {
  const r = await h.gql<{ createBackground: { id: string } }>(
    'mutation($n: String!, $w: String!, $b: [String!]!) { createBackground(name: $n, worldSetting: $w, beats: $b) { id } }',
    { n: name, w: `The world of ${name}.`, b: beats },
  );
  return r.body.data!.createBackground.id;
}

beforeAll(async () => {
  h = await startHarness();
  const conv = await webApi(h.app.apiUrl!, TEST_OPS_TOKEN).createConversation();
  dialogueId = String(conv.json!.dialogueId);
});
afterAll(() => h.stop());

describe('backgrounds and plot state', () => {
  it('switching background and back restores each one’s plot state', async () => {
    const wasteland = await background('Wasteland', ['Find the trail', 'Sneak in', 'Face the enemy', 'Choose']);
    const harbour = await background('Harbour', ['Arrive', 'Meet the captain']);

    const sw = (id: string | null) =>
      h.gql<{ switchBackground: unknown }>(
        `mutation($d: ID!, $b: ID) { switchBackground(dialogueId: $d, backgroundId: $b) ${STORY} }`,
        { d: dialogueId, b: id },
      );
    expect((await sw(wasteland)).body.data?.switchBackground).toMatchObject({
      background: { name: 'Wasteland' },
      beats: [
        { n: 1, status: 'active' },
        { n: 2, status: 'pending' },
        { n: 3, status: 'pending' },
        { n: 4, status: 'pending' },
      ],
    });
    const step = await h.gql<{ setBeatStatus: { beats: Array<{ status: string }> } }>(
      `mutation($d: ID!) { setBeatStatus(dialogueId: $d, n: 1, status: done) ${STORY} }`,
      { d: dialogueId },
    );
    expect(step.body.data?.setBeatStatus.beats.map((b) => b.status)).toEqual(['done', 'pending', 'pending', 'pending']);

    expect((await sw(harbour)).body.data?.switchBackground).toMatchObject({
      background: { name: 'Harbour' },
      beats: [
        { n: 1, status: 'active' },
        { n: 2, status: 'pending' },
      ],
    });
    const back = await sw(wasteland);
    expect(back.body.data?.switchBackground).toMatchObject({
      beats: [{ status: 'done' }, { status: 'pending' }, { status: 'pending' }, { status: 'pending' }],
      steps: [{ n: 1, status: 'done', by: 'operator' }],
    });
    const read = await h.gql<{ dialogue: { story: { background: { name: string } } } }>(
      `query($d: ID!) { dialogue(id: $d) { story ${STORY} } }`,
      { d: dialogueId },
    );
    expect(read.body.data?.dialogue.story.background.name).toBe('Wasteland');
    expect((await sw(null)).body.data?.switchBackground).toBeNull();
  });

  it('refuses unknown beats, oversized outlines, unknown ids and viewers', async () => {
    const id = await background('Short', ['Only beat']);
    await h.gql('mutation($d: ID!, $b: ID) { switchBackground(dialogueId: $d, backgroundId: $b) { noUpdateCount } }', {
      d: dialogueId,
      b: id,
    });
    const code = (r: { body: { errors?: Array<{ extensions?: { code?: string } }> } }) =>
      r.body.errors?.[0]?.extensions?.code;
    expect(
      code(
        await h.gql(`mutation($d: ID!) { setBeatStatus(dialogueId: $d, n: 7, status: done) { noUpdateCount } }`, {
          d: dialogueId,
        }),
      ),
    ).toBe('BAD_REQUEST');
    const huge = await h.gql(
      'mutation($b: [String!]!) { createBackground(name: "Too long", worldSetting: "", beats: $b) { id } }',
      {
        b: Array.from({ length: 31 }, (_, i) => `beat ${i}`),
      },
    );
    expect(code(huge)).toBe('BAD_REQUEST');
    expect(
      code(await h.gql('mutation { switchBackground(dialogueId: "dlg_nope", backgroundId: null) { noUpdateCount } }')),
    ).toBe('CONVERSATION_NOT_FOUND');
    expect(
      code(
        await h.gql(
          'mutation($d: ID!) { switchBackground(dialogueId: $d, backgroundId: "bgd_nope") { noUpdateCount } }',
          { d: dialogueId },
        ),
      ),
    ).toBe('NOT_FOUND');
    const viewer = await h.gql(
      'mutation { createBackground(name: "x", worldSetting: "", beats: ["a"]) { id } }',
      {},
      TEST_VIEWER_TOKEN,
    );
    expect(code(viewer)).toBe('FORBIDDEN');
  });

  it('lets people list and switch backgrounds in chat with /background, each keeping its story', async () => {
    const CHAT = 662_001;
    let update = 0;
    /** Sends one DM and resolves with the bot's answer to it. */
    const say = async (text: string): Promise<string> => {
      const before = h.tg.calls.filter((c) => c.method === 'sendMessage').length;
      h.tg.pushUpdate(privateText({ updateId: ++update, messageId: update * 100, chatId: CHAT, text }));
      return eventually(
        () => {
          const sent = h.tg.calls.filter((c) => c.method === 'sendMessage');
          return Promise.resolve(sent.length > before ? String(sent.at(-1)!.params.text) : undefined);
        },
        10_000,
        `the answer to ${text}`,
      );
    };
    const list = await say('/background');
    expect(list).toMatch(/1\. Wasteland\n2\. Harbour\n3\. Short/);
    expect(await say('/background 2')).toMatch(/“Harbour”; the story continues at beat 1/);
    const dlg = (await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) }))!;
    expect(dlg.backgroundId).toBeDefined();
    await h.gql('mutation($d: ID!) { setBeatStatus(dialogueId: $d, n: 1, status: done) { noUpdateCount } }', {
      d: dlg._id,
    });
    expect(await say('/background wasteland')).toMatch(/“Wasteland”; the story continues at beat 1/);
    expect(await say('/background 99')).toMatch(/no such background/);
    // Back to the harbour: its story resumes at beat 2, the first one was done here.
    expect(await say('/background Harbour')).toMatch(/continues at beat 2/);
    expect(await say('/background off')).toMatch(/No background now/);
    expect((await h.app.store.dialogues.get(dlg._id))!.backgroundId ?? null).toBeNull();
    // Commands are recorded, never answered by the model.
    expect(h.llm.requests.filter((r) => JSON.stringify(r.body).includes('/background'))).toEqual([]);
  });

  it('never shows a progress marker to a web user, while the record keeps it and the plot moves', async () => {
    const id = await background('Web story', ['Meet', 'Travel']);
    const web = webApi(h.app.apiUrl!, TEST_OPS_TOKEN);
    const conv = await web.createConversation();
    const d = String(conv.json!.dialogueId);
    await h.gql('mutation($d: ID!, $b: ID) { switchBackground(dialogueId: $d, backgroundId: $b) { noUpdateCount } }', {
      d,
      b: id,
    });
    await h.gql('mutation($d: ID!) { setDirector(dialogueId: $d, on: true) }', { d });
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['We meet at dawn. [PRO', 'GRESS:1:do', 'ne] Then we go.'],
      chunkDelayMs: 150,
    });
    const r = await web.send(String(conv.json!.id), { content: 'Shall we?' });
    expect(r.status).toBe(200);
    const shown = streamedText(r.events);
    expect(shown).toBe('We meet at dawn. Then we go.');
    expect(JSON.stringify(r.events)).not.toMatch(/PRO|GRESS/);
    // The plot moves just after the reply is complete (the stream may end first).
    const beats = async () =>
      (
        await h.gql<{ dialogue: { story: { beats: Array<{ status: string }> } } }>(
          'query($d: ID!) { dialogue(id: $d) { story { beats { status } } } }',
          { d },
        )
      ).body.data?.dialogue.story.beats.map((b) => b.status);
    await eventually(async () => ((await beats())?.[0] === 'done' ? true : undefined), 5_000, 'beat 1 done');
    expect(await beats()).toEqual(['done', 'pending']);
    // The conversation as the web reads it back shows what people saw.
    expect(JSON.stringify((await web.get(String(conv.json!.id))).json)).not.toContain('PROGRESS');
  });
});
