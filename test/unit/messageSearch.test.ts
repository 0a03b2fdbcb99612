import { describe, expect, it } from 'vitest';
import { planMessageSearch } from '../../src/search/messageSearch.js';
import { statsWindow, windowCondition } from '../../src/query/timeWindow.js';
import { GatewayError } from '../../src/errors.js';

const now = new Date('2026-03-01T00:00:00Z');
const day = 86_400_000;
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof GatewayError ? err.code : 'other';
  }
  return 'none';
};

describe('message search plan', () => {
  it('requires every bigram of the query, then checks the literal text case-insensitively', () => {
    const { filter, keys } = planMessageSearch({ text: ' hELLo ', role: 'human' }, now);
    expect(keys).toEqual(['he', 'el', 'll', 'lo']);
    const json = JSON.stringify(filter);
    expect(json).toContain('"$all":["he","el","ll","lo"]');
    expect(json).toContain('"$regex":"hELLo","$options":"i"');
    expect(json).toContain('"senderRole":"human"');
  });

  it('escapes special characters', () => {
    const { filter } = planMessageSearch({ text: 'a.b*c(' }, now);
    expect(JSON.stringify(filter)).toContain(JSON.stringify('a\\.b\\*c\\('));
  });

  it('rejects empty and oversized texts with BAD_REQUEST', () => {
    expect(codeOf(() => planMessageSearch({ text: '   ' }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: 'x'.repeat(201) }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: '好'.repeat(200) }, now))).toBe('none');
  });

  it('bounds a one-character search by a dialogue or a window of at most 31 days', () => {
    expect(codeOf(() => planMessageSearch({ text: '猫' }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: '猫', since: new Date(now.getTime() - 40 * day) }, now))).toBe(
      'BAD_REQUEST',
    );
    expect(codeOf(() => planMessageSearch({ text: '猫', until: now }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => planMessageSearch({ text: '猫', since: new Date(now.getTime() - 30 * day) }, now))).toBe(
      'none',
    );
    const { filter, keys } = planMessageSearch({ text: '猫', dialogueId: 'dlg_1' }, now);
    expect(keys).toEqual([]);
    expect(JSON.stringify(filter)).not.toContain('searchKeys');
  });

  it('rejects since after until', () => {
    expect(
      codeOf(() => planMessageSearch({ text: 'hello', since: now, until: new Date(now.getTime() - 1) }, now)),
    ).toBe('BAD_REQUEST');
  });
});

describe('time windows', () => {
  it('are since inclusive, until exclusive', () => {
    expect(windowCondition('at', { since: now, until: new Date(now.getTime() + day) })).toEqual({
      at: { $gte: now, $lt: new Date(now.getTime() + day) },
    });
    expect(windowCondition('at', {})).toEqual({});
    expect(codeOf(() => windowCondition('at', { since: now, until: new Date(now.getTime() - 1) }))).toBe('BAD_REQUEST');
  });

  it('of stats default to the last 7 days and are at most 366 days long', () => {
    expect(statsWindow({}, now)).toEqual({ since: new Date(now.getTime() - 7 * day), until: now });
    expect(statsWindow({ until: now }, now)).toEqual({ since: new Date(now.getTime() - 7 * day), until: now });
    expect(codeOf(() => statsWindow({ since: new Date(now.getTime() - 367 * day) }, now))).toBe('BAD_REQUEST');
    expect(codeOf(() => statsWindow({ since: new Date(now.getTime() - 366 * day) }, now))).toBe('none');
  });
});
