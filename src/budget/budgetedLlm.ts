// An LlmClient that keeps the budgets (SPEC §14) for every call made under a payer
// (payer.ts): past a cap the call is not made — it fails as BUDGET_EXCEEDED before any request
// leaves — and what a call used is added to the payer's counters, counted from the messages
// when the server reports no usage. A call outside any payer (persona evolution, consolidation,
// reflection) is the deployment's own: counted and checked against its daily cost only.
import type { Logger } from 'pino';
import { GatewayError } from '../errors.js';
import { LlmFailure, type CompletionRequest, type CompletionResult, type LlmClient } from '../llm/types.js';
import type { TokenCounter } from '../llm/tokens.js';
import { currentPayer } from './payer.js';
import type { BudgetGate } from './budgetGate.js';

export interface BudgetedLlmDeps {
  gate: BudgetGate;
  counter: TokenCounter;
  log: Logger;
  now?: () => Date;
}

export function budgetedLlm(inner: LlmClient, deps: BudgetedLlmDeps): LlmClient {
  const now = deps.now ?? (() => new Date());
  return {
    api: inner.api,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const payer = currentPayer() ?? {};
      const verdict = await deps.gate.check(payer, now());
      if (!verdict.ok) {
        const error = new GatewayError('BUDGET_EXCEEDED', `the ${verdict.cap} budget of ${verdict.day} is spent`);
        throw new LlmFailure(error, { text: '', durationMs: 0 });
      }
      const result = await inner.complete(req);
      const inputTokens = result.usage?.promptTokens ?? deps.counter.countMessages(req.messages);
      const outputTokens = result.usage?.completionTokens ?? deps.counter.count(result.text);
      // The reply is already made: a counter that cannot be written is logged, not the reply's failure.
      await deps.gate.record(payer, { model: req.model, inputTokens, outputTokens }, now()).catch((err: unknown) => {
        deps.log.warn({ err, payer }, 'spend of a model call not recorded');
      });
      return result;
    },
  };
}
