// SPEC §14, budgets before the call, end to end through grammY and the real openai client against
// the fake model: a person past limits.person_daily_tokens causes no further model call that
// day and hears exactly one notice with the reset time; another person (with an operator's
// quota over the deployment's) goes on being answered; spend is readable over GraphQL and
// refusals are counted on /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually, TEST_OPS_TOKEN } from '../support/testEnv.js';
import { textUpdate } from '../fixtures/telegramUpdates.js';
import type { Message } from '../../src/domain/model.js';
import { humanIdOf } from '../../src/store/participants.js';
import { dayOf, nextResetAt } from '../../src/domain/spend.js';

let updateId = 1;
/** Far apart, so no person's message takes the id the fake Bot API gave a notice. */
const messageIdOf = (update: number) => update * 1000;

describe('daily budgets (SPEC §14)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ DISPLAY_TIMEZONE: 'Asia/Shanghai' });
    // Far below one reply's prompt: the first reply passes the cap, the next is refused.
    await h.app.store.config.update({ limits: { person_daily_tokens: 100 } }, new Date());
  });
  afterAll(() => h.stop());

  async function dm(userId: number, text: string): Promise<Message> {
    const id = updateId++;
    const messageId = messageIdOf(id);
    h.tg.pushUpdate(textUpdate({ updateId: id, messageId, userId, firstName: `U${userId}`, text }));
    return eventually(
      async () =>
        (await h.app.store.c.messages.findOne({
          'platformRef.chatId': String(userId),
          'platformRef.messageId': String(messageId),
        })) ?? undefined,
      10_000,
      `message ${text} stored`,
    );
  }

  const answered = (m: Message) =>
    eventually(
      async () => (await h.app.store.c.turns.findOne({ _id: m.turnId ?? '-' }))?.status === 'responded',
      15_000,
      `reply to ${m.content}`,
    );

  /** Model calls of any kind (replies, extraction) whose prompt holds this text. */
  const callsWith = (text: string) => h.llm.requests.filter((r) => JSON.stringify(r.body).includes(text)).length;

  it('stops a person at their cap with one notice naming the reset time; an operator quota lets another go on', async () => {
    const ann = 601;
    const bob = 602;
    await answered(await dm(ann, 'first question from ann'));
    expect(callsWith('first question from ann')).toBeGreaterThanOrEqual(1);
    const annId = humanIdOf({ platform: 'telegram', userId: String(ann) });
    const spent = await eventually(async () => {
      const row = await h.app.store.spend.get(dayOf(new Date(), 'Asia/Shanghai'), 'person', annId);
      return row && row.tokens > 100 ? row : undefined;
    });
    expect(spent.calls).toBeGreaterThanOrEqual(1);

    const refused = await dm(ann, 'second question from ann');
    const third = await dm(ann, 'third question from ann');
    expect(refused.rejected).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'budget' });
    expect(third.rejected).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'budget' });
    const reset = nextResetAt(new Date(), 'Asia/Shanghai');
    const notice = await eventually(() => Promise.resolve(h.tg.sentText(ann).find((t) => t.includes('allowance'))));
    const wall = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Asia/Shanghai',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).format(reset);
    expect(notice).toContain(`${wall} (Asia/Shanghai)`);
    await new Promise((r) => setTimeout(r, 1500));
    expect(h.tg.sentText(ann).filter((t) => t.includes('allowance'))).toHaveLength(1);
    expect(callsWith('second question from ann')).toBe(0);
    expect(callsWith('third question from ann')).toBe(0);

    // Positive control: Bob, with his own quota over the deployment's, is answered twice.
    await dm(bob, 'hello from bob');
    const bobId = humanIdOf({ platform: 'telegram', userId: String(bob) });
    const quota = await h.gql<{ setHumanQuota: { dailyTokens: number } }>(
      'mutation($id: ID!) { setHumanQuota(humanId: $id, dailyTokens: 1000000) { dailyTokens } }',
      { id: bobId },
    );
    expect(quota.body.data?.setHumanQuota.dailyTokens).toBe(1_000_000);
    await answered(await dm(bob, 'bob again'));
    await answered(await dm(bob, 'bob a third time'));
  });

  it('shows the spend per person, chat and agent over GraphQL, and counts refusals on /metrics', async () => {
    const annId = humanIdOf({ platform: 'telegram', userId: '601' });
    const q = await h.gql<{ spend: Array<{ scope: string; subjectId: string; tokens: number; calls: number }> }>(
      '{ spend { scope subjectId tokens calls } }',
    );
    const rows = q.body.data!.spend;
    expect(rows.find((r) => r.scope === 'PERSON' && r.subjectId === annId)?.tokens).toBeGreaterThan(100);
    expect(rows.some((r) => r.scope === 'CHAT')).toBe(true);
    expect(rows.some((r) => r.scope === 'AGENT')).toBe(true);
    const all = rows.find((r) => r.scope === 'DEPLOYMENT');
    const people = rows.filter((r) => r.scope === 'PERSON').reduce((n, r) => n + r.tokens, 0);
    expect(all?.tokens).toBeGreaterThanOrEqual(people);
    const metrics = await fetch(h.app.metricsUrl!, { headers: { authorization: `Bearer ${TEST_OPS_TOKEN}` } });
    const text = await metrics.text();
    expect(text).toMatch(/rainbow_refusals_total\{reason="budget"\} 2/);
  });
});
