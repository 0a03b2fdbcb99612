// An LlmClient that reports every call to the metrics: its outcome (ok or the failure's code),
// tokens in and out, and time to first token, by kind (a reply or a background task). Wrapping
// the port counts every caller (tool loop, extraction, summaries…) without touching them.
import { LlmFailure, type CompletionRequest, type CompletionResult, type LlmClient } from '../llm/types.js';
import type { LlmKind, Metrics } from './metrics.js';

export function meteredLlm(inner: LlmClient, metrics: Metrics, kind: LlmKind): LlmClient {
  return {
    api: inner.api,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      try {
        const r = await inner.complete(req);
        metrics.llmCall(kind, 'ok', {
          ...(r.ttftMs !== undefined ? { ttftMs: r.ttftMs } : {}),
          ...(r.usage ? { inputTokens: r.usage.promptTokens, outputTokens: r.usage.completionTokens } : {}),
        });
        return r;
      } catch (err) {
        const code = err instanceof LlmFailure ? err.error.code : 'unknown';
        const ttftMs = err instanceof LlmFailure ? err.partial.ttftMs : undefined;
        metrics.llmCall(kind, code, ttftMs !== undefined ? { ttftMs } : {});
        throw err;
      }
    },
  };
}
