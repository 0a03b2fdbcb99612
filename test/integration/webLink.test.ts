// A person links their Telegram account to their web identity (SPEC §12): a code from the web
// API, `/link CODE` in the bot's DM, and from then on they are one Human — what they told the
// agent on Telegram (before and after linking) is recalled in their web conversation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { webApi } from '../support/webClient.js';
import { humanIdOf } from '../../src/store/participants.js';

const CHAT = 881_001;
let h: Harness;
let api: ReturnType<typeof webApi>;
let webHumanId: string;
let update = 0;

/** Texts of sendMessage calls to Ada's chat (notices come whole; replies start there and grow by edits). */
const sends = () =>
  h.tg
    .callsOf('sendMessage')
    .filter((c) => String(c.params.chat_id) === String(CHAT))
    .map((c) => String(c.params.text));

/** A Telegram DM from Ada; resolves with the first message the bot sent back. */
async function tell(text: string): Promise<string> {
  const before = sends().length;
  h.tg.pushUpdate(privateText({ updateId: ++update, chatId: CHAT, firstName: 'Ada', text }));
  return eventually(() => Promise.resolve(sends()[before]), 15_000, `an answer to "${text}"`);
}

beforeAll(async () => {
  h = await startHarness();
  const issued = await h.gql<{ issueWebToken: { token: string; user: { id: string } } }>(
    'mutation { issueWebToken(name: "Ada") { token user { id } } }',
  );
  api = webApi(h.app.apiUrl!, issued.body.data!.issueWebToken.token);
  webHumanId = humanIdOf({ platform: 'web', userId: issued.body.data!.issueWebToken.user.id });
});
afterAll(() => h.stop());

describe('linking a Telegram identity to a web user', () => {
  it('refuses a wrong code and a code sent in a group, then links with a fresh one', async () => {
    // Before linking, Ada is a Telegram person of her own, with what the agent learnt about her.
    const telegramId = humanIdOf({ platform: 'telegram', userId: String(CHAT) });
    await tell('I live in Lisbon.');
    await eventually(
      async () => (await h.app.store.memories.activeAbout(telegramId)).some((m) => /Lisbon/.test(m.text)),
      20_000,
      'the memory about Lisbon',
    );
    expect(await tell('/link NOTACODE')).toMatch(/not valid or has expired/);
    const code = await api.raw('POST', '/link-code', {});
    expect(code.status).toBe(201);
    expect(code.json).toMatchObject({ code: expect.stringMatching(/^[A-Z0-9]{8}$/) as string });
    // In a group the code is not taken (nor read out): still good in the DM afterwards.
    const GROUP = -100_881_001;
    h.tg.pushUpdate(
      textUpdate({
        updateId: ++update,
        place: { kind: 'group', chatId: GROUP },
        text: `/link ${String(code.json!.code)}`,
      }),
    );
    await eventually(
      () =>
        Promise.resolve(
          h.tg
            .callsOf('sendMessage')
            .some((c) => String(c.params.chat_id) === String(GROUP) && /private chat/.test(String(c.params.text))),
        ),
      15_000,
      'the group told to use a private chat',
    );
    expect(await tell(`/link ${String(code.json!.code)}`)).toMatch(/^Linked!/);
    // Taken once: the same code again is no good.
    expect(await tell(`/link ${String(code.json!.code)}`)).toMatch(/not valid or has expired/);
    const telegramHuman = await h.app.store.participants.getHuman(telegramId);
    expect(telegramHuman?.linkedTo).toBe(webHumanId);
    // What was learnt before moved to the web person; the original is kept, merged into it.
    expect(await h.app.store.memories.activeAbout(telegramId)).toEqual([]);
    const moved = (await h.app.store.memories.activeAbout(webHumanId)).find((m) => /Lisbon/.test(m.text));
    expect(moved?.sources.memoryIds).toHaveLength(1);
    const original = await h.app.store.memories.get(moved!.sources.memoryIds![0]!);
    expect(original).toMatchObject({ status: 'merged', mergedInto: moved!._id, subjectId: telegramId });
  });

  it('shares one memory: a fact told on Telegram is recalled in the web conversation', async () => {
    await tell('My cat is called Miso and she loves tuna.');
    // The memory job ran for the web person, not for a separate Telegram one.
    await eventually(
      async () => (await h.app.store.memories.activeAbout(webHumanId)).some((m) => /Miso/.test(m.text)),
      20_000,
      'the memory about Miso, filed under the web person',
    );
    const conv = await api.createConversation();
    h.llm.enqueue({ kind: 'reply', chunks: ['Miso!'] });
    const before = h.llm.requests.length;
    const r = await api.send(String(conv.json!.id), { content: 'What is my cat called?' });
    expect(r.status).toBe(200);
    const prompt = JSON.stringify(h.llm.requests[before]!.body.messages);
    expect(prompt).toContain('Miso');
  });
});
