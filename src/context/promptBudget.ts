// Seed 001's prompt boundaries: over `max_total_tokens` the turn stops with a clear error that
// says what to do; over `middle_section_warning_tokens` the prompt is sent whole and a warning
// is raised (the caller records it, deduplicated by category). Never truncates. Pure.
import { GatewayError } from '../errors.js';

export interface PromptLimits {
  maxTotalTokens: number;
  middleSectionWarningTokens: number;
}

export interface PromptWarning {
  category: 'middle_section_overflow' | 'conversation_over_limit';
  currentValue: number;
  threshold: number;
  suggestion: string;
}

/** The prompt is over `limits.max_total_tokens`, with what was built (for the trace). */
export class PromptTooLongError<Built = unknown> extends GatewayError {
  constructor(
    readonly tokens: number,
    readonly limit: number,
    readonly context: Built,
  ) {
    super(
      'PROMPT_TOO_LONG',
      `The prompt is ${tokens} tokens, over the limit of ${limit}. Summarise the conversation (/summary) or raise limits.max_total_tokens.`,
    );
  }
}

/** The middle-section warning alone (no throw), or undefined when within the threshold. */
export function middleSectionWarning(
  middleTokens: number,
  limits: Pick<PromptLimits, 'middleSectionWarningTokens'>,
): PromptWarning | undefined {
  if (middleTokens <= limits.middleSectionWarningTokens) return undefined;
  return {
    category: 'middle_section_overflow',
    currentValue: middleTokens,
    threshold: limits.middleSectionWarningTokens,
    suggestion:
      'The conversation history is long: summarise it (/summary) or raise limits.middle_section_warning_tokens.',
  };
}

/**
 * Whole-session mode (seed 001 `conversation_max_tokens`, the conversation file's size): past it
 * the session is still sent whole, and the operator is warned that a summary is due.
 */
export function conversationWarning(historyTokens: number, limit: number): PromptWarning | undefined {
  if (historyTokens <= limit) return undefined;
  return {
    category: 'conversation_over_limit',
    currentValue: historyTokens,
    threshold: limit,
    suggestion:
      'The session sent whole is over limits.conversation_max_tokens: summarise it (/summary) or switch conversation_load_all off.',
  };
}

/**
 * Throws PromptTooLongError (PROMPT_TOO_LONG, both numbers in the message) when the prompt is
 * over the limit; returns the middle-section warning when that part is over its threshold.
 */
export function checkPromptBudget<Built>(
  built: { totalTokens: number; middleTokens: number },
  limits: PromptLimits,
  context: Built,
): PromptWarning | undefined {
  if (built.totalTokens > limits.maxTotalTokens)
    throw new PromptTooLongError(built.totalTokens, limits.maxTotalTokens, context);
  return middleSectionWarning(built.middleTokens, limits);
}
