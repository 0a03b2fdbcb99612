// One model provider of the chain: an OpenAI-compatible server with its client, the model it
// answers with (absent for the primary, which answers with the request's model), and what this
// process learned of it — when it failed, how long it rests, which of its models refuse tools.
// An observer hears each change (the composition root marks them for the health page).
import type OpenAI from 'openai';
import type { LlmClient } from './types.js';
import { ToolSupport } from './toolSupport.js';

export interface ProviderSpec {
  /** `primary`, `fallback-1`, `fallback-2`…, `vision`: stable across restarts, for health. */
  id: string;
  baseUrl: string;
  /** Its own model; absent: the request's (the primary). */
  model?: string;
}

/** A provider as health and logs name it: id and `host model`, no secret. */
export interface ProviderRef {
  id: string;
  label: string;
}

export interface ProviderObserver {
  answered(p: ProviderRef, at: Date): void;
  /** `coolingUntil`: when it is tried again first; null when the failure does not rest it. */
  failed(p: ProviderRef, o: { at: Date; error: string; coolingUntil: Date | null }): void;
  toolsRefused(p: ProviderRef, model: string, at: Date): void;
}

/** The host of a base URL: no user, password, path or query (keys sometimes ride there). */
export const hostOf = (baseUrl: string): string => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'invalid-url';
  }
};

export class LlmProvider {
  readonly host: string;
  readonly tools = new ToolSupport();
  private coolingUntil = 0;

  constructor(
    readonly spec: ProviderSpec,
    /** The client for calls outside the LlmClient port (vision). */
    readonly openai: OpenAI,
    readonly llm: LlmClient,
    private readonly observer?: ProviderObserver,
  ) {
    this.host = hostOf(spec.baseUrl);
  }

  get id(): string {
    return this.spec.id;
  }

  /** `host model`: what the trace and health call it. */
  label(model = this.spec.model): string {
    return model ? `${this.host} ${model}` : this.host;
  }

  /** The model a call to this provider uses. */
  modelFor(requested: string): string {
    return this.spec.model ?? requested;
  }

  cooling(now: number): boolean {
    return now < this.coolingUntil;
  }

  answered(model: string, now: number): void {
    this.coolingUntil = 0;
    this.observer?.answered(this.ref(model), new Date(now));
  }

  /** A failure; `coolMs` > 0 rests the provider that long (the next ones are tried first meanwhile). */
  failed(model: string, error: string, coolMs: number, now: number): void {
    if (coolMs > 0) this.coolingUntil = now + coolMs;
    const coolingUntil = coolMs > 0 ? new Date(this.coolingUntil) : null;
    this.observer?.failed(this.ref(model), { at: new Date(now), error, coolingUntil });
  }

  refusedTools(model: string, now: number): void {
    this.tools.refused(model);
    this.observer?.toolsRefused(this.ref(model), model, new Date(now));
  }

  private ref(model: string): ProviderRef {
    return { id: this.id, label: this.label(model) };
  }
}
