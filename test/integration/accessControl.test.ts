// SPEC §14, who may talk, end to end through grammY against the fake Bot API: under an allowlist
// a stranger causes no model call and hears one notice; an invite lets in as many people as it
// says; a blocked person is never answered; an admitted group's members are answered there (and
// not in their private chats). Every refusal is checked beside the same path answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/testEnv.js';
import { PLACES, textUpdate } from '../fixtures/telegramUpdates.js';
import type { Message } from '../../src/domain/model.js';
import { humanIdOf } from '../../src/store/participants.js';

const BOT = '@fake_test_bot';
let updateId = 1;
/**
 * People's message ids, far apart: the fake Bot API numbers the bot's messages after the
 * highest id in the chat, and a person's next message must not take the id of a notice.
 */
const messageIdOf = (update: number) => update * 1000;

describe('access under an allowlist (SPEC §14)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.app.store.config.update({ access: { mode: 'allowlist' } }, new Date());
  });
  afterAll(() => h.stop());

  /** A DM from `userId`; resolves once it is stored. */
  async function dm(userId: number, text: string): Promise<Message> {
    const id = updateId++;
    h.tg.pushUpdate(textUpdate({ updateId: id, messageId: messageIdOf(id), userId, firstName: `U${userId}`, text }));
    return stored(userId, messageIdOf(id));
  }

  /** A message in the group, addressed to the bot when it names it. */
  async function inGroup(userId: number, text: string): Promise<Message> {
    const id = updateId++;
    const messageId = messageIdOf(id);
    h.tg.pushUpdate(
      textUpdate({ updateId: id, messageId, userId, firstName: `U${userId}`, text, place: PLACES.group }),
    );
    return stored(PLACES.group.chatId, messageId);
  }

  const stored = (chatId: number, messageId: number) =>
    eventually(
      async () =>
        (await h.app.store.c.messages.findOne({
          'platformRef.chatId': String(chatId),
          'platformRef.messageId': String(messageId),
        })) ?? undefined,
      10_000,
      `message ${messageId} stored`,
    );

  /** What the bot said in a chat, once it has said `n` things there. */
  const said = (chatId: number, n: number) =>
    eventually(
      () => {
        const texts = h.tg.sentText(chatId);
        return Promise.resolve(texts.length >= n ? texts : undefined);
      },
      10_000,
      `${n} messages in ${chatId}`,
    );

  /** The model calls that carried this text in their last user message. */
  const callsWith = (text: string) =>
    h.llm.requests.filter((r) => JSON.stringify(r.body.messages.at(-1)?.content ?? '').includes(text)).length;

  const humanOf = (userId: number) => humanIdOf({ platform: 'telegram', userId: String(userId) });

  /** Waits for a message's reply (positive control: the path answers those let in). */
  const answered = (m: Message) =>
    eventually(
      async () => (await h.app.store.c.turns.findOne({ _id: m.turnId ?? '-' }))?.status === 'responded',
      15_000,
      `reply to ${m.content}`,
    );

  it("refuses a stranger's DMs with one notice and no model call, and records them as refused", async () => {
    const first = await dm(501, 'stranger one');
    const second = await dm(501, 'stranger two');
    expect(first.rejected).toEqual({ code: 'ACCESS_DENIED', reason: 'not_admitted' });
    expect(second.rejected).toEqual({ code: 'ACCESS_DENIED', reason: 'not_admitted' });
    expect(first.turnId).toBeUndefined();
    const texts = await said(501, 1);
    // Give a second notice the time to show up, were it to be sent (a chat's sends are paced).
    await new Promise((r) => setTimeout(r, 1500));
    expect(h.tg.sentText(501)).toEqual(texts);
    expect(texts[0]).toContain('/start CODE');
    expect(callsWith('stranger')).toBe(0);
    // Positive control: the same chat path answers a person let in by an operator.
    const id = humanOf(502);
    await dm(502, 'warming up'); // the person exists once they wrote
    const set = await h.gql<{ setHumanAccess: { access: string } }>(
      'mutation($id: ID!) { setHumanAccess(humanId: $id, access: ALLOWED) { access } }',
      { id },
    );
    expect(set.body.data?.setHumanAccess.access).toBe('ALLOWED');
    await answered(await dm(502, 'admitted hello'));
    expect(callsWith('admitted hello')).toBe(1);
  });

  it('lets one person in by a single-use invite and refuses the second, the expired and the unknown', async () => {
    const made = await h.gql<{ createInvite: { code: string; link: string | null; expiresAt: string | null } }>(
      'mutation { createInvite(maxUses: 1) { code link expiresAt } }',
    );
    const { code, link, expiresAt } = made.body.data!.createInvite;
    expect(link).toBe(`https://t.me/fake_test_bot?start=${code}`);
    expect(expiresAt).toBeNull();
    await dm(511, `/start ${code}`);
    expect((await said(511, 1))[0]).toContain('Welcome');
    await answered(await dm(511, 'invited hello'));
    expect(callsWith('invited hello')).toBe(1);

    await dm(512, `/start ${code}`);
    expect((await said(512, 1))[0]).toContain('used up');
    expect((await dm(512, 'second person hello')).rejected?.reason).toBe('not_admitted');
    expect(callsWith('second person hello')).toBe(0);

    const timed = await h.gql<{ createInvite: { code: string; expiresAt: string } }>(
      'mutation { createInvite(maxUses: 5, expiresInHours: 1) { code expiresAt } }',
    );
    const late = timed.body.data!.createInvite;
    expect(new Date(late.expiresAt).getTime()).toBeGreaterThan(Date.now());
    await h.app.store.c.invites.updateOne({ _id: late.code }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    await dm(513, `/start ${late.code}`);
    expect((await said(513, 1))[0]).toContain('expired');
    await dm(514, '/start NOSUCHCODE');
    expect((await said(514, 1))[0]).toContain('does not exist');
    expect((await h.app.store.access.getInvite(late.code))?.usedBy).toEqual([]);
    const listed = await h.gql<{ invites: Array<{ code: string; uses: number }> }>('{ invites { code uses } }');
    expect(listed.body.data?.invites.find((i) => i.code === code)?.uses).toBe(1);
  });

  it('never answers a blocked person, under any mode, and tells them at most once', async () => {
    await dm(521, 'before the block'); // the person exists once they wrote
    const id = humanOf(521);
    await h.gql('mutation($id: ID!) { setHumanAccess(humanId: $id, access: BLOCKED) { id } }', { id });
    await h.app.store.config.update({ access: { mode: 'open' } }, new Date());
    try {
      const blocked = await dm(521, 'blocked one');
      await dm(521, 'blocked two');
      expect(blocked.rejected).toEqual({ code: 'ACCESS_DENIED', reason: 'blocked' });
      const blockedNotices = () => h.tg.sentText(521).filter((t) => t.includes('no longer'));
      await eventually(() => Promise.resolve(blockedNotices().length > 0), 10_000, 'the blocked notice');
      // Give a second notice the time to show up, were it to be sent.
      await new Promise((r) => setTimeout(r, 1500));
      expect(blockedNotices()).toHaveLength(1);
      expect(callsWith('blocked')).toBe(0);
      // Positive control: open mode answers a stranger.
      await answered(await dm(522, 'open stranger'));
    } finally {
      await h.app.store.config.update({ access: { mode: 'allowlist' } }, new Date());
    }
  });

  it('answers everyone in a group an admitted person let in, but not in their private chats', async () => {
    const before = await inGroup(531, `${BOT} group stranger`);
    expect(before.rejected?.reason).toBe('not_admitted');
    expect(callsWith('group stranger')).toBe(0);
    // A member not let in cannot let the group in.
    await inGroup(531, `/allow${BOT}`);
    await dm(532, 'hi'); // exists
    await h.gql('mutation($id: ID!) { setHumanAccess(humanId: $id, access: ALLOWED) { id } }', { id: humanOf(532) });
    await inGroup(532, `/allow${BOT}`);
    const notices = await eventually(
      () => {
        const texts = h.tg.sentText(PLACES.group.chatId);
        return Promise.resolve(texts.some((t) => t.includes('this group is let in')) ? texts : undefined);
      },
      15_000,
      'the group let in',
    );
    expect(notices.some((t) => t.includes('This group is not let in yet'))).toBe(true);
    expect(notices.some((t) => t.includes('Only someone who is let in'))).toBe(true);
    await answered(await inGroup(531, `${BOT} group member now`));
    expect(callsWith('group member now')).toBe(1);
    expect((await dm(531, 'private still closed')).rejected?.reason).toBe('not_admitted');
    const q = await h.gql<{ dialogue: { access: string } }>('query($id: ID!) { dialogue(id: $id) { access } }', {
      id: before.dialogueId,
    });
    expect(q.body.data?.dialogue.access).toBe('ALLOWED');
  });

  it('refuses bad input clearly and changes nothing', async () => {
    const bad = await h.gql('mutation { createInvite(maxUses: 0) { code } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(bad.body.errors?.[0]?.message).toContain('maxUses');
    const before = await h.app.store.config.get();
    const neg = await h.gql('mutation { updateConfig(patch: { limits: { person_daily_tokens: -1 } }) { version } }');
    expect(neg.body.errors?.[0]?.extensions?.code).toBe('CONFIG_INVALID');
    expect(neg.body.errors?.[0]?.message).toContain('limits.person_daily_tokens');
    expect((await h.app.store.config.get()).version).toBe(before.version);
    const unknown = await h.gql('mutation { setHumanAccess(humanId: "hum_nobody", access: ALLOWED) { id } }');
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
