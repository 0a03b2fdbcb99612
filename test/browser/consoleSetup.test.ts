// Setting a deployment up entirely in the console (issue 37 item 2), in Debian's Chromium against a
// running gateway with the fake Telegram and OpenAI: agents (one with its own bot: the token is
// written once and never shown, the bot's username is), a room of three members in asking order
// (a bad answer timeout shows the API's code beside the field), members and settings (name, mode,
// deadline, host) changed on the room's page, a background created and edited, a web token shown once, a chat with the new agent, and a
// web room of the three chatted with in its web view.
// A viewer sees every form disabled. Screenshots go under .local/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { TEST_OPS_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { pageErrors, screenshot, signedInAtHome, startWithBrowser, stopWithBrowser } from './browser.js';

const MIRA_TOKEN = '700000201:MIRA-bot-token_abcdefghijklmnopqrstu';
const BOTS = { [MIRA_TOKEN]: { id: 700_000_201, first_name: 'Mira', username: 'mira_setup_bot' } };
const GROUP = '-100990001';

describe('console setup without GraphQL', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let miraId: string;
  let roomId: string;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser({ EMBEDDINGS: 'offline' }, ['gateway', 'worker', 'api'], {
      telegram: { bots: BOTS },
    }));
    // An admin: giving an agent its own bot needs that role (the rest needs an operator).
    page = await signedInAtHome(browser, h.app.apiUrl!, TEST_OPS_TOKEN);
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  /** Creates an agent with the Agents page's form; resolves with its id (from the page it opens). */
  async function createAgent(name: string, persona: string, aliases = ''): Promise<string> {
    await page.goto('/setup/agents');
    await page.locator('#agent-new-name').fill(name);
    await page.locator('#agent-new-persona').fill(persona);
    if (aliases) await page.locator('#agent-new-aliases').fill(aliases);
    await page.getByTestId('agent-create-form').getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/setup\/agents\/[^/]+$/);
    return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  }

  it('creates an agent and attaches its bot: the token is never shown again, the bot’s username is', async () => {
    // The menu offers the new pages.
    await page.getByRole('link', { name: 'Agents', exact: true }).click();
    await page.waitForURL(/\/setup\/agents$/);
    miraId = await createAgent('Mira', 'A calm tea master who speaks briefly.', 'Mimi, Tea master');
    expect(await page.locator('#agent-' + miraId + '-aliases').inputValue()).toBe('Mimi, Tea master');

    const token = page.locator(`#agent-${miraId}-bot-token`);
    expect(await token.getAttribute('type')).toBe('password');
    await token.fill(MIRA_TOKEN);
    await page.getByRole('button', { name: 'Attach bot' }).click();
    await expect.poll(() => page.getByTestId('agent-bot-attached').textContent()).toContain('@mira_setup_bot');
    await expect.poll(() => page.getByTestId('agent-bot').textContent()).toContain('@mira_setup_bot');
    // Gone from the field and the page; stored apart on the server.
    expect(await token.inputValue()).toBe('');
    expect(await page.content()).not.toContain(MIRA_TOKEN);
    expect((await h.app.store.agentBots.get(miraId, 'telegram'))?.token).toBe(MIRA_TOKEN);
    await screenshot(page, 'setup-01-agent-bot');

    // An edit is saved through updateAgent.
    await page.locator(`#agent-${miraId}-intro`).fill('I pour the tea.');
    await page.getByTestId('agent-edit-form').getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await h.app.store.participants.getAgent(miraId))?.introduction)
      .toBe('I pour the tea.');
  });

  it('creates a room of three in asking order; a bad answer timeout shows the API’s code beside the field', async () => {
    await createAgent('Bo', 'A cheerful baker.');
    await createAgent('Cy', 'A quiet poet.');
    await page.goto('/rooms');
    await expect.poll(() => page.locator('.empty').textContent()).toContain('create one with the form');
    const form = page.getByTestId('room-create-form');
    await page.locator('#room-chat').fill(GROUP);
    await page.locator('#room-name').fill('Tea house');
    for (const name of ['Mira', 'Bo', 'Cy']) {
      await form.getByLabel('Agent to add').selectOption({ label: name });
      await form.getByTestId('room-member-add').click();
    }
    await expect
      .poll(() => page.getByTestId('room-members-order').locator('li .grow').allTextContents())
      .toEqual(['Mira', 'Bo', 'Cy']);
    await page.locator('#room-timeout').fill('0');
    await form.getByRole('button', { name: 'Create room' }).click();
    const error = page.getByTestId('room-timeout-error');
    await expect.poll(() => error.textContent()).toContain('BAD_REQUEST');
    expect(await error.textContent()).toContain('answerTimeoutSeconds');
    expect(await h.app.store.c.rooms.countDocuments({})).toBe(0);
    await screenshot(page, 'setup-02-room-timeout-error');

    await page.locator('#room-timeout').fill('30');
    await form.getByRole('button', { name: 'Create room' }).click();
    await page.waitForURL(/\/rooms\/[^/]+$/);
    roomId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const room = await h.app.store.rooms.get(roomId);
    expect(room?.answerTimeoutSeconds).toBe(30);
    expect(room?.chat).toMatchObject({ platform: 'telegram', chatId: GROUP });
    expect(room?.members.map((m) => m.id)).toEqual([miraId, expect.any(String), expect.any(String)]);
    await expect.poll(() => page.locator('ol.members li').count()).toBe(3);
    await screenshot(page, 'setup-03-room');
  });

  it('changes a room’s members on its page', async () => {
    const editor = page.getByTestId('room-members-editor');
    await editor.getByRole('button', { name: 'Remove Bo' }).click();
    await expect.poll(() => page.locator('ol.members li').count()).toBe(2);
    await editor.getByLabel('Agent to add').selectOption({ label: 'Bo' });
    await editor.getByRole('button', { name: 'Add', exact: true }).click();
    // Back as the last one asked.
    await expect.poll(() => page.locator('ol.members li').last().textContent()).toContain('Bo');
    const names = await page.locator('ol.members li').allTextContents();
    expect(names.map((n) => n.split(' ')[0])).toEqual(['Mira', 'Cy', 'Bo']);
  });

  it('edits the room’s name, mode, answer timeout and host on its page', async () => {
    const form = page.getByTestId('room-settings-form');
    await page.locator('#room-settings-timeout').fill('2');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const error = page.getByTestId('room-settings-timeout-error');
    await expect.poll(() => error.textContent()).toContain('BAD_REQUEST');
    expect(await error.textContent()).toContain('answerTimeoutSeconds');
    expect((await h.app.store.rooms.get(roomId))?.answerTimeoutSeconds).toBe(30);

    await page.locator('#room-settings-name').fill('Tea garden');
    await page.locator('#room-settings-timeout').fill('90');
    await page.locator('#room-settings-mode').selectOption('HOST');
    await page.locator('#room-settings-host').selectOption({ label: 'Cy' });
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('room-settings-saved').waitFor();
    await expect.poll(() => page.locator('main h1').first().textContent()).toBe('Tea garden');
    const room = await h.app.store.rooms.get(roomId);
    expect(room).toMatchObject({ name: 'Tea garden', mode: 'host', answerTimeoutSeconds: 90 });
    const host = room?.members.filter((m) => m.isHost) ?? [];
    expect(host).toHaveLength(1);
    expect((await h.app.store.participants.getAgent(host[0]!.id))?.name).toBe('Cy');
    await screenshot(page, 'setup-03b-room-settings');
  });

  it('creates a background with its outline and edits it', async () => {
    await page.getByRole('link', { name: 'Backgrounds', exact: true }).click();
    await page.waitForURL(/\/backgrounds$/);
    await page.locator('#background-new-name').fill('Rainy teahouse');
    await page.locator('#background-new-setting').fill('A teahouse in the hills during the monsoon.');
    await page.locator('#background-new-beats').fill('Guests arrive soaked\nThe power goes out\nA song by candlelight');
    await page.getByRole('button', { name: 'Create background' }).click();
    const card = page.getByTestId('background').first();
    await expect
      .poll(() => card.locator('ol.outline li').allTextContents())
      .toEqual(['Guests arrive soaked', 'The power goes out', 'A song by candlelight']);
    await page.getByRole('button', { name: 'Edit', exact: true }).first().click();
    const edit = page.getByTestId('background-edit-form');
    await edit.locator('textarea').last().fill('Guests arrive soaked\nThe power goes out');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('background').first().locator('ol.outline li').count()).toBe(2);
    expect((await h.app.store.c.backgrounds.findOne({}))?.outline.map((b) => b.text)).toEqual([
      'Guests arrive soaked',
      'The power goes out',
    ]);
    await screenshot(page, 'setup-04-backgrounds');
  });

  it('issues a web token shown once, which works and cannot be read again', async () => {
    await page.getByRole('link', { name: 'Web tokens', exact: true }).click();
    await page.waitForURL(/\/web-users$/);
    await page.locator('#token-name').fill('Lin');
    await page.getByRole('button', { name: 'Issue token' }).click();
    const shown = page.getByTestId('issued-token-value');
    await expect.poll(() => shown.count()).toBe(1);
    const token = (await shown.textContent())!.trim();
    expect(token.length).toBeGreaterThan(20);
    expect(await page.getByTestId('issued-token').textContent()).toContain('only time');
    expect(await page.getByTestId('issued-token-copy').isVisible()).toBe(true);
    await screenshot(page, 'setup-05-token-once');
    const api = (t: string) =>
      fetch(`${h.app.apiUrl!}/api/conversations`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.status);
    expect(await api(token)).toBe(200);

    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => page.getByTestId('issued-token').count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('web-user').count()).toBe(1);
    expect(await page.content()).not.toContain(token);
    // Not in the API either: the list has no token field, the store keeps a hash.
    expect(JSON.stringify(await h.app.store.c.webUsers.find({}).toArray())).not.toContain(token);
  });

  it('chats with the new agent and sees the model’s answer', async () => {
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByTestId('chat-agent').selectOption({ label: 'Mira' });
    await page.getByTestId('chat-new').click();
    await page.waitForURL(/\/chat\/.+/);
    h.llm.enqueue({ kind: 'reply', chunks: ['The kettle is on,', ' sit down.'] });
    await page.getByTestId('chat-input').fill('May I have some tea?');
    await page.getByTestId('chat-send').click();
    const answer = page.getByTestId('chat-assistant').last();
    await expect.poll(() => answer.textContent(), { timeout: 15_000 }).toContain('sit down.');
    // Answered as Mira: her persona, written in the console, was in the model's prompt.
    expect(h.llm.requests.some((r) => JSON.stringify(r.body).includes('calm tea master'))).toBe(true);
    await screenshot(page, 'setup-06-chat');
    expect(pageErrors(page)).toEqual([]);
  });

  it('creates a web room of the three and chats in its web view: each member answers under its name', async () => {
    await page.goto('/rooms');
    const form = page.getByTestId('room-create-form');
    await page.locator('#room-platform').selectOption('web');
    await expect.poll(() => page.getByTestId('room-web-hint').count()).toBe(1);
    await page.locator('#room-name').fill('Web tea house');
    for (const name of ['Mira', 'Bo', 'Cy']) {
      await form.getByLabel('Agent to add').selectOption({ label: name });
      await form.getByTestId('room-member-add').click();
    }
    await form.getByRole('button', { name: 'Create room' }).click();
    await page.waitForURL(/\/rooms\/[^/]+$/);
    const webRoom = await h.app.store.rooms.get(decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!));
    expect(webRoom?.chat.platform).toBe('web');
    expect(webRoom?.chat.chatId).toMatch(/^conv_/);

    for (const words of ['Welcome, the kettle is on.', 'Fresh buns are here.', 'Steam rises like a verse.'])
      h.llm.enqueue({ kind: 'reply', chunks: [words] });
    const input = page.getByTestId('room-web-input');
    await input.fill('Good evening, everyone!');
    await input.press('Enter');
    const log = page.getByTestId('room-web-log');
    await expect.poll(() => log.getByTestId('chat-user').count()).toBe(1);
    await expect
      .poll(() => log.locator('[data-testid=chat-assistant][data-state=complete] .who').allTextContents(), {
        timeout: 20_000,
      })
      .toEqual(['Mira', 'Bo', 'Cy']);
    expect(await log.getByTestId('chat-assistant').allTextContents()).toEqual([
      expect.stringContaining('kettle is on'),
      expect.stringContaining('Fresh buns'),
      expect.stringContaining('Steam rises'),
    ]);
    await screenshot(page, 'setup-06b-room-web-view');
    expect(pageErrors(page)).toEqual([]);
  });

  it('takes the agent’s bot away', async () => {
    await page.goto(`/setup/agents/${encodeURIComponent(miraId)}`);
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('agent-bot').getByRole('button', { name: 'Remove bot' }).click();
    await expect.poll(() => page.getByTestId('agent-bot').count()).toBe(0);
    expect(await h.app.store.agentBots.get(miraId, 'telegram')).toBeNull();
    expect((await h.app.store.participants.getAgent(miraId))?.bindings ?? []).toEqual([]);
  });

  it('shows a viewer every form disabled', async () => {
    const viewer = await signedInAtHome(browser, h.app.apiUrl!, TEST_VIEWER_TOKEN);
    for (const [path, form] of [
      ['/setup/agents', 'agent-create-form'],
      [`/setup/agents/${encodeURIComponent(miraId)}`, 'agent-bot-form'],
      ['/rooms', 'room-create-form'],
      ['/backgrounds', 'background-create-form'],
      [`/rooms/${encodeURIComponent(roomId)}`, 'room-settings-form'],
    ] as const) {
      await viewer.goto(path);
      const f = viewer.getByTestId(form);
      await expect.poll(() => f.count(), { message: path }).toBe(1);
      expect(await f.locator('button[type=submit]').isDisabled(), path).toBe(true);
      expect(await f.locator('input, textarea').first().isDisabled(), path).toBe(true);
      expect(await f.locator('.note').textContent(), path).toContain('Read-only');
    }
    await screenshot(viewer, 'setup-07-viewer');
    // A submit the page would not send is refused by the API as well.
    const r = await fetch(`${h.app.apiUrl!}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_VIEWER_TOKEN}` },
      body: JSON.stringify({ query: 'mutation { createAgent(name: "X", basePersona: "Y") { id } }' }),
    });
    expect(JSON.stringify(await r.json())).toContain('FORBIDDEN');
    expect(pageErrors(viewer)).toEqual([]);
    await viewer.close();
  });
});
