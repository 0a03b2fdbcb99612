// Health at a glance (the console's home page, Query.health): what each part reports and the
// port through which the composition root answers what only it can see (platform settings,
// readiness probes, queue counts, signals kept in Redis). Every part is cheap: counters, one
// small Redis round trip, or a bounded read by an index.
import type { EmbeddingsFallbackMark, HealthWarning, ProviderHealth, ProviderRecord } from './providerHealth.js';

export interface PlatformHealth {
  id: string;
  /** A platform without its token is off (still listed, so it is not mistaken for missing). */
  on: boolean;
  /** How updates arrive: polling, webhook, gateway (Discord), http (the web channel); null when off. */
  mode: string | null;
  /** The last inbound update any process handled, if one was seen since the marks began. */
  lastInboundAt: Date | null;
}

export interface ServiceCheck {
  name: string;
  ready: boolean;
}

export type CallState = 'ok' | 'degraded' | 'failing' | 'idle' | 'off';

/** Calls to a remote service (the model, the embeddings API) over the recent window. */
export interface CallCounts {
  calls: number;
  errors: number;
  lastOkAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
}

export interface CallHealth extends CallCounts {
  name: string;
  state: CallState;
  /** errors / calls in the window; null without calls. */
  errorRate: number | null;
  windowMinutes: number;
  /** What is called (model name, embedder id). */
  target: string;
}

export interface QueueHealth {
  waiting: number;
  active: number;
  delayed: number;
  /** How long the oldest waiting job has waited; null when none waits. */
  oldestWaitMs: number | null;
}

export type IncidentKind =
  | 'model_error'
  | 'model_timeout'
  | 'delivery_failure'
  | 'unanswered'
  /** Memory recall or knowledge search fell back to keywords (embeddings away, index loading). */
  | 'degraded_recall'
  /** A room's agents stopped talking among themselves: the round or token budget was used up. */
  | 'room_budget_stop'
  /** SPEC §14: a message refused or a reply withheld by moderation, or a text its endpoint could not check. */
  | 'moderation';

export interface Incident {
  id: string;
  kind: IncidentKind;
  at: Date;
  dialogueId: string;
  turnId: string | null;
  message: string;
}

export interface Health {
  at: Date;
  platforms: PlatformHealth[];
  services: ServiceCheck[];
  model: CallHealth;
  embeddings: CallHealth;
  /** The respond queue; null when its counts could not be read in time. */
  queue: QueueHealth | null;
  /** Replies being produced now (the respond queue's active jobs); null when unknown. */
  repliesInProgress: number | null;
  incidents: Incident[];
  incidentWindowHours: number;
  /** False when replies have no model at all (no key, no server of its own, no fallback): every reply is a notice. */
  modelConfigured: boolean;
  /** Every model provider of the chain (primary, LLM_FALLBACKS, vision's own), as the workers last saw it. */
  providers: ProviderHealth[];
  /** What to act on that is no failure: a model answering without tools, the offline embedder, a provider resting. */
  warnings: HealthWarning[];
  /** False when MongoDB did not answer: the model's calls and the incidents are unknown, not absent. */
  recordReadable: boolean;
}

/** What only the composition root can answer. */
export interface HealthProbes {
  platforms(): Promise<PlatformHealth[]>;
  services(): Promise<ServiceCheck[]>;
  respondQueue(): Promise<QueueHealth | null>;
  /** The embeddings API's recent calls; `off` when the offline embedder is used (nothing to reach). */
  embeddings(windowMinutes: number): Promise<{ target: string; remote: boolean; counts: CallCounts }>;
  /** The reply model's name. */
  readonly model: string;
  /** Whether a model service is configured for replies (src/llm/noModel.ts). */
  readonly modelConfigured: boolean;
  /** The model providers' marks; absent: none listed. */
  providers?(): Promise<ProviderRecord[]>;
  /** The embeddings' switch to the offline embedder, when a process made it (and marked it lately). */
  embeddingsFallback?(): Promise<EmbeddingsFallbackMark | null>;
}
