// SPEC §14 on Discord, through discord.js against the fake gateway: under an allowlist a DM from
// someone not let in reaches no model and gets the notice; `/start CODE` in the DM lets them in,
// and their next DM is answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import { message } from '../fixtures/discordDispatches.js';

describe('Discord: invites in a DM (SPEC §14)', () => {
  let h: Harness;
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord({ echo: true });
    h = await startHarness({ DISCORD_BOT_TOKEN: discord.token, DISCORD_API_ROOT: discord.apiRoot });
    await h.app.store.config.update({ access: { mode: 'allowlist' } }, new Date());
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await discord.close();
  });

  const botSays = (text: string) =>
    eventually(
      () => Promise.resolve(discord.messages(discord.world.dmId).some((m) => m.bot && m.content.includes(text))),
      20_000,
      `bot says "${text}"`,
    );
  const stored = (id: string) =>
    eventually(
      async () => (await h.app.store.c.messages.findOne({ 'platformRef.messageId': id })) ?? undefined,
      10_000,
      'message stored',
    );
  const callsWith = (text: string) => h.llm.requests.filter((r) => JSON.stringify(r.body).includes(text)).length;

  it('refuses a DM before the invite, and answers after `/start CODE`', async () => {
    const w = discord.world;
    const knock = message(w, 'dm', { content: 'hello before any invite' });
    discord.dispatch('MESSAGE_CREATE', knock);
    expect((await stored(knock.id)).rejected).toEqual({ code: 'ACCESS_DENIED', reason: 'not_admitted' });
    await botSays('/start CODE');
    expect(callsWith('hello before any invite')).toBe(0);

    const made = await h.gql<{ createInvite: { code: string } }>('mutation { createInvite(maxUses: 1) { code } }');
    const code = made.body.data!.createInvite.code;
    discord.dispatch('MESSAGE_CREATE', message(w, 'dm', { content: `/start ${code}` }));
    await botSays('Welcome');

    h.llm.enqueue({ kind: 'reply', chunks: ['Glad you made it.'] });
    const after = message(w, 'dm', { content: 'hello after the invite' });
    discord.dispatch('MESSAGE_CREATE', after);
    await botSays('Glad you made it.');
    expect((await stored(after.id)).rejected).toBeUndefined();
    expect(callsWith('hello after the invite')).toBeGreaterThanOrEqual(1);
  });
});
