// The model providers as this deployment configures them (SPEC §14): the primary (OPENAI_BASE_URL,
// OPENAI_API_KEY, the request's model), then LLM_FALLBACKS in order, each with its own client and
// model; vision's own server when VISION_BASE_URL or VISION_API_KEY is set; transcription's.
// Replies and background tasks share one chain per process, so a provider resting after a
// failure rests for both.
import OpenAI from 'openai';
import { DEFAULT_OPENAI_BASE_URL, firstTokenTimeoutMs, type Env } from '../src/config/env.js';
import { createLlmClient } from '../src/llm/createClient.js';
import { openAiShapedErrors } from '../src/llm/errorBodies.js';
import { modelConfigured } from '../src/llm/noModel.js';
import { hostOf, LlmProvider, type ProviderObserver, type ProviderSpec } from '../src/llm/provider.js';
import { ProviderChain } from '../src/llm/providerChain.js';

export interface ModelRoutes {
  /** Replies and background tasks; undefined when no model is configured at all. */
  chat: ProviderChain | undefined;
  /** Image descriptions: vision's server (or the primary's) with VISION_MODEL, then the fallbacks. */
  vision: ProviderChain;
  /** Transcription's client (TRANSCRIBE_BASE_URL / TRANSCRIBE_API_KEY, else the chat server's). */
  transcription: OpenAI;
}

/** Local servers take any key; the client library insists on one. */
const clientFor = (baseURL: string, apiKey: string | undefined): OpenAI =>
  new OpenAI({ apiKey: apiKey || 'no-key', baseURL, fetch: openAiShapedErrors() });

interface Configured extends ProviderSpec {
  apiKey?: string;
  api: 'chat' | 'responses';
}

/** The chat chain's providers as configured (the primary only when it names a service). */
function chatSpecs(env: Env): Configured[] {
  const primary = modelConfigured({
    apiKey: env.OPENAI_API_KEY,
    baseUrl: env.OPENAI_BASE_URL,
    defaultBaseUrl: DEFAULT_OPENAI_BASE_URL,
  });
  const fallbacks = env.LLM_FALLBACKS.map((f, i): Configured => ({
    id: `fallback-${i + 1}`,
    baseUrl: f.baseUrl,
    model: f.model,
    ...(f.apiKey ? { apiKey: f.apiKey } : {}),
    // OpenAI-compatible servers other than OpenAI's speak Chat Completions.
    api: 'chat',
  }));
  const own: Configured = {
    id: 'primary',
    baseUrl: env.OPENAI_BASE_URL,
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    api: env.LLM_API,
  };
  return [...(primary ? [own] : []), ...fallbacks];
}

/** Vision has a server of its own when either of its settings is given. */
const ownVision = (env: Env): boolean => env.VISION_BASE_URL !== undefined || env.VISION_API_KEY !== undefined;

/** Every provider with its health label (host and model), for the health page of any process. */
export function providerList(env: Env): Array<{ id: string; label: string }> {
  const list = chatSpecs(env).map((s) => ({ id: s.id, label: `${hostOf(s.baseUrl)} ${s.model ?? env.LLM_MODEL}` }));
  if (ownVision(env))
    list.push({ id: 'vision', label: `${hostOf(env.VISION_BASE_URL ?? env.OPENAI_BASE_URL)} ${env.VISION_MODEL}` });
  return list;
}

export function buildModelRoutes(env: Env, observer?: ProviderObserver): ModelRoutes {
  const make = (s: Configured): LlmProvider => {
    const openai = clientFor(s.baseUrl, s.apiKey);
    return new LlmProvider(s, openai, createLlmClient(s.api, openai), observer);
  };
  const chatProviders = chatSpecs(env).map(make);
  const options = { cooldownMs: env.LLM_FALLBACK_COOLDOWN_MS, firstTokenTimeoutMs: firstTokenTimeoutMs(env) };
  const fallbacks = chatProviders.filter((p) => p.id !== 'primary');
  const primary = chatProviders.find((p) => p.id === 'primary');
  const visionApiKey = env.VISION_API_KEY ?? env.OPENAI_API_KEY;
  const visionProvider = ownVision(env)
    ? make({
        id: 'vision',
        baseUrl: env.VISION_BASE_URL ?? env.OPENAI_BASE_URL,
        model: env.VISION_MODEL,
        ...(visionApiKey ? { apiKey: visionApiKey } : {}),
        api: 'chat',
      })
    : (primary ?? make({ id: 'primary', baseUrl: env.OPENAI_BASE_URL, api: 'chat' }));
  const transcribeKey = env.TRANSCRIBE_API_KEY ?? env.OPENAI_API_KEY;
  return {
    chat:
      chatProviders.length > 0
        ? new ProviderChain(
            chatProviders.map((provider) => ({ provider })),
            options,
          )
        : undefined,
    vision: new ProviderChain(
      [{ provider: visionProvider, model: env.VISION_MODEL }, ...fallbacks.map((provider) => ({ provider }))],
      options,
    ),
    transcription: clientFor(env.TRANSCRIBE_BASE_URL ?? env.OPENAI_BASE_URL, transcribeKey),
  };
}
