// Settings in the console (SPEC §14). The home page with no model configured: no OPENAI_API_KEY,
// OPENAI_BASE_URL left at OpenAI's own and no LLM_FALLBACKS, so every reply would be a notice.
// The page must not say all systems answer: it shows a warning naming the settings that fix it,
// in English and in Chinese, and the warnings page lists it too. With a model configured (the
// positive control) the same page says all systems answer and shows no such warning. The config
// page edits moderation's keyword list, one per line, and shows a bad entry's problem inline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { TEST_OPS_TOKEN } from '../support/testEnv.js';
import { newPage, pageErrors, screenshot, signIn, startWithBrowser, stopWithBrowser } from './browser.js';

const NO_MODEL = { OPENAI_API_KEY: '', OPENAI_BASE_URL: 'https://api.openai.com/v1', LLM_FALLBACKS: '' };

async function summaryAt(page: Page, path = '/home') {
  await page.goto(path);
  const summary = page.getByTestId(path === '/home' ? 'health-summary' : 'warning-problems');
  await summary.waitFor();
  return summary;
}

describe('console home without a model', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser({ ...NO_MODEL, TELEGRAM_BOT_TOKEN: '' }));
    page = await newPage(browser, h.app.apiUrl!);
    await signIn(page, TEST_OPS_TOKEN);
    await page.waitForURL(/\/home$/);
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('warns that no model is configured, with how to fix it, instead of "all systems answering"', async () => {
    const summary = await summaryAt(page);
    expect(await summary.getAttribute('data-tone')).toBe('warn');
    const text = (await summary.textContent()) ?? '';
    expect(text).toContain('No model is configured');
    expect(text).toContain('OPENAI_API_KEY');
    expect(text).toContain('OPENAI_BASE_URL');
    expect(text).not.toContain('All systems answering');
    await screenshot(page, 'home-no-model-en');
    // The warnings page does not call it calm either.
    const listed = await summaryAt(page, '/warnings');
    expect(await listed.textContent()).toContain('No model is configured');
    expect(pageErrors(page)).toEqual([]);
  });

  it('says it in Chinese for a Chinese browser', async () => {
    const zh = await newPage(browser, h.app.apiUrl!, { locale: 'zh-CN' });
    await zh.goto('/');
    await zh.getByLabel('操作员令牌').fill(TEST_OPS_TOKEN);
    await zh.getByRole('button', { name: '登录' }).click();
    await zh.waitForURL(/\/home$/);
    const summary = zh.getByTestId('health-summary');
    await summary.waitFor();
    const text = (await summary.textContent()) ?? '';
    expect(text).toContain('尚未配置模型');
    expect(text).toContain('OPENAI_API_KEY');
    expect(text).not.toContain('所有系统响应正常');
    await screenshot(zh, 'home-no-model-zh');
    await zh.context().close();
  });
});

describe('console home with a model (positive control)', () => {
  let h: Harness;
  let browser: Browser;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser({ TELEGRAM_BOT_TOKEN: '' }));
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('says all systems answer and shows no model warning', async () => {
    const page = await newPage(browser, h.app.apiUrl!);
    await signIn(page, TEST_OPS_TOKEN);
    await page.waitForURL(/\/home$/);
    const summary = await summaryAt(page);
    expect(await summary.getAttribute('data-tone')).toBe('ok');
    expect(await summary.textContent()).toBe('All systems answering.');
    expect(pageErrors(page)).toEqual([]);
  });

  it('edits the moderation keywords one per line; a bad entry shows its problem inline', async () => {
    const page = await newPage(browser, h.app.apiUrl!);
    await signIn(page, TEST_OPS_TOKEN);
    await page.waitForURL(/\/home$/);
    await page.goto('/config');
    const field = page.getByTestId('config-moderation.keywords');
    const lines = field.locator('textarea');
    expect(await field.textContent()).toContain('at most 500 entries');
    await lines.fill(`ok\n${'x'.repeat(101)}`);
    await page.getByTestId('config-save').click();
    await expect.poll(() => field.getByTestId('config-error').textContent()).toContain('entry 2 is 101 characters');
    await lines.fill('casino\n  赌博  \n\n');
    await page.getByTestId('config-save').click();
    await page.getByTestId('config-saved').waitFor();
    const r = await h.gql<{ config: { moderation: { keywords: string[]; check_replies: boolean } } }>(
      '{ config { moderation { keywords check_replies } } }',
    );
    expect(r.body.data?.config.moderation).toEqual({ keywords: ['casino', '赌博'], check_replies: true });
    await page.reload();
    await expect
      .poll(() => page.getByTestId('config-moderation.keywords').locator('textarea').inputValue())
      .toBe('casino\n赌博');
    await screenshot(page, 'config-moderation-keywords');
    expect(pageErrors(page)).toEqual([]);
  });
});
