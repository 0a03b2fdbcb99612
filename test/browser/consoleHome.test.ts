// The console's home page in a real browser: an operator lands on it after signing in; with
// Telegram off (no token) the platform is listed as off; when the model answers 500 to a web
// chat's reply the page shows the model failing within one refresh and an incident that links
// to the turn's trace; the warnings page no longer says nothing needs attention. Screenshots
// at 1440×900 and 390×844 under .local/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { eventually, TEST_OPERATOR_TOKEN, TEST_OPS_TOKEN } from '../support/testEnv.js';
import { webApi } from '../support/webClient.js';
import { newPage, pageErrors, screenshot, signIn, startWithBrowser, stopWithBrowser } from './browser.js';

/** The home page's refresh (console/src/lib/health.ts), plus time to fetch and render. */
const ONE_REFRESH_MS = 10_000 + 3_000;

describe('console home', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  // From the second test on, the model answers 500 to every reply request.
  let failing = false;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser({ TELEGRAM_BOT_TOKEN: '', LLM_TIMEOUT_MS: '3000' }, undefined, {
      openai: {
        defaultStep: () =>
          failing
            ? { kind: 'error', status: 500, message: 'upstream exploded' }
            : { kind: 'reply', chunks: ['Hello.'] },
      },
    }));
    page = await newPage(browser, h.app.apiUrl!);
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('lands on the home page after sign-in, with Telegram listed as off', async () => {
    await signIn(page, TEST_OPS_TOKEN);
    await page.getByTestId('health-summary').waitFor();
    expect(new URL(page.url()).pathname).toBe('/home');
    const telegram = page.getByTestId('platform-telegram');
    expect(await telegram.getAttribute('data-on')).toBe('false');
    expect(await telegram.textContent()).toContain('off');
    expect(await page.getByTestId('platform-web').getAttribute('data-on')).toBe('true');
    expect(await page.getByTestId('service-mongodb').textContent()).toContain('ready');
    expect(await page.getByTestId('service-redis').textContent()).toContain('ready');
    expect(await page.getByTestId('health-model').getAttribute('data-state')).not.toBe('failing');
  });

  it('shows the model failing within one refresh, with an incident linking to the turn’s trace', async () => {
    failing = true;
    // Background tasks (extraction, summaries) have their own script: they fail too.
    for (let i = 0; i < 30; i++) h.llm.enqueueTask({ kind: 'error', status: 500, message: 'upstream exploded' });
    const web = webApi(h.app.apiUrl!, TEST_OPERATOR_TOKEN);
    const conv = await web.createConversation();
    await web.send(String(conv.json!.id), { content: 'Are you there?' });
    // The failure is in the record; from here the page has one refresh to show it.
    const failed = await eventually(
      () => h.app.store.c.events.findOne({ kind: 'llm_call', 'data.error': { $type: 'string' } }),
      20_000,
      'the failed call recorded',
    );
    const model = page.locator('[data-testid="health-model"][data-state="failing"]');
    await model.waitFor({ timeout: ONE_REFRESH_MS });
    expect(await page.getByTestId('health-model-error').textContent()).toContain('upstream exploded');
    expect(await page.getByTestId('health-summary').textContent()).toContain('model');
    const incident = page.locator('[data-testid="incident"][data-kind="model_error"]').first();
    await incident.waitFor();
    expect(await incident.textContent()).toContain('upstream exploded');

    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'home-1440x900');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('health-model').waitFor();
    await screenshot(page, 'home-390x844');
    await page.setViewportSize({ width: 1440, height: 900 });

    await incident.getByTestId('incident-trace').click();
    await page.waitForURL(`**/turns/${failed!.turnId!}`);
    await page.getByRole('heading', { name: 'Turn trace' }).waitFor();
    await page.getByTestId('llm-call').first().waitFor();
  });

  it('has the warnings page name what needs attention instead of “Nothing needs attention”', async () => {
    await page.getByRole('link', { name: 'Warnings' }).click();
    await page.getByTestId('warning-problems').waitFor();
    expect(await page.getByTestId('warning-problems').textContent()).toContain('model');
    expect(await page.locator('[data-testid="incident"][data-kind="model_error"]').count()).toBeGreaterThan(0);
    expect(await page.textContent('main')).not.toContain('Nothing needs attention');
    await screenshot(page, 'warnings-failing-1440x900');
    expect(pageErrors(page)).toEqual([]);
  });
});
