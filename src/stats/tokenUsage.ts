// What counts as the model's token use (pure; the reads are in src/store/collectStats.ts and
// statsTimeline.ts). Every model call records its usage in one shape, `data.usage` of its
// `llm_call` event; self-reflection runs (no dialogue, so no events) keep theirs on the run
// (`budget.used`). Records of earlier versions kept extraction's usage under `data.tokens`:
// they are read here too, so old windows keep their totals.
import type { BudgetUse } from '../domain/reflection.js';

export const TOKEN_FIELDS = ['promptTokens', 'completionTokens', 'totalTokens'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];
export type TokenCounts = Record<TokenField, number>;

/** Where an llm_call event's usage is: this version's field first, then the earlier one. */
export const USAGE_PATHS = ['data.usage', 'data.tokens'] as const;

/** The task name self-reflection's calls are counted under. */
export const REFLECTION_TASK = 'reflection';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;

/** An llm_call event's usage (zeros when the call reported none). */
export function usageOf(data: Record<string, unknown> | undefined): TokenCounts {
  const u = obj(data?.usage) ?? obj(data?.tokens) ?? {};
  return {
    promptTokens: num(u.promptTokens),
    completionTokens: num(u.completionTokens),
    totalTokens: num(u.totalTokens),
  };
}

/** A reflection run's usage; runs of earlier versions kept only the total. */
export function runUsageOf(used: Partial<BudgetUse> | undefined): TokenCounts & { calls: number } {
  return {
    calls: num(used?.calls),
    promptTokens: num(used?.promptTokens),
    completionTokens: num(used?.completionTokens),
    totalTokens: num(used?.tokens),
  };
}
