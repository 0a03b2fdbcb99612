// An agent's own model settings in the console's agent form, in Debian's Chromium against a
// running gateway: the placeholders show the deployment's model and reply limit, a saved model
// and temperature are stored, and a temperature out of range shows the API's code beside the
// field and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { TEST_OPS_TOKEN } from '../support/testEnv.js';
import { pageErrors, signedInAtHome, startWithBrowser, stopWithBrowser } from './browser.js';

const AGENT = 'agt_default';

describe('console: an agent’s model settings', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser({ EMBEDDINGS: 'offline' }));
    page = await signedInAtHome(browser, h.app.apiUrl!, TEST_OPS_TOKEN);
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('sets the model and temperature; a bad temperature is refused beside its field', async () => {
    await page.goto(`/setup/agents/${AGENT}`);
    const model = page.locator(`#agent-${AGENT}-model`);
    const temperature = page.locator(`#agent-${AGENT}-temperature`);
    await expect.poll(() => model.getAttribute('placeholder')).toBe('deployment: gpt-4o-mini');
    await expect
      .poll(() => page.locator(`#agent-${AGENT}-max-tokens`).getAttribute('placeholder'))
      .toBe('deployment: 2000');

    await model.fill('tea-large');
    await temperature.fill('0.7');
    const save = page.getByTestId('agent-edit-form').getByRole('button', { name: 'Save' });
    await save.click();
    await expect
      .poll(async () => (await h.app.store.participants.getAgent(AGENT))?.modelSettings)
      .toEqual({ name: 'tea-large', temperature: 0.7 });

    await temperature.fill('5');
    await save.click();
    const error = page.getByTestId(`agent-${AGENT}-temperature-error`);
    await expect.poll(() => error.textContent()).toContain('BAD_REQUEST');
    expect(await error.textContent()).toContain('between 0 and 2');
    expect((await h.app.store.participants.getAgent(AGENT))?.modelSettings).toEqual({
      name: 'tea-large',
      temperature: 0.7,
    });
    expect(pageErrors(page)).toEqual([]);
  });
});
