// SPEC §14's budget rules, pure: the day in the operator's zone, when it resets, which cap is reached, and cost.
import { describe, expect, it } from 'vitest';
import { capReached, costOf, dayOf, nextResetAt, personCap, spendSubjects } from '../../src/domain/spend.js';

describe('the budget day', () => {
  it('is the calendar day in the zone, resetting at its midnight', () => {
    // 2026-12-01 17:30 UTC is 2026-12-02 01:30 in Shanghai.
    const at = new Date('2026-12-01T17:30:00Z');
    expect(dayOf(at, 'Asia/Shanghai')).toBe('2026-12-02');
    expect(dayOf(at, 'UTC')).toBe('2026-12-01');
    expect(nextResetAt(at, 'Asia/Shanghai').toISOString()).toBe('2026-12-02T16:00:00.000Z');
    expect(nextResetAt(at, 'UTC').toISOString()).toBe('2026-12-02T00:00:00.000Z');
  });

  it('resets at local midnight across a change to summer time', () => {
    // New York springs forward on 2026-03-08; midnight of the 9th is 04:00 UTC (EDT).
    expect(nextResetAt(new Date('2026-03-08T12:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
    expect(nextResetAt(new Date('2026-03-07T12:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    );
  });
});

describe('caps', () => {
  const none = { personTokens: 0, chatTokens: 0, deploymentCost: 0 };
  it('reaches the first cap spent, and none set to 0', () => {
    expect(capReached(none, { personTokens: 1e9, chatTokens: 1e9, deploymentCost: 1e9 })).toBeNull();
    expect(
      capReached({ ...none, personTokens: 100 }, { personTokens: 99, chatTokens: 0, deploymentCost: 0 }),
    ).toBeNull();
    expect(capReached({ ...none, personTokens: 100 }, { personTokens: 100, chatTokens: 0, deploymentCost: 0 })).toBe(
      'person',
    );
    expect(capReached({ ...none, chatTokens: 10 }, { personTokens: 0, chatTokens: 11, deploymentCost: 0 })).toBe(
      'chat',
    );
    expect(capReached({ ...none, deploymentCost: 1.5 }, { personTokens: 0, chatTokens: 0, deploymentCost: 1.5 })).toBe(
      'deployment',
    );
  });

  it("takes a person's own quota over the deployment's", () => {
    expect(personCap(undefined, 1000)).toBe(1000);
    expect(personCap(50, 1000)).toBe(50);
    expect(personCap(0, 1000)).toBe(0);
  });

  it('costs a call by its model’s price, nothing for an unpriced model', () => {
    const pricing = [{ model: 'm', promptPerMillion: 2, completionPerMillion: 8 }];
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 500_000 }, 'm', pricing)).toBe(6);
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 0 }, 'other', pricing)).toBe(0);
  });

  it('adds a call to the payer’s person, chat and agent counters, and always the deployment’s', () => {
    expect(spendSubjects({ humanId: 'h', dialogueId: 'd', agentId: 'a' }).map((s) => s.scope)).toEqual([
      'person',
      'chat',
      'agent',
      'deployment',
    ]);
    expect(spendSubjects({}).map((s) => s.scope)).toEqual(['deployment']);
  });
});
