// Discord kinds end to end (issue 16 A): a DM forward, a poll and a mention by id are answered,
// and the model's prompt names what was sent instead of an empty message or a raw code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { startFakeDiscord, type FakeDiscord } from '../doubles/fakeDiscord.js';
import { forwardOf, mentioningUser, message, pollMessage } from '../fixtures/discordDispatches.js';
import { eventually } from '../support/testEnv.js';

describe('Discord kinds, end to end', () => {
  let h: Harness;
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord({ echo: true });
    h = await startHarness({ DISCORD_BOT_TOKEN: discord.token, DISCORD_API_ROOT: discord.apiRoot });
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await discord.close();
  });

  const prompted = (text: string) => h.llm.requests.some((r) => JSON.stringify(r.body.messages ?? []).includes(text));

  it('answers a forward, a poll and a mention in a DM, each named in the prompt', async () => {
    const w = discord.world;
    const cases = [
      {
        m: forwardOf(w, 'dm', { content: 'the meeting moved to 9' }),
        reads: '[forwarded from #general] the meeting moved to 9',
      },
      { m: pollMessage(w, 'dm'), reads: '[poll \\"Pizza or sushi?\\" — options: \\"Pizza\\" / \\"Sushi\\"]' },
      { m: mentioningUser(message(w, 'dm'), w.bob, 'ask @@ about it'), reads: 'ask @Bob about it' },
    ];
    for (const [i, c] of cases.entries()) {
      discord.dispatch('MESSAGE_CREATE', c.m);
      await eventually(
        () => Promise.resolve(discord.messages(w.dmId).filter((x) => x.bot && x.content.includes('echo:')).length > i),
        20_000,
        `answer ${i}`,
      );
      expect(prompted(c.reads), c.reads).toBe(true);
    }
    expect(await h.app.store.c.messages.countDocuments({ rejected: { $exists: true } })).toBe(0);
    expect(discord.messages(w.dmId).some((x) => x.bot && /empty/i.test(x.content))).toBe(false);
  });
});
