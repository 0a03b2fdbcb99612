// The operator console on a phone (390×844) and on a desktop (1440×900), in Debian's Chromium:
// with a Telegram DM answered (two turns, one with a tool call), a room and a web chat in place,
// every console page is visited at both sizes. No page may be wider than the phone's viewport,
// every page title must meet WCAG AA contrast (4.5:1) against what is actually painted behind it,
// the menu collapses behind a keyboard-operable toggle, lists are reachable by Tab, and the chat
// input is on screen without scrolling. Screenshots go under .local/screenshots/phone-* / desk-*.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { eventually, TEST_OPS_TOKEN } from '../support/testEnv.js';
import { webApi } from '../support/webClient.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { newPage, pageErrors, screenshot, SCREENSHOTS, signIn, startWithBrowser, stopWithBrowser } from './browser.js';

const CHAT = 880_101;
const TITLE = 'Hi! I love green tea.';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

interface Visit {
  name: string;
  path: string;
  /** Shown once the page's data has arrived. */
  ready: string;
}

type Rgba = [number, number, number, number];

/** Whether a console route pattern (`/dialogues/:id`) matches this path, as the router does. */
const matches = (pattern: string, path: string): boolean => {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  return p.length === s.length && p.every((part, i) => part.startsWith(':') || part === s[i]);
};

const parseColor = (css: string): Rgba => {
  const m = /rgba?\(([^)]+)\)/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  const [r = 0, g = 0, b = 0, a = 1] = m[1]!
    .split(/[,\s/]+/)
    .filter(Boolean)
    .map(Number);
  return [r, g, b, a];
};
const luminance = ([r, g, b]: Rgba): number => {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};
/** WCAG 2 contrast ratio of two opaque colours. */
const contrast = (a: Rgba, b: Rgba): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** The h1's colour and the first non-transparent background colour up its ancestors. */
async function titleColors(page: Page): Promise<{ text: string; background: string; from: string }> {
  return page
    .locator('main h1')
    .first()
    .evaluate((h1) => {
      for (let el: Element | null = h1; el; el = el.parentElement) {
        const bg = getComputedStyle(el).backgroundColor;
        const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(bg)?.[1];
        if (alpha === undefined || Number(alpha) > 0)
          return { text: getComputedStyle(h1).color, background: bg, from: el.tagName + '.' + el.className };
      }
      return { text: getComputedStyle(h1).color, background: 'rgb(255, 255, 255)', from: 'canvas' };
    });
}

/**
 * The colours actually painted behind the h1 (its text made transparent, its box screenshotted
 * and read back through a canvas): catches what a background-color walk cannot, like a
 * gradient stripe on an ancestor.
 */
async function paintedBehindTitle(page: Page): Promise<Rgba[]> {
  const h1 = page.locator('main h1').first();
  await h1.evaluate((el) => el.style.setProperty('color', 'transparent', 'important'));
  const box = (await h1.boundingBox())!;
  const png = await page.screenshot({ clip: box });
  await h1.evaluate((el) => el.style.removeProperty('color'));
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, img.width, img.height).data;
    const seen = new Map<string, [number, number, number, number]>();
    for (let i = 0; i < data.length; i += 4) {
      const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
      if (!seen.has(key)) seen.set(key, [data[i]!, data[i + 1]!, data[i + 2]!, 1]);
    }
    return [...seen.values()];
  }, png.toString('base64'));
}

/** The deepest elements sticking out past the viewport's right edge (for a failure's message). */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right <= w + 0.5 || r.width === 0) continue;
      if ([...el.children].some((c) => c.getBoundingClientRect().right > w + 0.5)) continue;
      out.push(`${el.tagName.toLowerCase()}.${String(el.className).replace(/\s+/g, '.')} → ${Math.round(r.right)}`);
    }
    return out.slice(0, 8);
  });

async function visit(page: Page, v: Visit): Promise<void> {
  await page.goto(v.path);
  await page.locator(v.ready).first().waitFor();
  await page.locator('main h1').first().waitFor({ state: 'attached' });
  await expect.poll(() => page.locator('.loading').count()).toBe(0);
  await page.evaluate(() => document.fonts.ready);
}

describe('operator console on a phone and a desktop', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let visits: Visit[];

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser());
    // A Telegram DM of two turns: a plain answer, then one that calls a tool.
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello Ada,', ' green tea is lovely.'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, firstName: 'Ada', text: TITLE }));
    const responded = async (n: number) => {
      const d = await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) });
      if (!d) return undefined;
      const turns = await h.app.store.c.turns.find({ dialogueId: d._id, status: 'responded' }).toArray();
      return turns.length >= n ? { dialogueId: d._id, turnIds: turns.map((t) => t._id) } : undefined;
    };
    await eventually(() => responded(1), 15_000, 'first turn answered');
    h.llm.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'call_time', name: 'current_time', arguments: '{}' }] },
      { kind: 'reply', chunks: ['It is', ' tea time.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, firstName: 'Ada', text: 'What time is it now?' }));
    const { dialogueId, turnIds } = await eventually(() => responded(2), 15_000, 'second turn answered');
    const [first, second] = turnIds as [string, string];

    // A room of two agents.
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
          chatId: '-100880102',
          mode: 'DEFAULT',
          agentIds: [agents.body.data!.agents.edges[0]!.node.id, dee.body.data!.createAgent.id],
        },
      },
    );
    expect(room.body.errors).toBeUndefined();

    // A web chat long enough that its log outgrows a phone's screen.
    const web = webApi(h.app.apiUrl!, TEST_OPS_TOKEN);
    const conversationId = String((await web.createConversation()).json!.id);
    for (let i = 1; i <= 4; i++) {
      h.llm.enqueue({
        kind: 'reply',
        chunks: [`Answer ${i}: brew green tea at 80 °C for two minutes, then taste it and adjust next time.`],
      });
      expect((await web.send(conversationId, { content: `Question ${i}: how should I brew green tea?` })).status).toBe(
        200,
      );
    }

    visits = [
      { name: 'home', path: '/home', ready: 'main h1' },
      { name: 'dialogues', path: '/dialogues', ready: '[data-testid=dialogue-list]' },
      { name: 'dialogue', path: `/dialogues/${dialogueId}`, ready: '[data-testid=turn]' },
      { name: 'trace', path: `/turns/${second}`, ready: '[data-testid=tool-call]' },
      { name: 'diff', path: `/diff?a=${first}&b=${second}`, ready: '[data-testid=diff-parts]' },
      { name: 'rooms', path: '/rooms', ready: 'text=Tea club' },
      { name: 'room', path: `/rooms/${room.body.data!.createRoom.id}`, ready: 'h2:text("Members")' },
      { name: 'memories', path: '/memories', ready: '[data-testid=memory]' },
      { name: 'config', path: '/config', ready: '[data-testid=config-save]' },
      { name: 'warnings', path: '/warnings', ready: 'main h1' },
      { name: 'stats', path: '/stats', ready: '[data-testid=stats-cards]' },
      { name: 'knowledge', path: '/knowledge', ready: 'main h1' },
      { name: 'reflections', path: '/reflections', ready: '[data-testid=reflection-state]' },
      { name: 'chats', path: '/chat', ready: 'main h1' },
      { name: 'chat', path: `/chat/${conversationId}`, ready: '[data-testid=chat-assistant]' },
      { name: 'agents', path: '/setup/agents', ready: 'main h1' },
      { name: 'agent', path: '/setup/agents/agt_default', ready: 'main h1' },
      { name: 'backgrounds', path: '/backgrounds', ready: 'main h1' },
      { name: 'web-users', path: '/web-users', ready: 'main h1' },
      { name: 'access', path: '/access', ready: 'main h1' },
    ];
    page = await newPage(browser, h.app.apiUrl!);
    await signIn(page, TEST_OPS_TOKEN);
    await page.locator('main h1').waitFor();
  }, 90_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('visits a page for every route the console has', () => {
    const source = readFileSync(join(import.meta.dirname, '../../console/src/routes.tsx'), 'utf8');
    const patterns = [...source.matchAll(/pattern: '([^']+)'/g)].map((m) => m[1]!);
    expect(patterns.length).toBeGreaterThan(10);
    for (const pattern of patterns)
      expect(
        visits.some((v) => matches(pattern, v.path.split('?')[0]!)),
        pattern,
      ).toBe(true);
  });

  it('keeps every page within a 390 px wide phone screen', async () => {
    await page.setViewportSize(PHONE);
    const tooWide: string[] = [];
    for (const v of visits) {
      await visit(page, v);
      await screenshot(page, `phone-${v.name}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > PHONE.width) tooWide.push(`${v.name}: ${width} px (${(await overflowing(page)).join(', ')})`);
    }
    expect(tooWide).toEqual([]);
  });

  it('gives every page title AA contrast against its background, on a desktop and a phone', async () => {
    const low: string[] = [];
    for (const [size, viewport] of [
      ['desk', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      for (const v of visits) {
        await visit(page, v);
        if (size === 'desk') await screenshot(page, `desk-${v.name}`);
        const c = await titleColors(page);
        const text = parseColor(c.text);
        const declared = contrast(text, parseColor(c.background));
        if (declared < 4.5) low.push(`${size} ${v.name}: ${declared.toFixed(2)} against ${c.background} of ${c.from}`);
        const painted = Math.min(...(await paintedBehindTitle(page)).map((px) => contrast(text, px)));
        if (painted < 4.5) low.push(`${size} ${v.name}: ${painted.toFixed(2)} against what is painted behind it`);
      }
    }
    expect(low).toEqual([]);
    // Every page twice, each title's pixels read back: about 20 s alone, more on a busy machine.
  }, 90_000);

  it('collapses the menu on a phone behind a toggle a keyboard can work, and shows it on a desktop', async () => {
    await page.setViewportSize(PHONE);
    await visit(
      page,
      visits.find((v) => v.name === 'dialogues')!,
    );
    const toggle = page.getByRole('button', { name: 'Menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const menuId = (await toggle.getAttribute('aria-controls'))!;
    const menu = page.locator(`#${menuId}`);
    expect(await menu.count()).toBe(1);
    expect(await menu.isVisible()).toBe(false);
    const rooms = page.getByRole('link', { name: 'Rooms' });
    expect(await rooms.isVisible()).toBe(false);
    // Dialogue titles are dark on light with the menu closed: no dark stripe behind the content.
    await screenshot(page, 'phone-menu-closed');

    // Tab from the top of the page reaches the toggle first; Enter opens, Escape closes.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await toggle.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await rooms.isVisible()).toBe(true);
    await screenshot(page, 'phone-menu-open');
    await page.keyboard.press('Tab');
    const firstLink = await menu.getByRole('link').first().textContent();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(firstLink);
    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await rooms.isVisible()).toBe(false);
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    // Space works as well, and following a link closes the menu behind it.
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await rooms.click();
    await page.getByText('Tea club').waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator(`#${menuId}`).isVisible()).toBe(false);

    await page.setViewportSize(DESKTOP);
    expect(await toggle.isVisible()).toBe(false);
    expect(await rooms.isVisible()).toBe(true);
  });

  it('reaches a list’s rows by Tab in order, with header cells scoped and a visible focus ring', async () => {
    await page.setViewportSize(DESKTOP);
    await visit(
      page,
      visits.find((v) => v.name === 'dialogues')!,
    );
    const list = page.getByTestId('dialogue-list');
    expect(await list.locator('th').evaluateAll((ths) => ths.map((th) => th.getAttribute('scope')))).toEqual(
      Array(7).fill('col'),
    );
    // Tab through the page until the dialogue's link has focus, after the menu's links.
    const order: string[] = [];
    for (let i = 0; i < 30 && !order.includes(TITLE); i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(order).toContain(TITLE);
    expect(order.indexOf('Config')).toBeLessThan(order.indexOf(TITLE));
    const focused = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    expect(focused.style).not.toBe('none');
    expect(focused.width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');
    await page.getByTestId('turn').first().waitFor();

    // The dialogue's sessions are a list of links, reached by Tab like the table's rows.
    const sessions = page.getByTestId('session-list');
    expect(await sessions.getAttribute('role')).toBe('list');
    expect(await sessions.getByRole('link').count()).toBeGreaterThan(0);
    await page.setViewportSize(PHONE);
    await visit(
      page,
      visits.find((v) => v.name === 'dialogues')!,
    );
    // On a phone each row is a card whose cells name their column.
    const cell = list.locator('tbody td').nth(1);
    expect(await cell.getAttribute('data-label')).toBe('Type');
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Type"');
  });

  it('keeps the chat input on screen without scrolling, above a scrolling message list', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await visit(
        page,
        visits.find((v) => v.name === 'chat')!,
      );
      const input = page.getByTestId('chat-input');
      const box = (await input.boundingBox())!;
      expect(await page.evaluate(() => scrollY)).toBe(0);
      expect(box.y, `${viewport.width} px`).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height, `${viewport.width} px`).toBeLessThanOrEqual(viewport.height);
      // Typing there and sending with Enter works from where it sits.
      await input.click();
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    }
    // What the screen shows (a full-page shot draws the pinned input where the viewport began).
    await page.screenshot({ path: join(SCREENSHOTS, 'desk-chat-input.png') });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(SCREENSHOTS, 'phone-chat-input.png') });
  });

  it('raised no script errors in the page', () => {
    expect(pageErrors(page)).toEqual([]);
  });
});
