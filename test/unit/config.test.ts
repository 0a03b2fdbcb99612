import { describe, expect, it } from 'vitest';
import { applyConfigPatch, configFieldInfo, defaultConfig, readStoredConfig } from '../../src/domain/config.js';
import { GatewayError } from '../../src/errors.js';

const invalid = (patch: unknown): string => {
  try {
    applyConfigPatch(defaultConfig(), patch);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe('CONFIG_INVALID');
    return (err as Error).message;
  }
  throw new Error('expected CONFIG_INVALID');
};

describe('config document', () => {
  it('has seed 001 defaults and the rolling summary as the default mode', () => {
    const c = defaultConfig();
    expect(c.thresholds).toMatchObject({
      rag_fallback_threshold: 3,
      summary_last_n_turns: 5,
      summary_threshold_turns: 15,
      recent_turns: 10,
    });
    expect(c.limits).toMatchObject({
      max_total_tokens: 100_000,
      middle_section_warning_tokens: 20_000,
      conversation_max_tokens: 100_000,
    });
    expect(c.preferences).toMatchObject({ summary_order: 'summary_first', conversation_load_all: false });
  });

  it('names the field and its range when a value is out of range', () => {
    expect(invalid({ limits: { max_total_tokens: 5 } })).toContain(
      'limits.max_total_tokens must be an integer between 10000 and 200000 (got 5)',
    );
    expect(invalid({ thresholds: { rag_fallback_threshold: 11 } })).toContain(
      'thresholds.rag_fallback_threshold must be an integer between 1 and 10',
    );
    expect(invalid({ limits: { middle_section_warning_tokens: 999 } })).toContain('between 1000 and 50000');
    expect(invalid({ thresholds: { summary_last_n_turns: 2.5 } })).toContain(
      'thresholds.summary_last_n_turns must be an integer between 1 and 20 (got 2.5)',
    );
    expect(invalid({ preferences: { summary_order: 'random' } })).toContain(
      'preferences.summary_order must be one of summary_first, last_n_first',
    );
    expect(invalid({ preferences: { conversation_load_all: 'yes' } })).toContain('must be true or false');
  });

  it('reports every bad field at once, and unknown names instead of ignoring typos', () => {
    const msg = invalid({ limits: { max_total_tokens: 1, max_totl_tokens: 2 }, colours: {} });
    expect(msg).toContain('limits.max_total_tokens');
    expect(msg).toContain('unknown field limits.max_totl_tokens');
    expect(msg).toContain('unknown section colours');
  });

  it('refuses a carry-over or reply length out of range, naming the range', () => {
    expect(invalid({ thresholds: { carry_over_turns: 21 } })).toContain(
      'thresholds.carry_over_turns must be an integer between 0 and 20 (got 21)',
    );
    expect(invalid({ thresholds: { carry_over_turns: -1 } })).toContain('between 0 and 20 (got -1)');
    expect(invalid({ limits: { max_reply_tokens: 10 } })).toContain(
      'limits.max_reply_tokens must be an integer between 64 and 16000 (got 10)',
    );
    expect(defaultConfig().thresholds.carry_over_turns).toBe(6);
    expect(defaultConfig().limits.max_reply_tokens).toBe(2000);
  });

  it('checks pairs that only make sense together', () => {
    expect(invalid({ thresholds: { recent_turns: 20, summary_threshold_turns: 15 } })).toContain(
      'recent_turns (20) must be below thresholds.summary_threshold_turns (15)',
    );
    expect(invalid({ limits: { max_total_tokens: 10_000, middle_section_warning_tokens: 20_000 } })).toContain(
      'middle_section_warning_tokens (20000) must be below',
    );
  });

  it('applies a valid patch without touching other fields', () => {
    const next = applyConfigPatch(defaultConfig(), {
      preferences: { conversation_load_all: true },
      thresholds: { recall_top_k: 8 },
    });
    expect(next.preferences.conversation_load_all).toBe(true);
    expect(next.thresholds.recall_top_k).toBe(8);
    expect(next.limits).toEqual(defaultConfig().limits);
  });

  it('reads a stored document leniently: a bad stored value falls back to its default and is reported', () => {
    const r = readStoredConfig({ limits: { max_total_tokens: 'lots' }, thresholds: { recall_top_k: 7 } });
    expect(r.config.limits.max_total_tokens).toBe(100_000);
    expect(r.config.thresholds.recall_top_k).toBe(7);
    expect(r.ignored).toEqual(['limits.max_total_tokens']);
    expect(readStoredConfig(null).config).toEqual(defaultConfig());
  });

  it('describes every field with its range for operators', () => {
    const info = configFieldInfo();
    expect(info.find((f) => f.path === 'limits.max_total_tokens')).toMatchObject({
      type: 'int',
      min: 10_000,
      max: 200_000,
      default: 100_000,
    });
    expect(info.find((f) => f.path === 'thresholds.room_answer_timeout_seconds')).toMatchObject({
      min: 5,
      max: 3600,
      default: 180,
    });
    expect(info.find((f) => f.path === 'preferences.summary_order')).toMatchObject({
      type: 'enum',
      values: ['summary_first', 'last_n_first'],
    });
    expect(info.find((f) => f.path === 'moderation.keywords')).toMatchObject({
      type: 'list',
      maxItems: 500,
      maxLength: 100,
      default: [],
    });
    expect(info.length).toBe(27);
  });
});

describe('config list fields (moderation.keywords)', () => {
  it('defaults to no keywords with replies checked, and a fresh list each time', () => {
    const c = defaultConfig();
    expect(c.moderation).toEqual({ keywords: [], check_replies: true });
    c.moderation.keywords.push('mutated');
    expect(defaultConfig().moderation.keywords).toEqual([]);
  });

  it('stores a valid list with each entry trimmed, other fields untouched', () => {
    const next = applyConfigPatch(defaultConfig(), { moderation: { keywords: [' spam ', '赌博', 'buy now'] } });
    expect(next.moderation.keywords).toEqual(['spam', '赌博', 'buy now']);
    expect(next.moderation.check_replies).toBe(true);
    expect(applyConfigPatch(next, { moderation: { keywords: [] } }).moderation.keywords).toEqual([]);
  });

  it('names the bad entry, the limits, and never echoes a long list whole', () => {
    const range = 'moderation.keywords must be a list of at most 500 texts, each 1 to 100 characters';
    expect(invalid({ moderation: { keywords: 'spam' } })).toBe(`${range} (got "spam")`);
    expect(invalid({ moderation: { keywords: ['ok', '  '] } })).toBe(`${range} (entry 2 is empty)`);
    expect(invalid({ moderation: { keywords: ['x'.repeat(101)] } })).toBe(`${range} (entry 1 is 101 characters)`);
    expect(invalid({ moderation: { keywords: ['ok', 7] } })).toBe(`${range} (entry 2 is 7)`);
    const many = invalid({ moderation: { keywords: Array.from({ length: 501 }, (_, i) => `w${i}`) } });
    expect(many).toBe(`${range} (got 501 entries)`);
    // The limits themselves are accepted.
    const full = Array.from({ length: 500 }, (_, i) => `${i}`.padEnd(100, 'x'));
    expect(applyConfigPatch(defaultConfig(), { moderation: { keywords: full } }).moderation.keywords).toHaveLength(500);
  });

  it('reads a bad stored list as the default and reports it', () => {
    const r = readStoredConfig({ moderation: { keywords: ['fine', ''], check_replies: false } });
    expect(r.config.moderation).toEqual({ keywords: [], check_replies: false });
    expect(r.ignored).toEqual(['moderation.keywords']);
    expect(readStoredConfig({ moderation: { keywords: [' a '] } }).config.moderation.keywords).toEqual(['a']);
    // A write stores "no prices" as an empty list: nothing was replaced by a default.
    expect(readStoredConfig({ pricing: [] })).toEqual({ config: defaultConfig(), ignored: [] });
  });
});

describe('budgets in the config (SPEC §14)', () => {
  it('takes a daily cost cap only with prices to count it in, and never a negative token cap', () => {
    const base = defaultConfig();
    expect(() => applyConfigPatch(base, { limits: { deployment_daily_cost: 5 } })).toThrow(/needs pricing/);
    const priced = applyConfigPatch(base, {
      pricing: [{ model: 'm', promptPerMillion: 1, completionPerMillion: 2 }],
      limits: { deployment_daily_cost: 2.5 },
    });
    expect(priced.limits.deployment_daily_cost).toBe(2.5);
    expect(() => applyConfigPatch(base, { limits: { person_daily_tokens: -1 } })).toThrow(
      /limits.person_daily_tokens must be an integer between 0 and 1000000000/,
    );
    expect(applyConfigPatch(base, { access: { mode: 'allowlist' } }).access.mode).toBe('allowlist');
    expect(() => applyConfigPatch(base, { access: { mode: 'closed' } })).toThrow(
      /access.mode must be one of open, allowlist/,
    );
  });
});
