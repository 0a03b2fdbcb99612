// Self-reflection's pure rules (src/domain/reflection.ts): the order of a run's steps, budget
// accounting (tokens before and after a call, memories all or none per step), values and mood
// within their ranges, the schedule (cron in the agent's zone, quiet hours, slots run once) and
// what a rollback must undo.
import { describe, expect, it } from 'vitest';
import {
  adjustValues,
  chargeCall,
  checkBeforeCall,
  checkMemories,
  cronMatches,
  inQuietHours,
  innerRollback,
  introspectionTurnIdOf,
  localTime,
  normalizeMood,
  parseCron,
  planRollback,
  scheduleDecision,
  scheduledReflectionIdOf,
  settingsProblems,
  stepsAfterSearch,
  VALUE_MAX_DELTA,
  type MemoryChange,
  type ReflectionSettings,
} from '../../src/domain/reflection.js';
import type { MemoryEntry } from '../../src/domain/model.js';

const at = (iso: string) => new Date(iso);

describe('step order', () => {
  it('summarises each person once, most recent first, then persona, values and report', () => {
    const { steps, omitted } = stepsAfterSearch(['hum_a', 'hum_b', 'hum_a'], 5);
    expect(steps).toEqual([
      { seq: 1, step: 'summarize_human', subjectId: 'hum_a' },
      { seq: 2, step: 'summarize_human', subjectId: 'hum_b' },
      { seq: 3, step: 'evaluate_persona' },
      { seq: 4, step: 'adjust_values' },
      { seq: 5, step: 'write_report' },
    ]);
    expect(omitted).toEqual([]);
  });

  it('names the people left for a later run instead of dropping them', () => {
    const { steps, omitted } = stepsAfterSearch(['h1', 'h2', 'h3'], 2);
    expect(steps.filter((s) => s.step === 'summarize_human').map((s) => s.subjectId)).toEqual(['h1', 'h2']);
    expect(omitted).toEqual(['h3']);
  });

  it('still evaluates, adjusts and reports when nobody was talked to', () => {
    expect(stepsAfterSearch([]).steps.map((s) => s.step)).toEqual([
      'evaluate_persona',
      'adjust_values',
      'write_report',
    ]);
  });

  it('derives turn ids from the run and position, and scheduled run ids from the slot', () => {
    expect(introspectionTurnIdOf('rfl_1', 2)).toBe(introspectionTurnIdOf('rfl_1', 2));
    expect(introspectionTurnIdOf('rfl_1', 2)).not.toBe(introspectionTurnIdOf('rfl_1', 3));
    const slot = at('2026-04-01T03:00:00Z');
    expect(scheduledReflectionIdOf('agt_a', slot)).toBe(scheduledReflectionIdOf('agt_a', new Date(slot)));
    expect(scheduledReflectionIdOf('agt_a', slot)).not.toBe(scheduledReflectionIdOf('agt_b', slot));
  });
});

describe('budget', () => {
  const budget = { maxTokens: 1_000, maxMemories: 3 };
  const used = { tokens: 700, memories: 2, calls: 2 };
  const where = { seq: 3, step: 'evaluate_persona' as const };

  it('refuses a call whose prompt no longer fits, before spending anything', () => {
    expect(checkBeforeCall(budget, used, 300, where)).toBeUndefined();
    expect(checkBeforeCall(budget, used, 301, where)).toEqual({
      resource: 'tokens',
      limit: 1_000,
      used: 700,
      wanted: 301,
      seq: 3,
      step: 'evaluate_persona',
      when: 'before_call',
    });
  });

  it('charges a call, and a call that went over is reported after it', () => {
    expect(chargeCall(budget, used, 300, where)).toEqual({ used: { tokens: 1_000, memories: 2, calls: 3 } });
    const over = chargeCall(budget, used, 450, where);
    expect(over.used.tokens).toBe(1_150);
    expect(over.hit).toMatchObject({ resource: 'tokens', used: 700, wanted: 450, when: 'after_call' });
  });

  it('lets a step write its memories only when all of them fit', () => {
    expect(checkMemories(budget, used, 1, where)).toBeUndefined();
    expect(checkMemories(budget, used, 2, where)).toMatchObject({
      resource: 'memories',
      limit: 3,
      used: 2,
      wanted: 2,
      when: 'before_write',
    });
    expect(checkMemories(budget, used, 0, where)).toBeUndefined();
  });
});

describe('values and mood', () => {
  it('moves a value at most VALUE_MAX_DELTA per run and says when it was limited', () => {
    const r = adjustValues({ companionship: 0.6, honesty: 0.7 }, [
      { name: 'companionship', weight: 0.7 },
      { name: 'Honesty', weight: 0 },
      { name: 'patience', weight: 0.9 },
    ]);
    expect(r.values).toEqual({ companionship: 0.7, honesty: 0.5, patience: 0.7 });
    expect(r.changes).toEqual([
      { name: 'companionship', before: 0.6, proposed: 0.7, after: 0.7, limited: false },
      { name: 'honesty', before: 0.7, proposed: 0, after: 0.5, limited: true },
      { name: 'patience', before: null, proposed: 0.9, after: 0.7, limited: true },
    ]);
    expect(VALUE_MAX_DELTA).toBe(0.2);
  });

  it('refuses new values past the maximum, by name', () => {
    const full = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`v${i}`, 0.5]));
    const r = adjustValues(full, [{ name: 'one_more', weight: 0.5 }]);
    expect(r.refused).toEqual(['one_more']);
    expect(r.values).toEqual(full);
  });

  it('keeps the mood within its ranges', () => {
    expect(normalizeMood({ label: '  ', valence: 3, arousal: -1 })).toEqual({ label: 'calm', valence: 1, arousal: 0 });
  });
});

describe('schedule', () => {
  const on = (o: Partial<ReflectionSettings> = {}): ReflectionSettings => ({
    enabled: true,
    cron: '0 3 * * *',
    lookbackHours: 72,
    ...o,
  });

  it('parses five-field cron with lists, ranges and steps, and names a bad field', () => {
    const spec = parseCron('*/15 9-17 * * 1-5');
    expect([...spec.minute.values]).toEqual([0, 15, 30, 45]);
    expect(spec.dayOfWeek.values.has(0)).toBe(false);
    expect([...parseCron('0 0 * * 7').dayOfWeek.values]).toEqual([0]);
    expect(() => parseCron('0 3 * *')).toThrow(/5 fields/);
    expect(() => parseCron('61 3 * * *')).toThrow(/minute/);
    expect(() => parseCron('0 3 * * mon')).toThrow(/day-of-week/);
  });

  it('reads the cron in the agent’s zone', () => {
    // 03:00 in Shanghai is 19:00 UTC the day before.
    const spec = parseCron('0 3 * * *');
    expect(cronMatches(spec, localTime(at('2026-04-01T19:00:00Z'), 'Asia/Shanghai'))).toBe(true);
    expect(cronMatches(spec, localTime(at('2026-04-01T03:00:00Z'), 'Asia/Shanghai'))).toBe(false);
  });

  it('follows Vixie cron when both day fields are restricted: either one', () => {
    const spec = parseCron('0 12 1 * 1');
    expect(cronMatches(spec, localTime(at('2026-04-01T12:00:00Z'), 'UTC'))).toBe(true); // the 1st, a Wednesday
    expect(cronMatches(spec, localTime(at('2026-04-06T12:00:00Z'), 'UTC'))).toBe(true); // a Monday
    expect(cronMatches(spec, localTime(at('2026-04-07T12:00:00Z'), 'UTC'))).toBe(false);
  });

  it('is off unless enabled', () => {
    expect(scheduleDecision(at('2026-04-01T03:00:00Z'), on({ enabled: false }), { defaultTimezone: 'UTC' })).toEqual({
      due: false,
      reason: 'disabled',
    });
  });

  it('starts a run at the slot, a few minutes late too, once per slot', () => {
    const s = on();
    expect(scheduleDecision(at('2026-04-01T03:00:20Z'), s, { defaultTimezone: 'UTC' })).toEqual({
      due: true,
      slot: at('2026-04-01T03:00:00Z'),
    });
    expect(scheduleDecision(at('2026-04-01T03:04:00Z'), s, { defaultTimezone: 'UTC' })).toEqual({
      due: true,
      slot: at('2026-04-01T03:00:00Z'),
    });
    expect(
      scheduleDecision(at('2026-04-01T03:01:00Z'), s, {
        defaultTimezone: 'UTC',
        lastSlot: at('2026-04-01T03:00:00Z'),
      }),
    ).toEqual({ due: false, reason: 'already_ran' });
    expect(scheduleDecision(at('2026-04-01T03:30:00Z'), s, { defaultTimezone: 'UTC' })).toEqual({
      due: false,
      reason: 'no_slot',
    });
  });

  it('starts nothing in quiet hours, including hours that span midnight', () => {
    const quiet = { start: '23:00', end: '07:00' };
    expect(inQuietHours(at('2026-04-01T23:30:00Z'), quiet, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-04-01T06:59:00Z'), quiet, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-04-01T07:00:00Z'), quiet, 'UTC')).toBe(false);
    expect(inQuietHours(at('2026-04-01T12:00:00Z'), { start: '12:00', end: '13:00' }, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-04-01T12:00:00Z'), { start: '12:00', end: '12:00' }, 'UTC')).toBe(false);
    // 03:00 UTC is 11:00 in Shanghai: quiet there from 10:00 to 12:00.
    expect(scheduleDecision(at('2026-04-01T03:00:00Z'), on({ quietHours: quiet }), { defaultTimezone: 'UTC' })).toEqual(
      { due: false, reason: 'quiet_hours' },
    );
    expect(
      scheduleDecision(
        at('2026-04-01T03:00:00Z'),
        on({ cron: '0 11 * * *', timezone: 'Asia/Shanghai', quietHours: { start: '10:00', end: '12:00' } }),
        { defaultTimezone: 'UTC' },
      ),
    ).toEqual({ due: false, reason: 'quiet_hours' });
    expect(
      scheduleDecision(at('2026-04-01T03:00:00Z'), on({ cron: '0 11 * * *' }), { defaultTimezone: 'Asia/Shanghai' }),
    ).toEqual({ due: true, slot: at('2026-04-01T03:00:00Z') });
  });

  it('checks settings an operator sends', () => {
    expect(settingsProblems(on())).toEqual([]);
    expect(
      settingsProblems(
        on({ cron: 'nope', timezone: 'Mars/Base', quietHours: { start: '25:00', end: '07:00' }, lookbackHours: 0 }),
      ),
    ).toHaveLength(4);
  });
});

describe('rollback plan', () => {
  const t = (m: number) => new Date(Date.UTC(2026, 3, 1, 10, m));
  const entry = (id: string, updatedAt: Date, o: Partial<MemoryEntry> = {}): MemoryEntry => ({
    _id: id,
    ownerId: 'agt',
    subjectId: 'hum',
    kind: 'fact',
    text: id,
    dedupeKey: id,
    importance: 0.5,
    sources: {},
    occurredAt: t(0),
    status: 'active',
    recall: { count: 0 },
    createdAt: t(0),
    updatedAt,
    ...o,
  });
  const change = (id: string, seq: number, before: MemoryEntry | null, leftAt: Date): MemoryChange => ({
    memoryId: id,
    seq,
    turnId: `itn_${seq}`,
    before,
    after: { updatedAt: leftAt, status: 'active' },
  });

  it('removes what the run created and restores what it changed, from the first snapshot', () => {
    const old = entry('mem_old', t(0));
    const plan = planRollback(
      [change('mem_new', 1, null, t(5)), change('mem_old', 1, old, t(5)), change('mem_old', 3, null, t(7))],
      new Map([
        ['mem_new', { updatedAt: t(5) }],
        ['mem_old', { updatedAt: t(7) }],
      ]),
    );
    expect(plan.remove).toEqual(['mem_new']);
    expect(plan.restore).toEqual([old]);
    expect(plan.conflicts).toEqual([]);
  });

  it('refuses entries changed after the run, and leaves entries deleted since alone', () => {
    const plan = planRollback(
      [change('mem_a', 1, null, t(5)), change('mem_b', 1, entry('mem_b', t(0)), t(5))],
      new Map([
        ['mem_a', { updatedAt: t(9) }],
        ['mem_b', null],
      ]),
    );
    expect(plan.conflicts.map((c) => c.memoryId)).toEqual(['mem_a']);
    expect(plan.skipped).toEqual([{ memoryId: 'mem_b', reason: 'deleted since the reflection' }]);
    expect(plan.restore).toEqual([]);
    expect(plan.remove).toEqual([]);
  });

  it('is safe to run again after a partial rollback', () => {
    const old = entry('mem_old', t(0));
    const plan = planRollback(
      [change('mem_new', 1, null, t(5)), change('mem_old', 1, old, t(5))],
      new Map([
        ['mem_new', null],
        ['mem_old', { updatedAt: t(0) }],
      ]),
    );
    expect(plan.skipped).toEqual([{ memoryId: 'mem_new', reason: 'already removed' }]);
    expect(plan.restore).toEqual([old]);
  });

  it('puts values and mood back only while the run’s adjustment is the latest', () => {
    const inner = {
      before: { values: { a: 0.5 }, mood: { label: 'calm', valence: 0, arousal: 0.2 } },
      after: { values: { a: 0.6 }, mood: { label: 'glad', valence: 0.4, arousal: 0.3 } },
    };
    expect(innerRollback({ _id: 'rfl_1', inner }, { innerUpdatedBy: 'rfl_1' })).toEqual({ restore: inner.before });
    expect(innerRollback({ _id: 'rfl_1', inner }, { innerUpdatedBy: 'rfl_2' }).conflict).toMatch(/rfl_2/);
    expect(innerRollback({ _id: 'rfl_1' }, {})).toEqual({});
  });
});
