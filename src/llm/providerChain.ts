// The chain of model providers (SPEC §14): a call goes to the first provider not resting; one
// that fails before its first token — HTTP 429 or 5xx, no token within the first-token wait, a
// refused or broken connection — rests for a cool-down and the next is tried. Once a token has
// arrived the call belongs to that provider: a later failure is the call's (what was shown
// stays). The request's own signal (the reply's limit, /stop, a room's deadline) ends the whole
// call and is never taken for a provider's failure. Generic over the call, so vision's
// non-streaming requests use the same providers and rests as replies.
import type { LlmProvider } from './provider.js';
import { failoverReason, failureLine } from './providerFailure.js';
import type { ProviderSkip, Route } from './route.js';

export interface ChainEntry {
  provider: LlmProvider;
  /** The model this entry asks for; absent: the provider's own, else the request's. */
  model?: string;
}

export interface ChainOptions {
  /** How long a failed provider is passed over (LLM_FALLBACK_COOLDOWN_MS). */
  cooldownMs: number;
  /** A provider with no token after this long is left for the next (only while one is left). */
  firstTokenTimeoutMs?: number;
  now?: () => number;
}

/** One try at one provider: `firstToken()` is to be called when its first token arrives. */
export type Attempt<T> = (
  target: { provider: LlmProvider; model: string },
  signal: AbortSignal,
  firstToken: () => void,
) => Promise<T>;

export type Routed<T> = { ok: true; value: T; route: Route } | { ok: false; error: unknown; route: Route };

type Tried<T> = { ok: true; value: T } | { ok: false; error: unknown; started: boolean; waitedOut: boolean };

/** The reason a waited-out attempt is aborted with (not the request's: that one is never ours). */
const FIRST_TOKEN_WAIT = 'first_token_timeout';

export class ProviderChain {
  constructor(
    readonly entries: readonly ChainEntry[],
    private readonly o: ChainOptions,
  ) {
    if (entries.length === 0) throw new RangeError('a provider chain needs at least one provider');
  }

  get providers(): LlmProvider[] {
    return [...new Set(this.entries.map((e) => e.provider))];
  }

  /** Tries the providers in order; `requested` is the model of entries without one of their own. */
  async run<T>(
    requested: string,
    signal: AbortSignal,
    attempt: Attempt<T>,
    o: { waitForFirstToken: boolean },
  ): Promise<Routed<T>> {
    const now = this.o.now ?? Date.now;
    const targets = this.entries.map((e) => ({
      provider: e.provider,
      model: e.model ?? e.provider.modelFor(requested),
    }));
    const at = now();
    const resting = targets.filter((t) => t.provider.cooling(at));
    // Every provider resting: better to try them all again than to answer nothing.
    const order = resting.length < targets.length ? targets.filter((t) => !resting.includes(t)) : targets;
    const providersSkipped: ProviderSkip[] =
      order === targets
        ? []
        : resting.map((t) => ({ provider: t.provider.label(t.model), reason: 'cooling_down' as const }));
    let last: { error: unknown; provider: string } = { error: new Error('no provider tried'), provider: '' };
    for (const [i, target] of order.entries()) {
      const label = target.provider.label(target.model);
      const wait = o.waitForFirstToken && i < order.length - 1 ? this.o.firstTokenTimeoutMs : undefined;
      const tried = await tryOnce(target, signal, attempt, wait);
      if (tried.ok) {
        target.provider.answered(target.model, now());
        return { ok: true, value: tried.value, route: { provider: label, providersSkipped } };
      }
      last = { error: tried.error, provider: label };
      if (signal.aborted) break; // the request's own end: no provider is blamed
      const why = tried.waitedOut ? { reason: 'timeout' as const } : failoverReason(tried.error);
      const line = tried.waitedOut ? `no first token within ${wait ?? 0} ms` : failureLine(tried.error);
      target.provider.failed(target.model, line, why && !tried.started ? this.o.cooldownMs : 0, now());
      if (!why || tried.started) break;
      if (i < order.length - 1) providersSkipped.push({ provider: label, ...why });
    }
    return { ok: false, error: last.error, route: { provider: last.provider, providersSkipped } };
  }
}

/** One attempt under its own signal: the request's, plus the first-token wait when one is set. */
async function tryOnce<T>(
  target: { provider: LlmProvider; model: string },
  signal: AbortSignal,
  attempt: Attempt<T>,
  waitMs: number | undefined,
): Promise<Tried<T>> {
  const ctl = new AbortController();
  const follow = (): void => ctl.abort(signal.reason);
  signal.addEventListener('abort', follow, { once: true });
  if (signal.aborted) follow();
  let started = false;
  let waitedOut = false;
  const timer =
    waitMs === undefined
      ? undefined
      : setTimeout(() => {
          if (started || signal.aborted) return;
          waitedOut = true;
          ctl.abort(FIRST_TOKEN_WAIT);
        }, waitMs);
  const firstToken = (): void => {
    started = true;
    clearTimeout(timer);
  };
  try {
    return { ok: true, value: await attempt(target, ctl.signal, firstToken) };
  } catch (error) {
    return { ok: false, error, started, waitedOut: waitedOut && !signal.aborted };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', follow);
  }
}
