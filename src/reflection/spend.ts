// A run's budget at its I/O edge: every model call of a run (its steps' and the memory
// reconcile's) goes through `call`, which refuses a call whose prompt no longer fits, charges
// what the call spent (the model's reported usage, else counted with the real tokenizer) and
// stores the running total on the run; memory writes are charged all or none per step. A hit
// throws BudgetStop: the runner records it on the turn and the run, and stops (never truncates).
import type { z } from 'zod';
import { TokenCounter, MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from '../llm/tokens.js';
import {
  chargeCall,
  checkBeforeCall,
  checkMemories,
  type BudgetHit,
  type BudgetUse,
  type PlannedStep,
  type ReflectionRun,
} from '../domain/reflection.js';
import { runJsonTask, type JsonTaskName } from '../llm/jsonTask.js';
import type { RunDeps } from './deps.js';

export class BudgetStop extends Error {
  constructor(readonly hit: BudgetHit) {
    super(
      `budget reached: ${hit.resource} limit ${hit.limit}, ${hit.used} used, ${hit.wanted} more wanted by step ${hit.seq} (${hit.step}, ${hit.when})`,
    );
    this.name = 'BudgetStop';
  }
}

export interface CallRequest<T> {
  task: JsonTaskName;
  instructions: string;
  input: string;
  schema: z.ZodType<T>;
}

type Where = Pick<PlannedStep, 'seq' | 'step'>;

export class Spender {
  private counter = new TokenCounter(500);
  used: BudgetUse;

  constructor(
    private readonly deps: Pick<RunDeps, 'store' | 'llm' | 'model' | 'timeoutMs'>,
    private readonly run: Pick<ReflectionRun, '_id' | 'budget'>,
    private readonly now: () => Date,
  ) {
    this.used = { ...run.budget.used };
  }

  private get limits() {
    return this.run.budget.limits;
  }

  /** Tokens of the request as sent: system and user messages and the reply's priming. */
  estimatePrompt(instructions: string, input: string, task: string): number {
    return (
      this.counter.count(`TASK: ${task}\n${instructions}`) +
      this.counter.count(input) +
      2 * MESSAGE_OVERHEAD_TOKENS +
      REPLY_PRIMING_TOKENS
    );
  }

  /** One model call within the budget; returns its validated answer and the tokens it cost. */
  async call<T>(req: CallRequest<T>, at: Where): Promise<{ value: T; tokens: number }> {
    const prompt = this.estimatePrompt(req.instructions, req.input, req.task);
    const before = checkBeforeCall(this.limits, this.used, prompt, at);
    if (before) throw new BudgetStop(before);
    const r = await runJsonTask(this.deps.llm, {
      task: req.task,
      model: this.deps.model,
      instructions: req.instructions,
      input: req.input,
      schema: req.schema,
      timeoutMs: this.deps.timeoutMs,
    });
    const answer = r.usage ? 0 : this.counter.count(JSON.stringify(r.value));
    const tokens = r.usage?.totalTokens ?? prompt + answer;
    const charged = chargeCall(this.limits, this.used, tokens, at);
    // The split too, so the stats count a run's tokens like every other call's.
    this.used = {
      ...charged.used,
      promptTokens: (this.used.promptTokens ?? 0) + (r.usage?.promptTokens ?? prompt),
      completionTokens: (this.used.completionTokens ?? 0) + (r.usage?.completionTokens ?? answer),
    };
    await this.deps.store.reflections.setUsed(this.run, this.used, this.now());
    if (charged.hit) throw new BudgetStop(charged.hit);
    return { value: r.value, tokens };
  }

  /** Throws before a write of `n` memories that would pass the limit. */
  checkMemories(n: number, at: Where): void {
    const hit = checkMemories(this.limits, this.used, n, at);
    if (hit) throw new BudgetStop(hit);
  }

  async chargeMemories(n: number): Promise<void> {
    this.used = { ...this.used, memories: this.used.memories + n };
    await this.deps.store.reflections.setUsed(this.run, this.used, this.now());
  }
}
