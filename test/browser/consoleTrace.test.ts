// The turn trace's timeline and costs, memory scores on one scale, the Retire wording and the
// config page's unsaved-edits warning and change history, in Debian's Chromium against a running
// gateway with the fake Telegram and OpenAI. Screenshots under .local/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../support/harness.js';
import { eventually, TEST_OPS_TOKEN } from '../support/testEnv.js';
import { privateText } from '../fixtures/telegramUpdates.js';
import { newPage, pageErrors, screenshot, signIn, startWithBrowser, stopWithBrowser } from './browser.js';

const CHAT = 880_101;
const PERCENT = /^\d{1,3}\s?%$/;

describe('console: trace timeline, scores, wording, unsaved edits, config history', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let toolTurnId: string;

  beforeAll(async () => {
    ({ h, browser } = await startWithBrowser());
    const priced = await h.gql(
      'mutation($p: ConfigPatchInput!) { updateConfig(patch: $p) { version } }',
      { p: { pricing: [{ model: 'gpt-4o-mini', promptPerMillion: 0.15, completionPerMillion: 0.6 }] } },
      TEST_OPS_TOKEN,
    );
    expect(priced.body.errors).toBeUndefined();
    // A plain turn (its memory is extracted after the reply), then one that calls a tool.
    h.llm.enqueue({ kind: 'reply', chunks: ['Hello Ada,', ' green tea is lovely.'] });
    h.tg.pushUpdate(privateText({ updateId: 1, chatId: CHAT, firstName: 'Ada', text: 'Hi! I love green tea.' }));
    const responded = async (n: number) => {
      const d = await h.app.store.c.dialogues.findOne({ 'chat.chatId': String(CHAT) });
      if (!d) return undefined;
      const turns = await h.app.store.c.turns.find({ dialogueId: d._id, status: 'responded' }).toArray();
      return turns.length >= n ? turns : undefined;
    };
    await eventually(() => responded(1), 15_000, 'first turn answered');
    // Recalled into the second turn, so the trace has scores to show.
    await eventually(async () => (await h.app.store.c.memories.countDocuments({})) > 0, 15_000, 'memory extracted');
    h.llm.enqueue(
      { kind: 'tool_calls', calls: [{ id: 'call_time', name: 'current_time', arguments: '{}' }] },
      { kind: 'reply', chunks: ['It is', ' tea time.'] },
    );
    h.tg.pushUpdate(privateText({ updateId: 2, chatId: CHAT, firstName: 'Ada', text: 'What time is it now?' }));
    const turns = await eventually(() => responded(2), 15_000, 'second turn answered');
    toolTurnId = [...turns].sort((a, b) => +b.startedAt - +a.startedAt)[0]!._id;
    page = await newPage(browser, h.app.apiUrl!);
    await signIn(page, TEST_OPS_TOKEN);
    await page.getByTestId('whoami').waitFor();
  }, 90_000);

  afterAll(() => stopWithBrowser(h, browser));

  it('draws the turn on one time axis: context, recall, each model round with TTFT, the tool call, the delivery, with costs', async () => {
    await page.goto(`/turns/${toolTurnId}`);
    await page.getByTestId('timeline').waitFor();
    await expect.poll(() => page.getByTestId('timeline-step').filter({ hasText: 'Delivery' }).count()).toBe(1);
    const kinds = await page
      .getByTestId('timeline-step')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    expect(kinds.filter((k) => k === 'llm')).toHaveLength(2);
    expect(kinds).toEqual(expect.arrayContaining(['context', 'recall', 'tool', 'delivery']));
    // Every step has a bar inside the track; model rounds come after the context, the tool between them.
    const bars = await page.getByTestId('timeline-bar').evaluateAll((els) =>
      els.map((e) => ({
        left: parseFloat((e as HTMLElement).style.left),
        width: parseFloat((e as HTMLElement).style.width),
      })),
    );
    expect(bars).toHaveLength(kinds.length);
    for (const b of bars) {
      expect(b.left).toBeGreaterThanOrEqual(0);
      expect(b.left + b.width).toBeLessThanOrEqual(100.01);
    }
    const at = (k: string, n = 0) => bars[kinds.indexOf(k) + n]!.left;
    expect(at('llm')).toBeGreaterThanOrEqual(at('context'));
    expect(at('tool')).toBeGreaterThanOrEqual(at('llm'));
    expect(at('delivery')).toBeGreaterThanOrEqual(at('tool'));
    const round = page.getByTestId('timeline-step').filter({ hasText: 'Model round 1' });
    expect(await round.textContent()).toMatch(/first token after \d/);
    expect(await page.getByTestId('timeline-step').filter({ hasText: 'Tool current_time' }).count()).toBe(1);
    // gpt-4o-mini has a price: each round's cost and the turn's total.
    expect(await page.getByTestId('call-cost').count()).toBe(2);
    expect(await page.getByTestId('turn-cost').textContent()).toMatch(/Turn cost \d/);
    await screenshot(page, 'trace-01-timeline');

    // Readable on a phone: the page stays within 390 px, each bar still inside its track.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('timeline').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const track = await page.locator('.timeline-track').first().boundingBox();
    expect(track!.width).toBeGreaterThan(200);
    await screenshot(page, 'trace-02-timeline-phone');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('shows memory scores on one 0–100 % scale, named in a tooltip, on the trace and the Memories page', async () => {
    await page.goto(`/turns/${toolTurnId}`);
    const recalled = page.getByTestId('recalled-memory');
    await recalled.first().waitFor();
    const traceScore = recalled.first().getByTestId('memory-score');
    expect((await traceScore.textContent())!.trim()).toMatch(PERCENT);
    expect(await traceScore.getAttribute('title')).toMatch(/best match in the same recall/);
    expect((await recalled.first().getByTestId('memory-importance').textContent())!.trim()).toMatch(PERCENT);

    await page.getByRole('link', { name: 'Memories', exact: true }).click();
    await page.getByTestId('memory').first().waitFor();
    expect(await page.getByTestId('memory').first().getByTestId('memory-importance').textContent()).toMatch(
      /importance \d{1,3}\s?%/,
    );
    await page.getByPlaceholder(/what does she like/).fill('green tea');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.locator('.memories').first().getByTestId('memory-score').first();
    await hit.waitFor();
    expect(await hit.textContent()).toMatch(/relevance \d{1,3}\s?%/);
    expect(await hit.getAttribute('title')).toMatch(/best match in the same recall/);
    await screenshot(page, 'trace-03-memory-scores');
  });

  it('says "retired" for a retired memory (stored as pruned)', async () => {
    await page.goto('/memories');
    const first = page.getByTestId('memory').first();
    await first.waitFor();
    // The retire answers late, after the operator has switched the filter: its reload must load
    // the retired list the page now shows, not put the older list back over it.
    await page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('retireMemory')) await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    page.once('dialog', (d) => void d.accept());
    await first.getByRole('button', { name: 'Retire' }).click();
    await page.getByLabel('Status').selectOption({ label: 'retired' });
    await new Promise((r) => setTimeout(r, 2_000)); // the late answer and its reload are in
    await page.unroute('**/graphql');
    const status = page.getByTestId('memory').first().getByTestId('memory-status').first();
    await expect.poll(() => status.getAttribute('data-status')).toBe('pruned');
    expect((await status.textContent())!.trim()).toBe('retired');
    expect(await page.getByTestId('memory').first().textContent()).not.toContain('pruned');
    await screenshot(page, 'trace-04-retired');
  });

  it('asks before leaving the config page with unsaved edits, and lists who changed what', async () => {
    await page.goto('/config');
    const input = page.getByTestId('config-thresholds.recall_top_k').locator('input');
    await input.click();
    await input.fill('8');
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('link', { name: 'Dialogues' }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('unsaved');
    expect(new URL(page.url()).pathname).toBe('/config');
    expect(await input.inputValue()).toBe('8');
    await screenshot(page, 'trace-05-unsaved-stayed');

    // Closing or reloading the tab gets the browser's own warning.
    const unload = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.dismiss())));
    await page.evaluate(() => location.reload());
    expect(await unload).toBe('beforeunload');
    expect(await input.inputValue()).toBe('8');

    // Saved, the edit is in the history with the operator's name; then leaving asks nothing.
    await page.getByTestId('config-save').click();
    await page.getByTestId('config-saved').waitFor();
    const entry = page.getByTestId('config-history-entry').first();
    await expect.poll(() => entry.textContent()).toContain('thresholds.recall_top_k: 5 → 8');
    expect(await entry.textContent()).toContain('tester');
    expect(await page.getByTestId('config-history').textContent()).toContain('pricing.gpt-4o-mini');
    await screenshot(page, 'trace-06-config-history');
    let askedAgain = false;
    page.once('dialog', (d) => {
      askedAgain = true;
      void d.dismiss();
    });
    await page.getByRole('link', { name: 'Dialogues' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dialogues');
    expect(askedAgain).toBe(false);
    expect(pageErrors(page)).toEqual([]);
  });
});
