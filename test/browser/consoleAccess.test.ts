// Who may talk and how much anyone may spend (SPEC §14) in the console, in Debian's Chromium
// against a running gateway with the fake Telegram and OpenAI: an admin creates an invite on the
// Access page and sees it listed (with its Telegram link), then revokes it; blocks a person and
// sets their quota; switches the config's access mode to allowlist (and a decimal daily cost)
// on the Config page and reads them back; sees a stranger's refused message badged on its
// dialogue page; lets a group in on its dialogue page; reads a person's spend on the Stats page
// under their name; and reads the Access page in Chinese. A viewer sees the controls disabled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { eventually, TEST_OPS_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { privateText, textUpdate } from '../fixtures/telegramUpdates.js';
import { dayOf } from '../../src/domain/spend.js';
import { pageErrors, screenshot, signedInAtHome, startWithBrowser, stopWithBrowser } from './browser.js';

const ADA = 880_101;
const BOB = 880_102;
const GROUP = -4_100_200_777;

describe('console access and spend', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let adaId: string;
  let adaDialogue: string;
  let groupDialogue: string;
  let inviteCode: string;

  const dialogueOf = async (chatId: number) =>
    (await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(chatId) })) ?? undefined;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser());
    // Ada talks to the bot (answered) while the deployment is open; Grace writes in a group.
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello Ada.'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: ADA, firstName: 'Ada', username: 'ada_acc', text: 'Hi!' }));
    const ada = await eventually(
      async () => {
        const d = await dialogueOf(ADA);
        return d && (await h.app.store.c.turns.countDocuments({ dialogueId: d._id, status: 'responded' })) > 0 && d;
      },
      15_000,
      'Ada answered',
    );
    adaDialogue = ada._id;
    adaId = ada.humanIds[0]!;
    h.tg.pushUpdate(
      textUpdate({
        updateId: 2,
        place: { kind: 'group', chatId: GROUP, title: 'Tea Garden' },
        userId: 880_103,
        firstName: 'Grace',
        username: 'grace_acc',
        text: 'morning everyone',
      }),
    );
    groupDialogue = (await eventually(() => dialogueOf(GROUP), 10_000, 'group dialogue'))._id;
    page = await signedInAtHome(browser, h.app.apiUrl!, TEST_OPS_TOKEN);
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('creates an invite on the Access page and sees it listed, then revokes it', async () => {
    await page.getByRole('link', { name: 'Access', exact: true }).click();
    await page.waitForURL(/\/access$/);
    await expect.poll(() => page.locator('main h1').first().textContent()).toBe('Access');
    await page.getByText('No invite codes yet.').waitFor();

    // A bad number is refused beside its field by the API (BAD_REQUEST), and nothing is created.
    await page.locator('#invite-max-uses').fill('0');
    await page.getByRole('button', { name: 'Create invite' }).click();
    await expect.poll(() => page.getByTestId('invite-max-uses-error').textContent()).toContain('BAD_REQUEST');
    expect(await h.app.store.c.invites.countDocuments({})).toBe(0);

    await page.locator('#invite-max-uses').fill('3');
    await page.locator('#invite-hours').fill('48');
    await page.getByRole('button', { name: 'Create invite' }).click();
    await page.getByTestId('invite-created').waitFor();
    const stored = await eventually(
      async () => (await h.app.store.c.invites.findOne({})) ?? undefined,
      5_000,
      'invite stored',
    );
    inviteCode = stored._id;
    expect(stored.maxUses).toBe(3);
    expect(stored.expiresAt).toBeInstanceOf(Date);

    const row = page.locator(`[data-testid="invite"][data-code="${inviteCode}"]`);
    await row.waitFor();
    // Positive control: listed, not revoked, with its deep link and a Revoke button.
    expect(await row.getByTestId('invite-uses').textContent()).toBe('0 / 3');
    expect(await row.getByTestId('invite-link').getAttribute('href')).toMatch(
      new RegExp(`^https://t\\.me/[A-Za-z0-9_]+\\?start=${inviteCode}$`),
    );
    expect(await row.textContent()).not.toContain('revoked');
    await screenshot(page, 'access-01-invite');

    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.textContent()).toContain('revoked');
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect(await row.getByTestId('invite-link').count()).toBe(0);
    expect((await h.app.store.c.invites.findOne({ _id: inviteCode }))?.revokedAt).toBeInstanceOf(Date);

    // Without hours the code lasts until revoked.
    await page.locator('#invite-max-uses').fill('10');
    await page.locator('#invite-hours').fill('');
    await page.getByRole('button', { name: 'Create invite' }).click();
    const lasting = await eventually(
      () => h.app.store.c.invites.findOne({ _id: { $ne: inviteCode } }).then((i) => i ?? undefined),
      5_000,
      'second invite',
    );
    expect(lasting.expiresAt).toBeUndefined();
    const second = page.locator(`[data-testid="invite"][data-code="${lasting._id}"]`);
    await expect.poll(() => second.textContent()).toContain('never');
    expect(await second.getByTestId('invite-uses').textContent()).toBe('0 / 10');
  });

  it('blocks a person and sets their daily token quota', async () => {
    const person = page.locator(`[data-testid="person"][data-id="${adaId}"]`);
    await person.waitFor();
    expect(await person.textContent()).toContain('Ada');
    expect(await person.getByTestId('standing').count()).toBe(0); // default: no badge
    page.once('dialog', (d) => void d.accept());
    await person.getByTestId('person-access').selectOption('BLOCKED');
    await expect.poll(() => person.getByTestId('standing').getAttribute('data-standing')).toBe('BLOCKED');
    expect(await person.getByTestId('person-access').inputValue()).toBe('BLOCKED');
    expect((await h.app.store.participants.getHuman(adaId))?.access).toBe('blocked');

    await person.getByLabel('Daily token quota of Ada').fill('5000');
    await person.getByRole('button', { name: 'Set' }).click();
    await expect.poll(async () => (await h.app.store.participants.getHuman(adaId))?.dailyTokens).toBe(5000);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.screenshot({ path: '/tmp/access.png', fullPage: true });
    await screenshot(page, 'access-02-people');
  });

  it('sets access.mode to allowlist and a decimal daily cost on the Config page, and reads them back', async () => {
    // A daily cost cap needs prices to count in (the API refuses it without): one model priced.
    const priced = await h.gql(
      'mutation { updateConfig(patch: { pricing: [{ model: "gpt-test", promptPerMillion: 1, completionPerMillion: 2 }] }) { version } }',
    );
    expect(priced.body.errors).toBeUndefined();
    await page.getByRole('link', { name: 'Config', exact: true }).click();
    const mode = page.locator('[id="access.mode"]');
    await mode.waitFor();
    expect(await mode.inputValue()).toBe('open');
    for (const path of ['limits.person_daily_tokens', 'limits.chat_daily_tokens', 'limits.deployment_daily_cost'])
      await page.getByTestId(`config-${path}`).waitFor();
    await mode.selectOption('allowlist');
    await page.locator('[id="limits.deployment_daily_cost"]').fill('0.5');
    await page.locator('[id="limits.person_daily_tokens"]').fill('20000');
    await page.getByTestId('config-save').click();
    await page.getByTestId('config-saved').waitFor();
    const r = await h.gql<{
      config: { access: { mode: string }; limits: { deployment_daily_cost: number; person_daily_tokens: number } };
    }>('{ config { access { mode } limits { deployment_daily_cost person_daily_tokens } } }');
    expect(r.body.data?.config).toEqual({
      access: { mode: 'allowlist' },
      limits: { deployment_daily_cost: 0.5, person_daily_tokens: 20000 },
    });
    await page.reload();
    await expect.poll(() => page.locator('[id="access.mode"]').inputValue()).toBe('allowlist');
    expect(await page.locator('[id="limits.deployment_daily_cost"]').inputValue()).toBe('0.5');
    // The Access page says which mode is on.
    await page.goto('/access');
    await expect.poll(() => page.getByTestId('access-mode').textContent()).toContain('allowlist');
  });

  it('badges a stranger’s refused message on its dialogue page', async () => {
    h.tg.pushUpdate(
      privateText({ updateId: 3, chatId: BOB, firstName: 'Bob', username: 'bob_acc', text: 'let me in' }),
    );
    const bob = await eventually(
      async () => {
        const d = await dialogueOf(BOB);
        const m =
          d && (await h.app.store.c.messages.findOne({ dialogueId: d._id, 'rejected.code': { $exists: true } }));
        return m ?? undefined;
      },
      10_000,
      'Bob refused',
    );
    expect(bob.rejected).toMatchObject({ code: 'ACCESS_DENIED', reason: 'not_admitted' });
    await page.goto(`/dialogues/${bob.dialogueId}`);
    const refused = page.getByTestId('refused');
    await refused.waitFor();
    expect(await refused.getAttribute('data-code')).toBe('ACCESS_DENIED');
    expect(await refused.textContent()).toBe('refused: not let in');
    // The refused message itself is shown, not only the notice.
    expect(await page.getByTestId('loose-message').filter({ hasText: 'let me in' }).count()).toBe(1);
    // A private chat has no group access control.
    expect(await page.getByTestId('chat-access').count()).toBe(0);
    await screenshot(page, 'access-05-refused');
  });

  it('lets a group in on its dialogue page', async () => {
    await page.goto(`/dialogues/${groupDialogue}`);
    const select = page.getByTestId('chat-access-select');
    await select.waitFor();
    expect(await select.inputValue()).toBe('DEFAULT');
    await select.selectOption('ALLOWED');
    await expect
      .poll(async () => (await h.app.store.c.dialogues.findOne({ _id: groupDialogue }))?.access)
      .toBe('allowed');
    await expect.poll(() => page.getByTestId('chat-access').getByTestId('standing').textContent()).toBe('allowed');
    await screenshot(page, 'access-06-group');
  });

  it('shows a person’s spend on the Stats page under their name, cost only where there is one', async () => {
    const day = dayOf(new Date(), h.env.DISPLAY_TIMEZONE);
    const at = new Date();
    await h.app.store.spend.add(
      day,
      [
        { scope: 'person', subjectId: adaId },
        { scope: 'deployment', subjectId: 'all' },
      ],
      { inputTokens: 1200, outputTokens: 345, cost: 0.0123 },
      at,
    );
    await h.app.store.spend.add(
      day,
      [{ scope: 'chat', subjectId: adaDialogue }],
      { inputTokens: 7, outputTokens: 3, cost: 0 },
      at,
    );
    // What the page must show: the counters as stored (Ada's reply spent some tokens too).
    const rows = await h.app.store.spend.list({ fromDay: day, toDay: day });
    const ada = rows.find((r) => r.scope === 'person' && r.subjectId === adaId)!;
    expect(ada.inputTokens).toBeGreaterThanOrEqual(1200);

    await page.getByRole('link', { name: 'Stats', exact: true }).click();
    const row = page.getByTestId('spend-person').locator(`[data-testid="spend-row"][data-subject="${adaId}"]`);
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Ada');
    expect(text).toContain(ada.tokens.toLocaleString('en-US'));
    expect(text).toContain('0.0123');
    expect(await row.getByRole('link').getAttribute('href')).toBe(`/memories?human=${adaId}`);
    // The chat is named by its dialogue; nothing there was priced, so it has no cost column.
    const chat = page.getByTestId('spend-chat');
    expect(await chat.locator(`[data-subject="${adaDialogue}"] a`).getAttribute('href')).toBe(
      `/dialogues/${adaDialogue}`,
    );
    expect(await chat.locator('th').allTextContents()).not.toContain('Cost');
    expect(await page.getByTestId('spend-person').locator('th').allTextContents()).toContain('Cost');
    expect(await page.getByTestId('spend-total').textContent()).toContain('Cost0.0123');
    await screenshot(page, 'access-03-spend');
  });

  it('reads the Access page in Chinese', async () => {
    await page.goto('/access');
    await page.getByTestId('lang-zh-CN').click();
    await expect.poll(() => page.locator('main h1').first().textContent()).toBe('准入');
    expect(await page.getByRole('link', { name: '准入', exact: true }).count()).toBe(1);
    const person = page.locator(`[data-testid="person"][data-id="${adaId}"]`);
    expect(await person.getByTestId('standing').textContent()).toBe('已屏蔽');
    await screenshot(page, 'access-04-zh');
    await page.getByTestId('lang-en').click();
    await expect.poll(() => page.locator('main h1').first().textContent()).toBe('Access');
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows a viewer the people but no invites, every control disabled', async () => {
    const viewer = await signedInAtHome(browser, h.app.apiUrl!, TEST_VIEWER_TOKEN);
    await viewer.goto('/access');
    await viewer.getByText('Invite codes are shown to admins only.').waitFor();
    const person = viewer.locator(`[data-testid="person"][data-id="${adaId}"]`);
    await person.waitFor();
    expect(await person.getByTestId('person-access').isDisabled()).toBe(true);
    expect(await viewer.getByRole('button', { name: 'Create invite' }).isDisabled()).toBe(true);
    // A viewer's Stats page has no spend (an operator's to read) and no error.
    await viewer.goto('/stats');
    await viewer.getByTestId('stats-cards').waitFor();
    expect(await viewer.getByTestId('spend-period').count()).toBe(0);
    expect(pageErrors(viewer)).toEqual([]);
    await viewer.context().close();
  });
});
