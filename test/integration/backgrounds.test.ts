// Seed 001's backgrounds over GraphQL: a dialogue follows one; beats move (by an operator here,
// by the director later); switching to another background and back restores the first story's
// plot state; bad input is refused with its code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { webApi } from '../support/webClient.js';
import { TEST_OPS_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';

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
});
