// Moderation's composition (SPEC §14): the keyword list is always read from the config; the
// `/moderations` endpoint joins only when MODERATION_BASE_URL is set, through its own `openai`
// client (its own server and key, one quick retry, bounded by MODERATION_TIMEOUT_MS).
import OpenAI from 'openai';
import type { Env } from '../src/config/env.js';
import type { Logger } from '../src/log.js';
import type { Metrics } from '../src/metrics/metrics.js';
import type { Store } from '../src/store/store.js';
import { OpenAiModerationEndpoint } from '../src/moderation/endpoint.js';
import { Moderator } from '../src/moderation/moderator.js';

type ModerationEnv = Pick<
  Env,
  'MODERATION_BASE_URL' | 'MODERATION_API_KEY' | 'MODERATION_MODEL' | 'MODERATION_TIMEOUT_MS'
>;

export function buildModerator(
  env: ModerationEnv,
  o: { store: Pick<Store, 'config'>; log: Logger; metrics: Metrics },
): Moderator {
  const endpoint = env.MODERATION_BASE_URL
    ? new OpenAiModerationEndpoint(
        new OpenAI({
          baseURL: env.MODERATION_BASE_URL,
          // A server of one's own may need no key; the client insists on one, so a placeholder.
          apiKey: env.MODERATION_API_KEY ?? 'no-key',
          maxRetries: 1,
          timeout: env.MODERATION_TIMEOUT_MS,
        }),
        env.MODERATION_MODEL,
      )
    : undefined;
  if (endpoint) o.log.info({ model: endpoint.model }, 'moderation endpoint on');
  return new Moderator({
    config: o.store.config,
    ...(endpoint ? { endpoint } : {}),
    timeoutMs: env.MODERATION_TIMEOUT_MS,
    log: o.log,
    metrics: o.metrics,
  });
}
