import type OpenAI from 'openai';
import type { LlmClient } from './types.js';
import { ChatCompletionsClient } from './chatCompletions.js';
import { ResponsesClient } from './responses.js';

export function createLlmClient(api: 'chat' | 'responses', client: OpenAI): LlmClient {
  return api === 'responses' ? new ResponsesClient(client) : new ChatCompletionsClient(client);
}
