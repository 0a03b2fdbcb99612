import { describe, expect, it } from 'vitest';
import {
  applyModelSettingsPatch,
  effectiveModelSettings,
  MAX_OUTPUT_TOKENS_RANGE,
  modelSettingsPatchSchema,
} from '../../src/domain/agentModel.js';
import { CONFIG_FIELDS } from '../../src/domain/config.js';

const DEPLOYMENT = { name: 'gpt-4o-mini', maxOutputTokens: 2_000 };

describe('effective model settings of an agent', () => {
  it("is the deployment's when the agent has none", () => {
    expect(effectiveModelSettings(DEPLOYMENT, {})).toEqual(DEPLOYMENT);
    expect(effectiveModelSettings(DEPLOYMENT, undefined)).toEqual(DEPLOYMENT);
    // No temperature of the deployment's: none is sent (the key is absent, not undefined).
    expect('temperature' in effectiveModelSettings(DEPLOYMENT, {})).toBe(false);
  });

  it('takes each of the agent’s own settings, the deployment’s for the rest', () => {
    expect(effectiveModelSettings(DEPLOYMENT, { modelSettings: { name: 'llama3.1:8b' } })).toEqual({
      name: 'llama3.1:8b',
      maxOutputTokens: 2_000,
    });
    expect(effectiveModelSettings(DEPLOYMENT, { modelSettings: { temperature: 0, maxOutputTokens: 64 } })).toEqual({
      name: 'gpt-4o-mini',
      temperature: 0,
      maxOutputTokens: 64,
    });
    expect(effectiveModelSettings({ ...DEPLOYMENT, temperature: 1 }, { modelSettings: { temperature: 0.3 } })).toEqual({
      ...DEPLOYMENT,
      temperature: 0.3,
    });
  });
});

describe('a change of an agent’s model settings', () => {
  it('sets given settings, clears those set to null, keeps those left out', () => {
    const current = { name: 'gpt-4o', temperature: 0.7, maxOutputTokens: 500 };
    expect(applyModelSettingsPatch(current, { temperature: 1.2 })).toEqual({ ...current, temperature: 1.2 });
    expect(applyModelSettingsPatch(current, { name: null, maxOutputTokens: 800 })).toEqual({
      temperature: 0.7,
      maxOutputTokens: 800,
    });
    expect(applyModelSettingsPatch(undefined, { name: 'gpt-4o' })).toEqual({ name: 'gpt-4o' });
  });

  it('leaves nothing when every setting is cleared (the agent answers as the deployment does)', () => {
    expect(applyModelSettingsPatch({ name: 'x' }, { name: null, temperature: null })).toBeUndefined();
    expect(applyModelSettingsPatch(undefined, {})).toBeUndefined();
  });
});

describe('validation of model settings', () => {
  const ok = (v: unknown) => modelSettingsPatchSchema.safeParse(v).success;
  const problem = (v: unknown) => {
    const r = modelSettingsPatchSchema.safeParse(v);
    if (r.success) throw new Error('expected a problem');
    return r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };

  it('accepts provider model names, temperatures 0–2 and the range of max_reply_tokens', () => {
    for (const name of ['gpt-4o-mini', 'openai/gpt-4o', 'llama3.1:8b', 'claude-3-5-sonnet@20240620', 'a'])
      expect(ok({ name })).toBe(true);
    expect(ok({ temperature: 0 })).toBe(true);
    expect(ok({ temperature: 2 })).toBe(true);
    expect(ok({ maxOutputTokens: CONFIG_FIELDS.limits.max_reply_tokens.min })).toBe(true);
    expect(ok({ maxOutputTokens: CONFIG_FIELDS.limits.max_reply_tokens.max })).toBe(true);
    expect(ok({ name: null, temperature: null, maxOutputTokens: null })).toBe(true);
    expect(modelSettingsPatchSchema.parse({ name: '  gpt-4o ' })).toEqual({ name: 'gpt-4o' });
  });

  it('refuses out-of-range or malformed settings, naming the field and its range', () => {
    expect(problem({ temperature: 2.5 })).toBe('temperature: must be a number between 0 and 2');
    expect(problem({ temperature: -0.1 })).toContain('temperature');
    expect(problem({ maxOutputTokens: MAX_OUTPUT_TOKENS_RANGE.max + 1 })).toBe(
      `maxOutputTokens: must be an integer between ${MAX_OUTPUT_TOKENS_RANGE.min} and ${MAX_OUTPUT_TOKENS_RANGE.max}`,
    );
    expect(problem({ maxOutputTokens: 100.5 })).toContain('maxOutputTokens');
    expect(problem({ name: '' })).toContain('name: must be a model name');
    expect(problem({ name: 'x'.repeat(101) })).toContain('name: must be a model name');
    expect(problem({ name: 'gpt 4o' })).toContain('name: must be a model name');
    expect(problem({ name: '-rm' })).toContain('name');
    expect(problem({ top_p: 1 })).toBeTruthy();
  });
});
