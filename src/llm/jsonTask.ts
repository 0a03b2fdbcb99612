// Background LLM tasks (memory extraction, summaries, consolidation, persona evolution): one
// call in JSON mode whose output is validated with zod like any other boundary. The first line
// of the system prompt names the task (`TASK: <name>`) so traces and logs can tell them apart.
import type { z } from 'zod';
import { GatewayError } from '../errors.js';
import { LlmFailure, type LlmClient, type Usage } from './types.js';
import { routeData, type ProviderSkip } from './route.js';

export const JSON_TASKS = [
  'extract_memories',
  'reconcile_memories',
  'rolling_summary',
  'summarize_session',
  'evolve_persona',
  'relationship_note',
  'consolidate_memories',
  // Self-reflection's steps (src/reflection/reflectionPrompts.ts).
  'reflect_summarize_human',
  'reflect_evaluate_persona',
  'reflect_adjust_values',
  'reflect_write_report',
] as const;
export type JsonTaskName = (typeof JSON_TASKS)[number];

export interface JsonTaskRequest<T> {
  task: JsonTaskName;
  model: string;
  /** Instructions after the task line; must describe the JSON shape expected. */
  instructions: string;
  /** The material to work on (conversation, memories…). */
  input: string;
  schema: z.ZodType<T>;
  timeoutMs: number;
}

export interface JsonTaskResult<T> {
  value: T;
  usage?: Usage;
  durationMs: number;
  /** The provider that answered and those passed over (the provider chain's calls), for the trace. */
  provider?: string;
  providersSkipped?: ProviderSkip[];
}

/** Runs the task; a model that answers with invalid JSON gets one more try before it fails. */
export async function runJsonTask<T>(llm: LlmClient, req: JsonTaskRequest<T>): Promise<JsonTaskResult<T>> {
  let lastProblem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const signal = AbortSignal.timeout(req.timeoutMs);
    let result;
    try {
      result = await llm.complete({
        model: req.model,
        json: true,
        signal,
        onDelta: () => {},
        messages: [
          { role: 'system', content: `TASK: ${req.task}\n${req.instructions}` },
          { role: 'user', content: req.input },
        ],
      });
    } catch (err) {
      if (err instanceof LlmFailure) throw err.error;
      throw err;
    }
    const parsed = parseJsonObject(result.text);
    const checked = parsed === undefined ? undefined : req.schema.safeParse(parsed);
    if (checked?.success)
      return {
        value: checked.data,
        ...(result.usage ? { usage: result.usage } : {}),
        durationMs: result.durationMs,
        ...routeData(result),
      };
    lastProblem = parsed === undefined ? 'not JSON' : (checked?.error.issues[0]?.message ?? 'wrong shape');
  }
  throw new GatewayError('LLM_SERVICE_ERROR', `${req.task}: the model returned unusable output (${lastProblem})`);
}

/** Accepts a bare object or one wrapped in a ```json fence, as models sometimes do. */
function parseJsonObject(text: string): unknown {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```\s*$/, '');
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
