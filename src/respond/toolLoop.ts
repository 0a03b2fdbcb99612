// The bounded tool loop (SPEC §6): call the model; if it asks for tools, run them in parallel,
// hand back their results (errors included) and call again — at most `maxRounds` times, then
// once more without tools so the model must answer in words. An answer cut at the output limit
// ends the loop: it is the reply as far as it got, and tool calls it was writing are not run.
import { LlmFailure, type LlmClient, type LlmMessage, type ToolCall, type Usage } from '../llm/types.js';
import { routeData } from '../llm/route.js';
import type { ToolContext, ToolRegistry } from '../tools/registry.js';
import type { TurnTrace } from '../trace/turnTrace.js';

export interface ToolLoopInput {
  llm: LlmClient;
  model: string;
  messages: LlmMessage[];
  registry: ToolRegistry;
  toolContext: Omit<ToolContext, 'signal'>;
  maxRounds: number;
  /** Longest answer per call, in tokens (the agent's own, else config `limits.max_reply_tokens`); absent: the server's limit. */
  maxOutputTokens?: number;
  /** Sampling temperature of every call (the agent's own); absent: none sent. */
  temperature?: number;
  signal: AbortSignal;
  onDelta(delta: string): void;
  /** A call's response began (CompletionRequest.onOpen). */
  onOpen?: () => void;
  trace: TurnTrace;
  /** Id of the context_built event: every LLM call references its prompt. */
  contextEventId: string;
  /** Checked after each tool round: true ends the reply there (a room agent that skipped). */
  done?: () => boolean;
}

export interface ToolLoopResult {
  /** Everything the model said, across rounds, as the user saw it stream. */
  text: string;
  llmCalls: number;
  toolCalls: number;
  /** Tokens of every call, as the model reported them; absent when it reported none. */
  usage?: { inputTokens: number; outputTokens: number };
}

type Spent = ToolLoopResult['usage'];
const addUsage = (sum: Spent, u: Usage | undefined): Spent =>
  u
    ? {
        inputTokens: (sum?.inputTokens ?? 0) + u.promptTokens,
        outputTokens: (sum?.outputTokens ?? 0) + u.completionTokens,
      }
    : sum;

export async function runToolLoop(o: ToolLoopInput): Promise<ToolLoopResult> {
  const messages = [...o.messages];
  const appended: LlmMessage[] = [];
  let text = '';
  let toolCalls = 0;
  let usage: Spent;
  for (let round = 1; ; round++) {
    const toolsAllowed = round <= o.maxRounds && o.registry.size > 0;
    let result;
    try {
      result = await o.llm.complete({
        model: o.model,
        messages,
        ...(toolsAllowed ? { tools: o.registry.specs() } : {}),
        ...(o.maxOutputTokens ? { maxOutputTokens: o.maxOutputTokens } : {}),
        ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
        signal: o.signal,
        ...(o.onOpen ? { onOpen: o.onOpen } : {}),
        onDelta: (d) => {
          text += d;
          o.onDelta(d);
        },
      });
    } catch (err) {
      await o.trace.record(
        'llm_call',
        llmCallData(o, round, appended, {
          error: err instanceof Error ? err.message : String(err),
          // The stable code, so the health page tells a timeout from other failures.
          errorCode: err instanceof LlmFailure ? err.error.code : null,
          partial: text,
          // Which provider failed last and which were passed over (the provider chain).
          ...routeData(err instanceof LlmFailure ? err.route : undefined),
        }),
      );
      throw err;
    }
    await o.trace.record(
      'llm_call',
      llmCallData(o, round, appended, {
        output: result.text,
        toolCalls: result.toolCalls,
        finishReason: result.finishReason,
        truncated: result.truncated === true,
        usage: result.usage ?? null,
        ttftMs: result.ttftMs ?? null,
        durationMs: result.durationMs,
        error: null,
        // Which provider answered, which were passed over and why, and whether tools were left out.
        ...routeData(result),
        ...(result.toolsOmitted ? { toolsOmitted: true } : {}),
      }),
    );
    usage = addUsage(usage, result.usage);
    const spent = usage ? { usage } : {};
    if (result.toolCalls.length === 0 || !toolsAllowed || result.truncated)
      return { text, llmCalls: round, toolCalls, ...spent };

    const assistant: LlmMessage = {
      role: 'assistant',
      content: result.text || null,
      tool_calls: result.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
    const outcomes = await Promise.all(result.toolCalls.map((call) => runOne(o, round, call)));
    const results: LlmMessage[] = outcomes.map(({ call, content }) => ({
      role: 'tool',
      tool_call_id: call.id,
      content,
    }));
    toolCalls += outcomes.length;
    messages.push(assistant, ...results);
    appended.push(assistant, ...results);
    if (o.signal.aborted || o.done?.()) return { text, llmCalls: round, toolCalls, ...spent };
  }
}

async function runOne(o: ToolLoopInput, round: number, call: ToolCall): Promise<{ call: ToolCall; content: string }> {
  const outcome = await o.registry.execute(call, { ...o.toolContext, signal: o.signal });
  await o.trace.record('tool_call', {
    round,
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
    ok: outcome.ok,
    result: outcome.ok ? outcome.result : null,
    error: outcome.ok ? null : outcome.error,
    durationMs: outcome.durationMs,
  });
  const content = JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error });
  return { call, content };
}

function llmCallData(
  o: ToolLoopInput,
  round: number,
  appended: LlmMessage[],
  rest: Record<string, unknown>,
): Record<string, unknown> {
  return {
    api: o.llm.api,
    model: o.model,
    round,
    maxOutputTokens: o.maxOutputTokens ?? null,
    temperature: o.temperature ?? null,
    // The prompt is the context build plus what the tool rounds appended to it.
    promptRef: { contextEventId: o.contextEventId, appended: [...appended] },
    ...rest,
  };
}
