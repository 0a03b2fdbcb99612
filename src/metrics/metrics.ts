// The metrics port: what the core observes, as named and typed calls. The core only reports;
// app/metrics.ts turns the calls into Prometheus series (labels bounded by ./labels.ts). The
// default is noMetrics, so code and tests that do not care pass nothing.
import type { DeliveryFailure } from '../domain/deliveryFailure.js';

export type ReplyStage = 'queue' | 'context' | 'model' | 'delivery';
export type LlmKind = 'reply' | 'background';

export interface Metrics {
  /** One inbound event handled: its platform, kind (message/edit/delete) and what ingest did with it. */
  inbound(platform: string, kind: string, result: string): void;
  /** A job waited this long between being due and being taken by a worker. */
  queueWait(queue: string, ms: number): void;
  /** One stage of a reply (queue: turn opened → reply started; context; model; delivery). */
  replyStage(stage: ReplyStage, ms: number): void;
  /** One LLM call ended: `ok` or its failure code, with what it reported (tokens, first token). */
  llmCall(kind: LlmKind, outcome: string, o?: { ttftMs?: number; inputTokens?: number; outputTokens?: number }): void;
  /** A platform call failed (each attempt; a 429 is `rate_limited`). */
  deliveryFailure(platform: string, failure: DeliveryFailure): void;
  /** Active recall before a reply found memories or none. */
  recall(found: number): void;
  /** A memory job ended. */
  memoryJob(name: string, result: string): void;
  /** A room's ask was skipped (by choice, timeout, a member leaving, a failed reply). */
  roomSkip(reason: string): void;
  /** A message reached no model (SPEC §14): not let in, blocked, past a budget, flagged. */
  refusal(reason: string): void;
  /** A moderation check of a message (in) or a reply (out): clean, flagged, or unavailable (the endpoint failed; let through). */
  moderation(direction: 'in' | 'out', result: 'clean' | 'flagged' | 'unavailable'): void;
  /** One store command answered (or failed) after this long: the store's latency as the process sees it. */
  storeCommand(command: string, ms: number): void;
}

const nothing = (): void => undefined;

export const noMetrics: Metrics = {
  inbound: nothing,
  queueWait: nothing,
  replyStage: nothing,
  llmCall: nothing,
  deliveryFailure: nothing,
  recall: nothing,
  memoryJob: nothing,
  roomSkip: nothing,
  refusal: nothing,
  moderation: nothing,
  storeCommand: nothing,
};

/**
 * A reply's stage clock: each call observes the time since the previous one (or since the clock
 * was made) as that stage, so a call site is one line between the stages it separates.
 */
export function replyLaps(metrics: Metrics | undefined): (stage: ReplyStage) => void {
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    metrics?.replyStage(stage, now - last);
    last = now;
  };
}
