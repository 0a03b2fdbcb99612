// The operator console when things go wrong (issue 37): a refused request while the page loads
// keeps the operator signed in under a "reconnecting…" banner; a failing API shows an error where
// the dialogue list would be (polls never overlap); the Enter that confirms an IME candidate does
// not send; the chat follows its newest message and marks a failed reply; an operator's post
// appears on the dialogue page, which can jump to its latest turn; a `#token=` link pasted into a
// signed-out tab signs in without a reload. Screenshots go under .local/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN, TEST_OPS_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { newPage, pageErrors, screenshot, signIn, startWithBrowser, stopWithBrowser } from './browser.js';

const CHAT = 880_101;
const TITLE = 'Hello from a flaky network';
const TOKEN_KEY = 'rainbow.console.token';

/** A page whose localStorage already holds `token`, as after an earlier visit. */
async function signedInPage(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const page = await newPage(browser, baseURL);
  await page.context().addInitScript(([key, value]) => localStorage.setItem(key!, value!), [TOKEN_KEY, token]);
  return page;
}

const isQuery = (route: Route, name: string): boolean => (route.request().postData() ?? '').includes(name);

describe('operator console resilience', () => {
  let h: Harness;
  let browser: Browser;
  let dialogueId: string;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser());
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello,', ' the network is fine here.'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, firstName: 'Ada', text: TITLE }));
    dialogueId = await eventually(
      async () => {
        const d = await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) });
        const answered = d && (await h.app.store.c.turns.countDocuments({ dialogueId: d._id, status: 'responded' }));
        return answered ? d._id : undefined;
      },
      15_000,
      'first turn answered',
    );
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('keeps the operator signed in through refused requests while loading, under a reconnecting banner', async () => {
    const page = await signedInPage(browser, h.app.apiUrl!, TEST_OPS_TOKEN);
    let down = true;
    let refused = 0;
    await page.route('**/graphql', async (route) => {
      if (!down) return route.fallback();
      refused++;
      await route.fulfill({ status: 503, contentType: 'text/plain', body: 'restarting' });
    });
    await page.goto('/dialogues');
    await page.getByTestId('reconnecting').waitFor();
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBe(TEST_OPS_TOKEN);
    expect(await page.getByLabel('Operator token').count()).toBe(0);
    await screenshot(page, 'r01-reconnecting');

    // The gateway is back: the retry signs in with the kept token and the banner goes.
    down = false;
    await page.getByTestId('dialogue-list').getByText(TITLE).waitFor({ timeout: 15_000 });
    await page.getByTestId('reconnecting').waitFor({ state: 'detached' });
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBe(TEST_OPS_TOKEN);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it('shows a failing dialogue list as an error, not an endless "Loading…", and never overlaps its polls', async () => {
    const page = await signedInPage(browser, h.app.apiUrl!, TEST_OPS_TOKEN);
    let failing = true;
    let inFlight = 0;
    let maxInFlight = 0;
    // Slower than the 5 s poll, as with MongoDB down: an overlapping poll would hide the failure.
    await page.route('**/graphql', async (route) => {
      if (!isQuery(route, 'query Dialogues')) return route.fallback();
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        if (!failing) return await route.fallback();
        await new Promise((r) => setTimeout(r, 6000));
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({
            errors: [{ message: 'the store is down', extensions: { code: 'STORE_UNAVAILABLE' } }],
          }),
        });
      } catch {
        // The page went away while the answer was held back.
      } finally {
        inFlight--;
      }
    });
    await page.goto('/dialogues');
    const error = page.getByTestId('dialogues-error');
    await expect.poll(() => error.textContent(), { timeout: 15_000 }).toContain('STORE_UNAVAILABLE');
    expect(await error.textContent()).toContain('the store is down');
    expect(await page.getByText('Loading dialogues').count()).toBe(0);
    await screenshot(page, 'r02-dialogues-error');
    expect(maxInFlight).toBe(1);

    failing = false;
    await page.getByTestId('dialogue-list').getByText(TITLE).waitFor({ timeout: 20_000 });
    await expect.poll(() => error.textContent()).toBe('');
    expect(maxInFlight).toBe(1);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 45_000);

  describe('chat', () => {
    let page: Page;

    beforeAll(async () => {
      page = await newPage(browser, h.app.apiUrl!);
      await signIn(page, TEST_OPERATOR_TOKEN);
      await page.getByTestId('whoami').waitFor();
      await page.goto('/chat');
      await page.getByTestId('chat-new').click();
      await page.waitForURL(/\/chat\/.+/);
    });

    afterAll(async () => {
      await page?.context().close();
    });

    it('does not send on the Enter that confirms an IME candidate, and does on a plain Enter', async () => {
      const input = page.getByTestId('chat-input');
      await input.fill('ni hao');
      // The Enter that picks a candidate in a Chinese input method: isComposing is set.
      await input.evaluate((el) =>
        el.dispatchEvent(
          new KeyboardEvent('keydown', {
            key: 'Enter',
            code: 'Enter',
            isComposing: true,
            bubbles: true,
            cancelable: true,
          }),
        ),
      );
      await page.waitForTimeout(500);
      expect(await page.getByTestId('chat-user').count()).toBe(0);
      expect(await input.inputValue()).toBe('ni hao');

      h.llm.enqueue({ kind: 'reply', chunks: ['你好!'] });
      await input.press('Enter');
      await page.getByTestId('chat-user').filter({ hasText: 'ni hao' }).waitFor();
      await expect
        .poll(() => page.getByTestId('chat-assistant').last().textContent(), { timeout: 10_000 })
        .toContain('你好!');
      expect(await input.inputValue()).toBe('');
    });

    it('follows the newest message, showing a long reply as it streams', async () => {
      const lines = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer.\n`);
      h.llm.enqueue({ kind: 'reply', chunks: lines, chunkDelayMs: 80 });
      await page.getByTestId('chat-input').fill('Tell me everything.');
      await page.getByTestId('chat-send').click();
      const log = page.getByTestId('chat-log');
      const atBottom = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight <= 4);
      // Seen while it streams, already at the bottom of an overflowing log.
      await expect
        .poll(() => page.getByTestId('chat-assistant').last().textContent(), { timeout: 10_000 })
        .toContain('Line 20');
      expect(await page.getByTestId('chat-assistant').last().getAttribute('data-state')).toBe('streaming');
      expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      await expect.poll(atBottom).toBe(true);
      await expect.poll(() => page.locator('.badge', { hasText: 'streaming' }).count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => page.getByTestId('chat-assistant').last().textContent()).toContain('Line 40');
      await expect.poll(atBottom).toBe(true);
      await screenshot(page, 'r03-chat-follows');

      // Opened afresh, the conversation shows its newest message.
      await page.reload();
      await page.getByTestId('chat-assistant').last().getByText('Line 40 of a long answer.').waitFor();
      await expect.poll(atBottom).toBe(true);
    });

    it('shows a failed reply as failed, not like a normal answer', async () => {
      // A refusal the gateway does not retry: the reply ends in error.
      h.llm.enqueue({ kind: 'error', status: 400, message: 'the model refused the request' });
      await page.getByTestId('chat-input').fill('This one will fail.');
      await page.getByTestId('chat-send').click();
      const reply = page.getByTestId('chat-assistant').last();
      await expect.poll(() => reply.getAttribute('data-state'), { timeout: 15_000 }).toMatch(/^(error|interrupted)$/);
      // Still so once the stored record replaces the streamed one.
      await expect.poll(() => page.locator('.badge', { hasText: 'streaming' }).count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => reply.locator('.badge', { hasText: 'failed' }).count()).toBe(1);
      expect(await reply.getAttribute('class')).toContain('failed');
      await screenshot(page, 'r05-chat-failed');
      expect(pageErrors(page)).toEqual([]);
    });
  });

  it('shows an operator’s post on the dialogue page, in time order, and jumps to the latest', async () => {
    const page = await newPage(browser, h.app.apiUrl!);
    await signIn(page, TEST_OPERATOR_TOKEN);
    await page.getByTestId('whoami').waitFor();
    await page.goto(`/dialogues/${dialogueId}`);
    await page.getByText('the network is fine here.').waitFor();
    await expect.poll(() => page.getByTestId('live-state').textContent()).toContain('live');

    const posted = await h.gql<{ postMessage: { id: string } }>(
      'mutation($id: ID!) { postMessage(dialogueId: $id, text: "An operator says hello.", as: OPERATOR) { id } }',
      { id: dialogueId },
      TEST_OPERATOR_TOKEN,
    );
    expect(posted.body.errors).toBeUndefined();
    const post = page.getByTestId('loose-message').filter({ hasText: 'An operator says hello.' });
    await post.waitFor();
    expect(await post.textContent()).toContain('operator op');
    // After the turn it follows.
    const order = await page
      .locator('[data-testid="turn"], [data-testid="loose-message"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(order.at(-1)).toBe('loose-message');

    // A short window: the latest entries are out of view until the jump.
    await page.setViewportSize({ width: 1400, height: 500 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('jump-latest').click();
    await expect.poll(() => post.evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight)).toBe(true);
    await page.getByTestId('jump-latest').waitFor({ state: 'detached' });
    await screenshot(page, 'r04-operator-post');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it('signs in from a #token= link pasted into an open signed-out tab, without a reload', async () => {
    const page = await newPage(browser, h.app.apiUrl!);
    await page.goto('/');
    await page.getByLabel('Operator token').waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.goto(`/#token=${TEST_OPS_TOKEN}`);
    await page.getByTestId('whoami').waitFor();
    expect(page.url()).not.toContain('token');
    expect(await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBe(TEST_OPS_TOKEN);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });
});
