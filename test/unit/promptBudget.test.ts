import { describe, expect, it } from 'vitest';
import { checkPromptBudget, conversationWarning, middleSectionWarning } from '../../src/context/promptBudget.js';
import { isGatewayError } from '../../src/errors.js';

const limits = { maxTotalTokens: 100_000, middleSectionWarningTokens: 20_000 };

describe('checkPromptBudget (seed 001 boundaries)', () => {
  it('throws PROMPT_TOO_LONG with the actual size and the limit, suggesting a summary', () => {
    let caught: unknown;
    try {
      checkPromptBudget({ totalTokens: 123_456, middleTokens: 5_000 }, limits, null);
    } catch (err) {
      caught = err;
    }
    expect(isGatewayError(caught) && caught.code).toBe('PROMPT_TOO_LONG');
    expect((caught as Error).message).toBe(
      'The prompt is 123456 tokens, over the limit of 100000. Summarise the conversation (/summary) or raise limits.max_total_tokens.',
    );
  });

  it('accepts a prompt exactly at the limit', () => {
    expect(checkPromptBudget({ totalTokens: 100_000, middleTokens: 20_000 }, limits, null)).toBeUndefined();
  });

  it('returns a middle-section warning (with both numbers) instead of truncating', () => {
    const warning = checkPromptBudget({ totalTokens: 30_000, middleTokens: 25_000 }, limits, null);
    expect(warning).toMatchObject({ category: 'middle_section_overflow', currentValue: 25_000, threshold: 20_000 });
    expect(warning?.suggestion).toContain('/summary');
  });

  it('throws for the total even when the middle is also over (the error wins)', () => {
    expect(() => checkPromptBudget({ totalTokens: 100_001, middleTokens: 90_000 }, limits, null)).toThrow(
      /100001 tokens, over the limit of 100000/,
    );
  });

  it('has no warning at or under the middle threshold', () => {
    expect(middleSectionWarning(20_000, limits)).toBeUndefined();
    expect(middleSectionWarning(20_001, limits)?.currentValue).toBe(20_001);
  });

  it('warns when a whole session sent to the model is over conversation_max_tokens', () => {
    expect(conversationWarning(100_000, 100_000)).toBeUndefined();
    expect(conversationWarning(100_001, 100_000)).toMatchObject({
      category: 'conversation_over_limit',
      currentValue: 100_001,
      threshold: 100_000,
    });
  });
});
