// The console in Chinese and English (issue 37): a browser set to zh-CN gets a Chinese menu and
// page titles with <html lang="zh-CN"> and Chinese dates; the sidebar switch turns it English in
// place (no reload) and the choice outlives a reload. Chat messages render Markdown, and HTML in a
// message (an <img onerror>, a <script>) never runs. In Chinese, API errors (CONFIG_INVALID, a bad
// room deadline) read in Chinese with their code, as do a turn's prompt parts and a dialogue's
// story, and no page shows a run of English words outside of data. Screenshots go under
// .local/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { TEST_OPS_TOKEN } from '../support/testEnv.js';
import { newPage, pageErrors, screenshot, startWithBrowser, stopWithBrowser } from './browser.js';

const PAGES = [
  { path: '/home', zh: '首页', en: 'Home' },
  { path: '/dialogues', zh: '对话', en: 'Dialogues' },
  { path: '/rooms', zh: '聊天室', en: 'Rooms' },
  { path: '/memories', zh: '记忆', en: 'Memories' },
  { path: '/knowledge', zh: '知识库', en: 'Knowledge' },
  { path: '/reflections', zh: '反思', en: 'Reflections' },
  { path: '/chat', zh: '聊天', en: 'Chat' },
  { path: '/stats', zh: '统计', en: 'Stats' },
  { path: '/warnings', zh: '警告', en: 'Warnings' },
  { path: '/config', zh: '配置', en: 'Config' },
];

const XSS_USER = 'Hi <img src=x onerror="window.__xss = 1"> there';
const MARKDOWN_REPLY = [
  'Some **bold** advice:\n\n',
  '- first item\n- second item\n\n',
  'Run `brew tea` now.\n\n',
  '<script>window.__xss = 2</script><img src=x onerror="window.__xss = 3">',
];

type Marked = Window & { __marker?: string; __xss?: number };

// Where a page shows data, not the console's own words: what people and models wrote, names and
// ids, code names (config keys, tools, models) and the server's messages (marked lang="en").
const DATA = 'body [lang="en"], code, pre, .mono, .json, .chip, .bubble-text, .prompt, textarea';

/** Runs of three or more English words in a page's text, titles, labels and placeholders outside `data`. */
function englishRuns(data: string): string[] {
  const texts: string[] = [];
  const skip = (el: Element) => el.closest(data) !== null || el.closest('script, style') !== null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (n.parentElement && !skip(n.parentElement)) texts.push(n.textContent ?? '');
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]'))
    if (!skip(el)) for (const a of ['title', 'aria-label', 'placeholder']) texts.push(el.getAttribute(a) ?? '');
  return texts.flatMap((x) => x.match(/[A-Za-z][a-z'’]*(?:[ ,]+[A-Za-z][a-z'’]*){2,}/g) ?? []);
}

describe('console language', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let roomId: string;
  let agentId: string;
  const dialogs: string[] = [];

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser());
    page = await newPage(browser, h.app.apiUrl!, { locale: 'zh-CN' });
    // An alert() from a message would open a dialog: record it (and dismiss, so nothing hangs).
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  }, 60_000);

  afterAll(() => stopWithBrowser(h, browser));

  const title = () => page.locator('main h1').first().textContent();
  const open = async (label: string, expected: string) => {
    await page.locator('nav .menu').getByRole('link', { name: label, exact: true }).click();
    await expect.poll(title).toBe(expected);
  };

  it('shows sign-in in Chinese for a zh-CN browser, with <html lang> set from the provider', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: '登录' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await page.getByText('操作员令牌').count()).toBe(1);
    await screenshot(page, 'locale-01-signin-zh');
  });

  it('has a Chinese menu and a Chinese title on every main page', async () => {
    await page.getByLabel('操作员令牌').fill(TEST_OPS_TOKEN);
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByTestId('whoami').waitFor();
    const menu = await page.locator('nav .menu a').allTextContents();
    // The main pages (the menu may hold more, e.g. the setup pages).
    expect(menu).toEqual(expect.arrayContaining(PAGES.map((p) => p.zh)));
    for (const p of PAGES) {
      await open(p.zh, p.zh);
      const t = (await title()) ?? '';
      // No ASCII-only title among the main pages.
      expect(/^[\x00-\x7f]*$/.test(t), `${p.path}: ${t}`).toBe(false);
    }
    expect(await page.getByTestId('whoami').textContent()).toContain('退出登录');
    await screenshot(page, 'locale-02-config-zh');
  });

  it('shows the Home panels and the Config sections and help texts in Chinese', async () => {
    const headings = () => page.locator('main .panel-head h2').allTextContents();
    await open('首页', '首页');
    await page.getByTestId('health-summary').waitFor();
    await expect.poll(headings).toEqual(expect.arrayContaining(['模型与向量嵌入', '平台']));
    const home = await headings();
    expect(
      home.some((x) => x.startsWith('事件（最近 ')),
      home.join(' | '),
    ).toBe(true);
    // No English heading left among the Home panels.
    for (const x of home) expect(/^[\x00-\x7f]*$/.test(x), x).toBe(false);

    await open('配置', '配置');
    await page.getByTestId('config-thresholds.recall_top_k').waitFor();
    await expect.poll(headings).toEqual(expect.arrayContaining(['阈值', '上限', '偏好']));
    // The field's help text comes from the catalogue, not the server's English.
    expect(await page.getByTestId('config-thresholds.recall_top_k').locator('label').textContent()).toContain(
      '主动召回',
    );
    await screenshot(page, 'locale-02b-config-sections-zh');
  });

  it('renders Markdown in chat and never runs HTML from a message; dates follow the locale', async () => {
    await open('聊天', '聊天');
    await page.getByTestId('chat-new').click();
    await page.waitForURL(/\/chat\/.+/);
    h.llm.enqueue({ kind: 'reply', chunks: MARKDOWN_REPLY });
    await page.getByTestId('chat-input').fill(XSS_USER);
    await page.getByTestId('chat-send').click();
    const answer = page.getByTestId('chat-assistant').last();
    await expect.poll(() => answer.getAttribute('data-state'), { timeout: 15_000 }).toBe('complete');
    await page.getByTestId('chat-user').filter({ hasText: 'there' }).first().waitFor();

    // Markdown: bold, a list, inline code.
    expect(await answer.locator('strong').textContent()).toBe('bold');
    expect(await answer.locator('li').allTextContents()).toEqual(['first item', 'second item']);
    expect(await answer.locator('code').textContent()).toBe('brew tea');
    // HTML in either message is neither an element nor run; the user's shows as the text typed.
    const log = page.getByTestId('chat-log');
    expect(await log.locator('img, script, iframe, [onerror]').count()).toBe(0);
    expect(await page.getByTestId('chat-user').last().textContent()).toContain('<img src=x');
    expect(await answer.textContent()).toContain('<script>window.__xss = 2</script>');
    await page.waitForTimeout(300); // an onerror would have fired by now
    expect(await page.evaluate(() => (window as Marked).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);

    // A message time in Chinese: e.g. "2025年6月12日 14:03:05".
    const time = log.locator('time').first();
    await expect.poll(() => time.textContent()).toMatch(/\d+月\d+日/);
    await screenshot(page, 'locale-03-chat-zh');
  });

  it('switches to English in place from the sidebar (keyboard), without a reload', async () => {
    await page.evaluate(() => ((window as Marked).__marker = 'still here'));
    const time = page.getByTestId('chat-log').locator('time').first();
    // Keyboard: focus the English button and press Enter.
    await page.getByTestId('lang-en').focus();
    await page.keyboard.press('Enter');
    await expect.poll(title).toBe('Chat');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.evaluate(() => (window as Marked).__marker)).toBe('still here');
    expect(await page.getByTestId('lang-en').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('nav .menu a').allTextContents()).toEqual(expect.arrayContaining(PAGES.map((p) => p.en)));
    // The same instant, now in English ("12 Jun 2025, 14:03:05").
    await expect.poll(() => time.textContent()).toMatch(/\d{2} [A-Z][a-z]{2} \d{4}/);
    await screenshot(page, 'locale-04-chat-en');

    for (const p of PAGES) await open(p.en, p.en);
    expect(await page.evaluate(() => (window as Marked).__marker)).toBe('still here');
  });

  it('keeps the operator’s choice across a reload, and switches back to Chinese', async () => {
    await page.reload();
    await expect.poll(title).toBe('Config');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByTestId('lang-zh-CN').click();
    await expect.poll(title).toBe('配置');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await screenshot(page, 'locale-05-config-zh-again');
  });

  it('shows an API error in Chinese, with its code and the server’s words as detail', async () => {
    // Back on the config page in Chinese: a value out of range is refused as CONFIG_INVALID.
    const field = page.getByTestId('config-thresholds.recall_top_k');
    const input = field.locator('input');
    const before = await input.inputValue();
    await input.fill('50');
    await page.getByTestId('config-save').click();
    const error = field.getByTestId('config-error');
    await expect.poll(() => error.textContent()).toContain('CONFIG_INVALID');
    expect(await error.textContent()).toContain('配置值无效');
    // The server's message names the field and its range; it is marked as English.
    expect(await error.locator('[lang="en"]').textContent()).toMatch(/recall_top_k.*between 1 and 20/);
    await screenshot(page, 'locale-06-config-error-zh');
    await input.fill(before); // nothing unsaved: leaving asks nothing
  });

  it('shows a bad room answer timeout refused beside the field, in Chinese', async () => {
    const agent = await h.gql<{ createAgent: { id: string } }>(
      'mutation { createAgent(name: "小雨", basePersona: "一位说话简短的茶艺师。") { id } }',
    );
    expect(agent.body.errors).toBeUndefined();
    agentId = agent.body.data!.createAgent.id;
    const created = await h.gql<{ createRoom: { id: string } }>(
      'mutation($input: CreateRoomInput!) { createRoom(input: $input) { id } }',
      {
        input: {
          platform: 'telegram',
          chatId: '-100770001',
          name: '茶室',
          mode: 'DEFAULT',
          agentIds: [agentId],
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    roomId = created.body.data!.createRoom.id;
    await page.goto(`/rooms/${encodeURIComponent(roomId)}`);
    const timeout = page.locator('#room-settings-timeout');
    await timeout.fill('0');
    await page.getByTestId('room-settings-form').getByRole('button', { name: '保存' }).click();
    const error = page.getByTestId('room-settings-timeout-error');
    await expect.poll(() => error.textContent()).toContain('BAD_REQUEST');
    expect(await error.textContent()).toContain('输入有误');
    expect(await error.locator('[lang="en"]').textContent()).toContain('answerTimeoutSeconds');
    await screenshot(page, 'locale-06b-room-timeout-error-zh');
    await timeout.fill(''); // as stored: nothing unsaved
  });

  it('shows a turn’s prompt parts and a dialogue’s story in Chinese', async () => {
    // The chat above left an answered turn.
    const turn = await h.app.store.c.turns.findOne({ status: 'responded' });
    expect(turn).toBeTruthy();
    await page.goto(`/turns/${encodeURIComponent(turn!._id)}`);
    const labels = page.getByTestId('prompt-part').locator('td:first-child .muted');
    await expect.poll(() => labels.count()).toBeGreaterThan(0);
    const texts = (await labels.allTextContents()).filter(Boolean);
    expect(texts).toEqual(expect.arrayContaining(['固定前缀（规则、人设、背景）', '本轮输入']));
    for (const x of texts) expect(/^[\x00-\x7f]*$/.test(x), x).toBe(false);
    await screenshot(page, 'locale-07-trace-zh');

    const created = await h.gql<{ createBackground: { id: string } }>(
      'mutation($beats: [String!]!) { createBackground(name: "雨夜茶馆", worldSetting: "山间茶馆，雨季。", beats: $beats) { id } }',
      { beats: ['客人淋着雨赶到', '突然停电', '烛光下的一首歌'] },
    );
    expect(created.body.errors).toBeUndefined();
    await page.goto(`/dialogues/${encodeURIComponent(turn!.dialogueId)}`);
    await expect.poll(() => page.getByTestId('story-none').textContent()).toContain('此对话还没有采用背景');
    await page.getByTestId('story-background').selectOption(created.body.data!.createBackground.id);
    await page.getByTestId('story-panel').waitFor();
    const beats = page.getByTestId('beat');
    expect(await beats.locator('.badge').allTextContents()).toEqual(['进行中', '未开始', '未开始']);
    expect(await page.getByTestId('story-progress').textContent()).toContain('已有 0 条回复未推进剧情');
    expect(await page.getByTestId('story-director').textContent()).toBe('开启导演');
    await beats.nth(1).getByTestId('beat-status').selectOption('done');
    await expect.poll(() => page.getByTestId('step').first().textContent()).toMatch(/操作员.*情节 2.*已完成/);
    await screenshot(page, 'locale-08-story-zh');
  });

  it('leaves no run of English words on the pages in Chinese, outside of data', async () => {
    const turn = await h.app.store.c.turns.findOne({ status: 'responded' });
    const paths = [
      '/home',
      '/dialogues',
      `/dialogues/${encodeURIComponent(turn!.dialogueId)}`,
      `/turns/${encodeURIComponent(turn!._id)}`,
      '/rooms',
      `/rooms/${encodeURIComponent(roomId)}`,
      '/memories',
      '/knowledge',
      '/reflections',
      '/chat',
      '/stats',
      '/warnings',
      '/config',
      '/setup/agents',
      `/setup/agents/${encodeURIComponent(agentId)}`,
      '/backgrounds',
      '/web-users',
    ];
    const found: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await expect.poll(() => page.locator('main .loading').count(), { message: path }).toBe(0);
      for (const run of await page.evaluate(englishRuns, DATA)) found.push(`${path}: ${run}`);
    }
    expect(found).toEqual([]);
  });

  it('raised no script errors in the page', () => {
    expect(pageErrors(page)).toEqual([]);
  });
});
