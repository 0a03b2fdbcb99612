// The Moderator (SPEC §14): the config's keyword list first (no call), then the optional
// `/moderations` endpoint. Moderation must never stop the conversation by failing: an endpoint
// that errors or does not answer within its time lets the text through (fail open), with a
// warning in the log, a metric and `endpointFailed` on the verdict for the trace.
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ConfigRepo } from '../store/config.js';
import {
  CLEAN,
  keywordVerdict,
  repliesChecked,
  type ModerationSettings,
  type ModerationVerdict,
} from '../domain/moderation.js';
import type { ModerationEndpoint } from './endpoint.js';

export type { ModerationVerdict } from '../domain/moderation.js';

/** A person's message (in) or an agent's reply (out). */
export type ModerationDirection = 'in' | 'out';

export interface ModeratorOptions {
  /** The config document, read per check (cached per process): a keyword change applies to the next message. */
  config: Pick<ConfigRepo, 'get'>;
  /** The `/moderations` endpoint (MODERATION_BASE_URL); absent: keywords only. */
  endpoint?: ModerationEndpoint;
  /** MODERATION_TIMEOUT_MS: the endpoint's answer is awaited this long, then the text passes. */
  timeoutMs: number;
  log: Logger;
  metrics?: Metrics;
}

export class Moderator {
  constructor(private readonly o: ModeratorOptions) {}

  /** Whether an endpoint is configured (replies may be checked even without keywords). */
  get hasEndpoint(): boolean {
    return this.o.endpoint !== undefined;
  }

  /**
   * Checks a person's message against the current config's keywords and the endpoint. A flagged
   * message is not to be sent to the model. `signal` aborts the endpoint's call (then this throws).
   */
  async check(text: string, signal?: AbortSignal): Promise<ModerationVerdict> {
    const { config } = await this.o.config.get();
    return this.checkWith(config.moderation, text, 'in', signal);
  }

  /** Whether replies under these settings are held back until complete and checked. */
  checksReplies(settings: ModerationSettings): boolean {
    return repliesChecked(settings, this.hasEndpoint);
  }

  /** Checks a complete reply against the settings of its turn's config. */
  checkReply(settings: ModerationSettings, text: string, signal?: AbortSignal): Promise<ModerationVerdict> {
    return this.checkWith(settings, text, 'out', signal);
  }

  private async checkWith(
    settings: ModerationSettings,
    text: string,
    direction: ModerationDirection,
    signal?: AbortSignal,
  ): Promise<ModerationVerdict> {
    const byKeyword = keywordVerdict(text, settings.keywords);
    let verdict = byKeyword;
    if (!byKeyword.flagged && this.o.endpoint && text.trim())
      verdict = await this.ask(this.o.endpoint, text, direction, signal);
    else if (!byKeyword.flagged) verdict = CLEAN;
    this.o.metrics?.moderation(
      direction,
      verdict.flagged ? 'flagged' : verdict.endpointFailed ? 'unavailable' : 'clean',
    );
    return verdict;
  }

  /** The endpoint's verdict, or a clean one naming why it could not be had (fail open). */
  private async ask(
    endpoint: ModerationEndpoint,
    text: string,
    direction: ModerationDirection,
    signal?: AbortSignal,
  ): Promise<ModerationVerdict> {
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    try {
      return await endpoint.classify(text, signal ? AbortSignal.any([signal, timeout]) : timeout);
    } catch (err) {
      // The caller gave up (a /stop, a shutdown): that is no failure of the endpoint.
      if (signal?.aborted) throw err;
      const why = timeout.aborted
        ? `no answer within ${this.o.timeoutMs} ms`
        : err instanceof Error
          ? err.message
          : String(err);
      // The text itself is never logged: only its direction, size and why it went unchecked.
      this.o.log.warn(
        { code: 'MODERATION_UNAVAILABLE', direction, model: endpoint.model, chars: text.length, err: why },
        'moderation endpoint failed: the text passes unchecked by it (fail open)',
      );
      return { flagged: false, endpointFailed: why };
    }
  }
}
