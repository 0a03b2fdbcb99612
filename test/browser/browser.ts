// Debian's Chromium driven by playwright-core for the console's browser tests: one browser per
// test file, headless, and screenshots under .local/screenshots/ for a person to look at.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildConsole } from '../../console/buildConsole.js';
import { startHarness, type Harness } from '../support/harness.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(import.meta.dirname, '../../.local/screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  // `npm test` builds the console first (pretest); a direct vitest run builds it here if stale.
  await buildConsole();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** `locale` is the browser's language; English by default, whatever the machine's, so tests read English. */
export async function newPage(browser: Browser, baseURL: string, opts: { locale?: string } = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1400, height: 900 },
    timezoneId: 'UTC',
    locale: opts.locale ?? 'en-GB',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  // A console error in the page is a bug worth failing on; keep them for the assertion.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  (page as Page & { errors: string[] }).errors = errors;
  return page;
}

export const pageErrors = (page: Page): string[] => (page as Page & { errors?: string[] }).errors ?? [];

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Signs in on the console's sign-in page with this token. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The gateway (startHarness with these arguments) and the browser, started side by side. */
export async function startWithBrowser(
  ...args: Parameters<typeof startHarness>
): Promise<{ h: Harness; browser: Browser }> {
  const [h, browser] = await Promise.all([startHarness(...args), launchBrowser()]);
  return { h, browser };
}

/** Closes what startWithBrowser started; either is missing when the start failed. */
export async function stopWithBrowser(h: Harness | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close();
  await h?.stop();
}

/** A new page signed in with this token, once the console has landed on its home page. */
export async function signedInAtHome(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const page = await newPage(browser, baseURL);
  await signIn(page, token);
  await page.waitForURL(/\/home$/);
  return page;
}
