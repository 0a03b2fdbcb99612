// MongoDB really stopped under the console (issue 37): this file's gateway runs on a FerretDB of
// its own, which the test stops and starts again. The dialogue list shows the API's
// STORE_UNAVAILABLE where the list would be (never an endless "Loading…"), the home page shows
// MongoDB not ready and its incidents unreadable (not "none"), the operator stays signed in, and
// both recover once the server is back.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_OPS_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { projectRoot, startFerretDB, type RunningFerretDB } from '../../src/localServices/ferretdb.js';
import { freePort } from '../../src/localServices/reachability.js';
import { launchBrowser, pageErrors, screenshot, signedInAtHome, stopWithBrowser } from './browser.js';

const TITLE = 'Tea before the storm';
const TOKEN_KEY = 'rainbow.console.token';

describe('console with MongoDB stopped', () => {
  let ferret: RunningFerretDB;
  let port: number;
  let dataDir: string;
  let h: Harness;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(projectRoot, '.local', 'test-ferretdb-down-'));
    port = await freePort();
    [ferret, browser] = await Promise.all([startFerretDB({ port, dataDir }), launchBrowser()]);
    h = await startHarness({ MONGODB_URI: ferret.uri });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: 4242, firstName: 'Ada', text: TITLE }));
    await eventually(async () => (await h.app.store.c.messages.countDocuments({})) >= 2, 20_000, 'the reply');
    page = await signedInAtHome(browser, h.app.apiUrl!, TEST_OPS_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await stopWithBrowser(h, browser);
    await ferret?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the stopped store where the data would be, then recovers when it is back', async () => {
    await page.goto('/dialogues');
    await page.getByTestId('dialogue-list').getByText(TITLE).waitFor();

    await ferret.stop();
    await page.goto('/dialogues');
    const error = page.getByTestId('dialogues-error');
    // The driver gives up on the server after 10 s; the console's own limit is 15 s.
    await expect.poll(() => error.textContent(), { timeout: 30_000 }).toContain('STORE_UNAVAILABLE');
    expect(await page.getByText('Loading dialogues').count()).toBe(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY)).toBe(TEST_OPS_TOKEN);
    await screenshot(page, 'r05-mongodb-stopped-dialogues');
    // The API says so plainly: 503 with the code, on GraphQL and the web channel alike.
    const auth = { authorization: `Bearer ${TEST_OPS_TOKEN}` };
    const gql = await fetch(`${h.app.apiUrl!}/graphql`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: '{ dialogues(first: 1) { edges { node { id } } } }' }),
    });
    expect(gql.status).toBe(503);
    expect(JSON.stringify(await gql.json())).toContain('STORE_UNAVAILABLE');
    const web = await fetch(`${h.app.apiUrl!}/api/conversations`, { headers: auth });
    expect(web.status).toBe(503);
    expect(JSON.stringify(await web.json())).toContain('STORE_UNAVAILABLE');

    await page.goto('/home');
    const mongo = page.getByTestId('service-mongodb');
    await expect.poll(() => mongo.textContent(), { timeout: 30_000 }).toContain('not ready');
    expect(await page.getByTestId('service-redis').textContent()).toContain('ready');
    // Nothing could be read, so nothing is claimed: no "no incidents", no "no calls".
    expect(await page.getByText('Incidents cannot be read while MongoDB is not answering.').count()).toBe(1);
    expect(await page.getByText('No incidents').count()).toBe(0);
    await screenshot(page, 'r06-mongodb-stopped-home');

    // Back on the same port and data: the list returns without a reload or a new sign-in.
    ferret = await startFerretDB({ port, dataDir });
    await page.goto('/dialogues');
    await page.getByTestId('dialogue-list').getByText(TITLE).waitFor({ timeout: 40_000 });
    await expect.poll(() => error.textContent()).toBe('');
    expect(pageErrors(page)).toEqual([]);
  }, 150_000);
});
