// The operator console in a real browser (Debian's Chromium, headless, driven by playwright-core)
// against a running gateway with real FerretDB/Redis and the fake Telegram and OpenAI: a DM is
// answered (two turns, one with a tool call), then an operator signs in, follows the dialogue to
// a turn's trace and a context diff, changes the config (a bad value shows its range inline),
// looks at memories and stats, reads as a viewer, follows a dialogue's story (background, beats,
// director) as an operator and a viewer, chats with an agent over the web channel and
// uploads a knowledge document. Each page is saved under .local/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN, TEST_OPS_TOKEN, TEST_VIEWER_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { newPage, pageErrors, screenshot, signIn, startWithBrowser, stopWithBrowser } from './browser.js';

const CHAT = 880_001;
const TITLE = 'Hi! I love green tea.';

describe('operator console', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let dialogueId: string;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser());
    // Two turns of a Telegram DM: a plain answer, then one that calls a tool.
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello Ada,', ' green tea is lovely.'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, firstName: 'Ada', text: TITLE }));
    const responded = async (n: number) => {
      const d = await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) });
      if (!d) return undefined;
      const turns = await h.app.store.c.turns.find({ dialogueId: d._id, status: 'responded' }).toArray();
      return turns.length >= n ? d._id : undefined;
    };
    dialogueId = await eventually(() => responded(1), 15_000, 'first turn answered');
    h.llm.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'call_time', name: 'current_time', arguments: '{}' }] },
      { kind: 'reply', chunks: ['It is', ' tea time.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, firstName: 'Ada', text: 'What time is it now?' }));
    await eventually(() => responded(2), 15_000, 'second turn answered');
    page = await newPage(browser, h.app.apiUrl!);
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('serves the console at / with a fallback for its paths, and leaves the API paths alone', async () => {
    const base = h.app.apiUrl!;
    const deep = await fetch(`${base}/dialogues/${dialogueId}`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toContain('text/html');
    expect(await deep.text()).toContain('<div id="app">');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await (await fetch(base)).text())?.[1];
    const js = await fetch(`${base}${asset}`);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.headers.get('cache-control')).toContain('immutable');
    for (const path of ['/api/nothing-here', '/graphql/x', '/mcp/x', '/healthz/x', '/assets/missing.js']) {
      const r = await fetch(`${base}${path}`);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type'), path).not.toContain('text/html');
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/graphql`, { method: 'POST' })).status).toBe(401);
  });

  it('refuses a wrong token plainly, then signs in and lists the dialogue', async () => {
    await signIn(page, 'not-a-real-token-00000000');
    await expect.poll(() => page.getByTestId('signin-error').textContent()).toContain('not accepted');
    await screenshot(page, '01-signin-error');

    await page.getByLabel('Operator token').fill(TEST_OPS_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in, the console opens at its home page (health at a glance).
    await expect.poll(() => page.url()).toMatch(/\/home$/);
    expect(await page.getByTestId('whoami').textContent()).toContain('admin');
    // The token survives a reload (localStorage).
    await page.reload();
    await page.getByRole('link', { name: 'Dialogues' }).click();
    await page.getByTestId('dialogue-list').getByText(TITLE).waitFor();
    await screenshot(page, '02-dialogues');
  });

  it('opens the dialogue (live) and a turn’s full trace, then diffs two turns’ contexts', async () => {
    await page.getByTestId('dialogue-list').getByText(TITLE).click();
    await page.getByText('It is tea time.').waitFor();
    expect(await page.getByTestId('turn').count()).toBe(2);
    await expect.poll(() => page.getByTestId('live-state').textContent()).toContain('live');
    await screenshot(page, '03-dialogue');

    await page.getByTestId('turn').nth(1).getByTestId('open-trace').click();
    await page.getByTestId('prompt-parts').waitFor();
    const parts = page.getByTestId('prompt-part');
    expect(await parts.count()).toBeGreaterThanOrEqual(8);
    expect(await parts.filter({ hasText: 'current' }).first().textContent()).toMatch(/current.*\d/);
    const calls = page.getByTestId('llm-call');
    expect(await calls.count()).toBe(2);
    expect(await calls.first().textContent()).toContain('gpt-4o-mini');
    expect(await calls.first().textContent()).toContain('TTFT');
    const tool = page.getByTestId('tool-call');
    expect(await tool.textContent()).toContain('current_time');
    expect(await page.getByTestId('deliveries').textContent()).toContain('delivered');
    // The first turn's memory (extracted after its reply) is recalled into the second's prompt.
    await page.getByTestId('recall').waitFor();
    await screenshot(page, '04-trace');

    await page.getByTestId('diff-button').click();
    await page.getByTestId('diff-parts').waitFor();
    expect(await page.getByTestId('prompt-diff').locator('.diff-line.add').count()).toBeGreaterThan(0);
    await screenshot(page, '05-diff');
  });

  it('changes a config value, showing a bad one’s range inline', async () => {
    await page.getByRole('link', { name: 'Config' }).click();
    const field = page.getByTestId('config-thresholds.recall_top_k');
    await field.locator('input').fill('50');
    await page.getByTestId('config-save').click();
    await expect.poll(() => field.getByTestId('config-error').textContent()).toContain('between 1 and 20');
    await screenshot(page, '06-config-invalid');

    await field.locator('input').fill('7');
    await page.getByTestId('config-save').click();
    await page.getByTestId('config-saved').waitFor();
    const r = await h.gql<{ config: { thresholds: { recall_top_k: number } } }>(
      '{ config { thresholds { recall_top_k } } }',
    );
    expect(r.body.data?.config.thresholds.recall_top_k).toBe(7);
    expect(await field.getByTestId('config-error').count()).toBe(0);
  });

  it('shows memories, stats, warnings and rooms', async () => {
    await page.getByRole('link', { name: 'Memories' }).click();
    await page.getByTestId('memory').first().waitFor();
    expect(await page.getByTestId('memory').first().textContent()).toMatch(/green tea/i);
    // Learned in the DM: its origin is the private chat, recalled only there until shared.
    expect(await page.getByTestId('memory').first().getByTestId('memory-origin').textContent()).toContain(
      'Private chat',
    );
    expect(await page.getByTestId('memory').first().getByTestId('memory-visibility').inputValue()).toBe('ORIGIN');
    await screenshot(page, '07-memories');

    await page.getByRole('link', { name: 'Stats' }).click();
    await page.getByTestId('stats-cards').waitFor();
    expect(await page.locator('.chart svg').count()).toBe(2);
    await screenshot(page, '08-stats');

    await page.getByRole('link', { name: 'Warnings' }).click();
    await page.getByRole('heading', { name: 'Warnings' }).waitFor();
    await screenshot(page, '09-warnings');

    // A room of two agents, to see the list and a room's live page.
    const agents = await h.gql<{ agents: { edges: Array<{ node: { id: string } }> } }>(
      '{ agents { edges { node { id } } } }',
    );
    const dee = await h.gql<{ createAgent: { id: string } }>(
      'mutation { createAgent(name: "Dee", basePersona: "You are Dee, a tea sommelier.") { id } }',
    );
    const room = await h.gql<{ createRoom: { id: string } }>(
      'mutation($input: CreateRoomInput!) { createRoom(input: $input) { id } }',
      {
        input: {
          name: 'Tea club',
          platform: 'telegram',
          chatId: '-100880002',
          mode: 'DEFAULT',
          agentIds: [agents.body.data!.agents.edges[0]!.node.id, dee.body.data!.createAgent.id],
        },
      },
    );
    expect(room.body.errors).toBeUndefined();
    await page.getByRole('link', { name: 'Rooms' }).click();
    await page.getByText('Tea club').waitFor();
    await screenshot(page, '10-rooms');
    await page.getByText('Tea club').click();
    await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('live-state').textContent()).toContain('live');
    await screenshot(page, '10-room');
  });

  it('lets a viewer read everything but change nothing', async () => {
    const viewer = await newPage(browser, h.app.apiUrl!);
    await signIn(viewer, TEST_VIEWER_TOKEN);
    await viewer.getByTestId('whoami').waitFor(); // signed in (the console opens at home)
    await viewer.goto(`/dialogues/${dialogueId}`);
    await viewer.getByText('It is tea time.').waitFor();
    expect(await viewer.locator('.post-message').count()).toBe(0);
    await viewer.goto('/config');
    const input = viewer.getByTestId('config-thresholds.recall_top_k').locator('input');
    await input.waitFor();
    expect(await input.isDisabled()).toBe(true);
    expect(await viewer.getByTestId('config-save').count()).toBe(0);
    await screenshot(viewer, '11-viewer-config');
    expect(pageErrors(viewer)).toEqual([]);
    await viewer.context().close();
  });

  it('shows a dialogue’s story: an operator switches background, sets a beat and the director; a viewer reads', async () => {
    const created = await h.gql<{ createBackground: { id: string } }>(
      'mutation($beats: [String!]!) { createBackground(name: "Tea house mystery", worldSetting: "A misty tea house in the hills, 1920s.\\nEvery guest hides something.", beats: $beats) { id } }',
      { beats: ['Ada arrives at the tea house', 'A cup of green tea goes missing', 'The owner confesses'] },
    );
    expect(created.body.errors).toBeUndefined();
    const backgroundId = created.body.data!.createBackground.id;

    const op = await newPage(browser, h.app.apiUrl!);
    await signIn(op, TEST_OPERATOR_TOKEN);
    await op.getByTestId('whoami').waitFor(); // signed in (the console opens at home)
    await op.goto(`/dialogues/${dialogueId}`);
    await op.getByTestId('story-none').waitFor();
    await op.getByTestId('story-background').selectOption(backgroundId);
    await op.getByTestId('story-panel').waitFor();
    expect(await op.getByTestId('story-name').textContent()).toBe('Tea house mystery');
    const beats = op.getByTestId('beat');
    expect(await beats.count()).toBe(3);
    expect(await beats.nth(0).locator('.badge').textContent()).toBe('active');
    expect(await beats.nth(1).locator('.badge').textContent()).toBe('pending');

    await beats.nth(1).getByTestId('beat-status').selectOption('done');
    await expect.poll(() => beats.nth(1).locator('.badge').textContent()).toBe('done');
    await expect.poll(() => op.getByTestId('step').first().textContent()).toMatch(/operator.*beat 2.*done/);
    await op.getByTestId('story-director').click();
    await expect.poll(() => op.getByTestId('story-director').textContent()).toBe('Turn director off');
    expect(await op.getByTestId('story-progress').textContent()).toContain('No progress for 0 replies');
    // A directed reply's marker moves beat 3; the panel follows live (storyEvents), evidence shown.
    h.llm.enqueue({ kind: 'reply', chunks: ['The owner looks away.', ' [PROGRESS:3:active]'] });
    h.tg.pushUpdate(privateText({ updateId: 3, chatId: CHAT, firstName: 'Ada', text: 'Who took my tea?' }));
    await expect.poll(() => beats.nth(2).locator('.badge').textContent(), { timeout: 15_000 }).toBe('active');
    await expect.poll(() => op.getByTestId('step').first().textContent()).toMatch(/director.*beat 3.*active/);
    expect(await op.getByTestId('step').first().getByTestId('evidence').count()).toBeGreaterThanOrEqual(2);
    await expect.poll(() => op.getByTestId('story-last').textContent()).toContain('the director moved beat 3 → active');
    const r = await h.gql<{
      dialogue: { director: boolean; story: { background: { id: string }; beats: Array<{ status: string }> } };
    }>('query($id: ID!) { dialogue(id: $id) { director story { background { id } beats { status } } } }', {
      id: dialogueId,
    });
    expect(r.body.data?.dialogue.director).toBe(true);
    expect(r.body.data?.dialogue.story.background.id).toBe(backgroundId);
    expect(r.body.data?.dialogue.story.beats.map((b) => b.status)).toEqual(['active', 'done', 'active']);
    await op.getByText('The owner looks away.').waitFor();
    // People in the chat never see the marker (the record, shown to the operator, keeps it).
    await expect.poll(() => h.tg.sentText(CHAT).at(-1)).toBe('The owner looks away.');
    await op.getByText('World setting').click();
    await op.getByText('Every guest hides something.').waitFor();
    await screenshot(op, '16-story');
    expect(pageErrors(op)).toEqual([]);
    await op.context().close();

    const viewer = await newPage(browser, h.app.apiUrl!);
    await signIn(viewer, TEST_VIEWER_TOKEN);
    await viewer.getByTestId('whoami').waitFor(); // signed in (the console opens at home)
    await viewer.goto(`/dialogues/${dialogueId}`);
    await viewer.getByTestId('story-panel').waitFor();
    expect(await viewer.getByTestId('beat').count()).toBe(3);
    expect(await viewer.getByTestId('step').count()).toBe(2);
    expect(await viewer.getByText('director on').count()).toBe(1);
    for (const control of ['story-background', 'story-director', 'beat-status'])
      expect(await viewer.getByTestId(control).count(), control).toBe(0);
    await screenshot(viewer, '17-story-viewer');
    expect(pageErrors(viewer)).toEqual([]);
    await viewer.context().close();
  });

  it('uploads a knowledge document', async () => {
    await page.getByRole('link', { name: 'Knowledge' }).click();
    await page.getByTestId('knowledge-file').setInputFiles({
      name: 'tea-guide.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Tea guide\n\nGreen tea is brewed at 80 °C for two minutes.\n'),
    });
    await page.getByTestId('knowledge-upload').click();
    await page.getByTestId('knowledge-done').waitFor();
    await page.getByTestId('document').filter({ hasText: 'tea-guide.md' }).waitFor();
    await screenshot(page, '14-knowledge');
  });

  it('chats with an agent and shows the answer as it streams', async () => {
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByTestId('chat-new').click();
    await page.waitForURL(/\/chat\/.+/);
    h.llm.enqueue({
      kind: 'reply',
      chunks: ['Brew green tea', ' at 80 °C', ' for two minutes [1].'],
      chunkDelayMs: 300,
    });
    await page.getByTestId('chat-input').fill('How should I brew green tea?');
    await page.getByTestId('chat-send').click();
    const answer = page.getByTestId('chat-assistant').last();
    // Seen while it streams, then whole.
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toContain('Brew green tea');
    expect(await answer.locator('.badge', { hasText: 'streaming' }).count()).toBe(1);
    await screenshot(page, '12-chat-streaming');
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toContain('for two minutes');
    await expect.poll(() => page.locator('.badge', { hasText: 'streaming' }).count()).toBe(0);
    // The uploaded guide was retrieved and cited.
    await expect.poll(() => answer.locator('.sources').textContent()).toContain('tea-guide.md');
    await screenshot(page, '13-chat');

    // The web conversation is a dialogue like any other: its turn's trace shows the retrieval.
    await page.getByRole('link', { name: 'Dialogue →' }).click();
    await page.getByTestId('open-trace').last().click();
    await page.getByTestId('prompt-parts').waitFor();
    expect(await page.getByTestId('knowledge-passages').textContent()).toContain('tea-guide.md');
    await screenshot(page, '15-trace-knowledge');
  });

  it('signs in from the link npm start prints (/#token=…) and takes the token out of the address bar', async () => {
    const fresh = await newPage(browser, h.app.apiUrl!);
    await fresh.goto(`/#token=${TEST_OPS_TOKEN}`);
    await fresh.getByTestId('whoami').waitFor(); // signed in (the console opens at home)
    expect(fresh.url()).not.toContain('token');
    expect(pageErrors(fresh)).toEqual([]);
    await fresh.context().close();
  });

  it('shows an agent’s reflections: mood and values, an operator reflects now and rolls back; a viewer reads', async () => {
    const op = await newPage(browser, h.app.apiUrl!);
    await signIn(op, TEST_OPERATOR_TOKEN);
    await op.getByTestId('whoami').waitFor(); // signed in (the console opens at home)
    await op.getByRole('link', { name: 'Reflections' }).click();
    // The default agent's defaults until a reflection sets them.
    await op.getByTestId('reflection-state').waitFor();
    expect(await op.getByTestId('mood').textContent()).toBe('calm');
    expect(await op.getByTestId('value').count()).toBe(4);
    expect(await op.getByTestId('values').textContent()).toContain('honesty');
    await op.getByText('No reflections yet.').waitFor();
    await expect.poll(() => op.getByTestId('live-state').textContent()).toContain('live');

    // The fake model answers the reflect_* tasks with `{}`: the run ends however that goes.
    await op.getByTestId('reflect-now').click();
    const row = op.getByTestId('reflection-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    await expect
      .poll(() => row.first().locator('.badge').first().textContent(), { timeout: 20_000 })
      .toMatch(/^(completed|failed|budget_exceeded)$/);
    await op.getByTestId('reflection-detail').waitFor();
    expect(await op.getByTestId('introspection-turn').count()).toBeGreaterThan(0);
    // A finished run rolls back after a confirm; the row and the run say so.
    op.once('dialog', (d) => void d.accept());
    await row.first().getByTestId('rollback').click();
    await expect.poll(() => row.first().textContent()).toContain('rolled back');
    expect(await op.getByTestId('rollback').count()).toBe(0);
    await expect.poll(() => op.getByTestId('reflection-detail').textContent()).toContain('Rolled back by');
    await screenshot(op, '18-reflections');
    expect(pageErrors(op)).toEqual([]);
    await op.context().close();

    const viewer = await newPage(browser, h.app.apiUrl!);
    await signIn(viewer, TEST_VIEWER_TOKEN);
    await viewer.getByTestId('whoami').waitFor(); // signed in (the console opens at home)
    await viewer.goto('/reflections');
    await viewer.getByTestId('reflection-row').first().waitFor();
    await viewer.getByTestId('reflection-state').waitFor();
    expect(await viewer.getByTestId('reflect-now').count()).toBe(0);
    expect(await viewer.getByTestId('rollback').count()).toBe(0);
    await screenshot(viewer, '19-reflections-viewer');
    expect(pageErrors(viewer)).toEqual([]);
    await viewer.context().close();
  });

  it('raised no script errors in the page', () => {
    expect(pageErrors(page)).toEqual([]);
  });
});
