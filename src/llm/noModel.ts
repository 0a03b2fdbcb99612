// A deployment with no model configured (no key, no endpoint of its own) answers every turn
// with a plain notice naming the two settings, instead of calling a service that cannot answer.
import { GatewayError } from '../errors.js';
import { LlmFailure, type CompletionResult, type LlmClient } from './types.js';

export const NO_MODEL_MESSAGE = 'no model is configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local server';

/** Whether the settings name a model service: a key, or an endpoint other than OpenAI's own. */
export const modelConfigured = (o: { apiKey?: string | undefined; baseUrl: string; defaultBaseUrl: string }) =>
  Boolean(o.apiKey) || o.baseUrl.replace(/\/+$/, '') !== o.defaultBaseUrl;

export class NoModelClient implements LlmClient {
  readonly api = 'chat' as const;

  complete(): Promise<CompletionResult> {
    return Promise.reject(
      new LlmFailure(new GatewayError('MODEL_NOT_CONFIGURED', NO_MODEL_MESSAGE), { text: '', durationMs: 0 }),
    );
  }
}
