// The Responses API, streaming and stateless (store: false, no previous_response_id): the
// whole conversation is sent each call, converted from Chat Completions messages.
import type OpenAI from 'openai';
import type { ResponseInputItem, FunctionTool } from 'openai/resources/responses/responses';
import {
  type CompletionRequest,
  type CompletionResult,
  type LlmClient,
  type LlmMessage,
  type ToolCall,
  type Usage,
} from './types.js';
import { StreamProgress } from './streamProgress.js';

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((p: unknown) =>
            typeof p === 'object' && p !== null && 'text' in p && typeof p.text === 'string' ? p.text : '',
          )
          .join('')
      : '';

export function toResponsesInput(messages: LlmMessage[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
      case 'developer':
      case 'user':
        items.push({ role: m.role, content: textOf(m.content) });
        break;
      case 'assistant': {
        const text = textOf(m.content);
        if (text) items.push({ role: 'assistant', content: text });
        for (const c of m.tool_calls ?? []) {
          if (c.type === 'function')
            items.push({
              type: 'function_call',
              call_id: c.id,
              name: c.function.name,
              arguments: c.function.arguments,
            });
        }
        break;
      }
      case 'tool':
        items.push({ type: 'function_call_output', call_id: m.tool_call_id, output: textOf(m.content) });
        break;
      default:
        break;
    }
  }
  return items;
}

export class ResponsesClient implements LlmClient {
  readonly api = 'responses' as const;
  constructor(private readonly client: OpenAI) {}

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const got = new StreamProgress(() => req.onFirstToken?.());
    let usage: Usage | undefined;
    let status: string | null = null;
    let truncated = false;
    const toolCalls: ToolCall[] = [];
    const tools: FunctionTool[] | undefined = req.tools?.length
      ? req.tools.map((t) => ({
          type: 'function',
          name: t.name,
          description: t.description,
          parameters: t.parameters,
          strict: false,
        }))
      : undefined;
    try {
      const stream = await this.client.responses.create(
        {
          model: req.model,
          input: toResponsesInput(req.messages),
          stream: true,
          store: false,
          ...(tools ? { tools } : {}),
          ...(req.json ? { text: { format: { type: 'json_object' as const } } } : {}),
          ...(req.maxOutputTokens ? { max_output_tokens: req.maxOutputTokens } : {}),
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        },
        { signal: req.signal, maxRetries: 0 },
      );
      req.onOpen?.();
      for await (const event of stream) {
        switch (event.type) {
          case 'response.output_text.delta':
            got.append(event.delta);
            req.onDelta(event.delta);
            break;
          case 'response.function_call_arguments.delta':
            got.token();
            break;
          case 'response.output_item.done':
            if (event.item.type === 'function_call') {
              toolCalls.push({ id: event.item.call_id, name: event.item.name, arguments: event.item.arguments });
            }
            break;
          case 'response.completed':
          case 'response.incomplete':
            status = event.response.status ?? event.type;
            truncated = event.response.incomplete_details?.reason === 'max_output_tokens';
            if (event.response.usage) {
              const u = event.response.usage;
              usage = { promptTokens: u.input_tokens, completionTokens: u.output_tokens, totalTokens: u.total_tokens };
            }
            break;
          case 'response.failed':
            throw new Error(`response failed: ${event.response.error?.message ?? 'unknown error'}`);
          case 'error':
            throw new Error(`stream error: ${event.message}`);
          default:
            break;
        }
      }
    } catch (err) {
      throw got.failed(err, req.signal);
    }
    got.throwIfAborted(req.signal);
    if (status === null) throw got.brokeOff('the LLM stream ended before the response completed');
    const { text, ttftMs } = got;
    return { text, toolCalls, finishReason: status, truncated, usage, ttftMs, durationMs: got.elapsedMs() };
  }
}
