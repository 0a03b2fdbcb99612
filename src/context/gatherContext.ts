// The every-turn context (SPEC §5) as "read, then build": contextReads.ts fetches every part
// (in parallel where it can), the pure builders of contextParts.ts turn that plain data into the
// prompt, and the budget decides whether it may be sent. This file only sequences the two and
// names what a reply carries of its context.
import type { Agent, Message, ToneState } from '../domain/model.js';
import type { EffectiveConfig } from '../store/config.js';
import type { Story } from '../store/stories.js';
import type { RecallResult } from '../memory/recall.js';
import type { RetrievalResult } from '../knowledge/retrieval.js';
import type { BuiltContext } from './buildContext.js';
import type { DirectedContext } from './directorContext.js';
import { PromptTooLongError, type PromptWarning } from './promptBudget.js';
import { readContext, type ContextDeps, type ContextRequest } from './contextReads.js';
import { budgetWarnings, builtContextOf, gatheredOf, type ContextMode } from './contextParts.js';

/** What was built when the prompt was over the limit: the trace records it (seed 001). */
export type TooLongContext = Omit<GatheredContext, 'warnings'>;

/** The turn's prompt is over `limits.max_total_tokens` (thrown only by gatherContext, with its context). */
export const isPromptTooLong = (err: unknown): err is PromptTooLongError<TooLongContext> =>
  err instanceof PromptTooLongError;

export interface GatheredContext {
  built: BuiltContext;
  /** Budget warnings (recorded once per dialogue and category); the prompt is sent whole. */
  warnings: PromptWarning[];
  config: EffectiveConfig;
  agent: Agent;
  /** The chat's other agents (a room's members), whose @names a reply can call on. */
  otherAgents: Agent[];
  /** The human's display name, when the turn has a human. */
  userName?: string;
  /** The turn's own input, media prepared. */
  input: Message[];
  /** The raw history the prompt shows (since the rolling summary), oldest first. */
  rawHistory: Message[];
  recall?: RecallResult;
  /** The passages the prompt numbered [1]..[k] (what a reply may cite), when the agent has documents. */
  knowledge?: RetrievalResult;
  mode: ContextMode;
  /** Where the raw history came from: the working window, or the record when it reached further back. */
  historyFrom: 'window' | 'record';
  gatherMs: number;
  /** The background the dialogue follows and its plot state; `directed`: the director is on (seed 001). */
  story?: Story & { directed: boolean };
  /** The director's fallback reminder's beat and sources, when it was due. */
  fallback?: DirectedContext['fallback'];
  /** The human's tone after this turn's messages; stored once the reply is out (seed 003) when `changed`. */
  tone?: { humanId: string; state: ToneState; changed: boolean };
}

/** Throws GatewayError PROMPT_TOO_LONG when the prompt is over `limits.max_total_tokens`. */
export async function gatherContext(
  deps: ContextDeps,
  o: ContextRequest & { instruction?: string },
): Promise<GatheredContext> {
  const started = performance.now();
  const reads = await readContext(deps, o);
  const env = {
    turn: o.turn,
    dialogue: o.dialogue,
    session: o.record.session,
    now: o.now,
    timezone: deps.timezone,
    ...(o.instruction !== undefined ? { instruction: o.instruction } : {}),
  };
  const { built, tone } = builtContextOf(reads, env, deps.counter);
  const gathered = gatheredOf(reads, { built, tone, gatherMs: performance.now() - started });
  return { ...gathered, warnings: budgetWarnings(gathered) };
}
