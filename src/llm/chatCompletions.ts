// Chat Completions, streaming, with tool calls accumulated from their deltas.
import type OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { type CompletionRequest, type CompletionResult, type LlmClient, type ToolCall, type Usage } from './types.js';
import { StreamProgress } from './streamProgress.js';

export class ChatCompletionsClient implements LlmClient {
  readonly api = 'chat' as const;
  constructor(private readonly client: OpenAI) {}

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const got = new StreamProgress(() => req.onFirstToken?.());
    let finishReason: string | null = null;
    let usage: Usage | undefined;
    const calls = new Map<number, ToolCall>();
    const tools: ChatCompletionTool[] | undefined = req.tools?.length
      ? req.tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.parameters },
        }))
      : undefined;
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: req.model,
          messages: req.messages,
          stream: true,
          stream_options: { include_usage: true },
          ...(tools ? { tools } : {}),
          ...(req.json ? { response_format: { type: 'json_object' as const } } : {}),
          // Deprecated by OpenAI (o-series models want max_completion_tokens); compatible servers read this one.
          ...(req.maxOutputTokens ? { max_tokens: req.maxOutputTokens } : {}),
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        },
        { signal: req.signal, maxRetries: 0 },
      );
      req.onOpen?.();
      for await (const chunk of stream) {
        if (chunk.usage) {
          usage = {
            promptTokens: chunk.usage.prompt_tokens,
            completionTokens: chunk.usage.completion_tokens,
            totalTokens: chunk.usage.total_tokens,
          };
        }
        const choice = chunk.choices[0];
        if (!choice) continue;
        if (choice.finish_reason) finishReason = choice.finish_reason;
        for (const d of choice.delta?.tool_calls ?? []) {
          got.token();
          const call = calls.get(d.index) ?? { id: '', name: '', arguments: '' };
          if (d.id) call.id = d.id;
          if (d.function?.name) call.name += d.function.name;
          if (d.function?.arguments) call.arguments += d.function.arguments;
          calls.set(d.index, call);
        }
        const delta = choice.delta?.content;
        if (delta) {
          got.append(delta);
          req.onDelta(delta);
        }
      }
    } catch (err) {
      throw got.failed(err, req.signal);
    }
    got.throwIfAborted(req.signal);
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
    if (finishReason === null && toolCalls.length === 0 && got.text.length > 0) {
      // The stream ended without a finish reason.
      throw got.brokeOff('the LLM stream ended before the reply was finished');
    }
    const truncated = finishReason === 'length';
    const { text, ttftMs } = got;
    return { text, toolCalls, finishReason, truncated, usage, ttftMs, durationMs: got.elapsedMs() };
  }
}
