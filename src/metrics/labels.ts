// The label values metrics may carry: fixed lists, so every series set stays bounded. Anything
// not listed (a new platform, an unexpected code) is counted as "other" rather than minting a
// series per value; ids of dialogues, users or turns are never labels.
import { PLATFORM_NAMES } from '../domain/platformNames.js';

export const OTHER = 'other';

/** The platforms with an adapter: one list for the API's enum and the metrics' labels. */
export const PLATFORM_LABELS = PLATFORM_NAMES;
export const INBOUND_KIND_LABELS = ['message', 'edit', 'delete'] as const;
/** IngestResult kinds (src/ingest/ingest.ts). */
export const INGEST_RESULT_LABELS = [
  'accepted',
  'duplicate',
  'command',
  'rejected',
  'refused',
  'context',
  'album_item',
  'edited',
  'deleted',
  'ignored',
] as const;
/** BullMQ queues (jobs/): names as the queues are called there. */
export const QUEUE_LABELS = ['respond', 'memory', 'timers', 'media-retry'] as const;
export const REPLY_STAGE_LABELS = ['queue', 'context', 'model', 'delivery'] as const;
/** A user-facing reply, or a background task (memory extraction, summaries, persona, consolidation). */
export const LLM_KIND_LABELS = ['reply', 'background'] as const;
/** `ok`, or the LlmFailure's code (src/errors.ts). */
export const LLM_OUTCOME_LABELS = [
  'ok',
  'GENERATION_TIMEOUT',
  'GENERATION_ABORTED',
  'LLM_SERVICE_ERROR',
  'MODEL_NOT_CONFIGURED',
  'BUDGET_EXCEEDED',
] as const;
/** DeliveryFailure kinds (src/domain/deliveryFailure.ts). */
export const DELIVERY_CODE_LABELS = ['rate_limited', 'transient', 'permanent'] as const;
/** Memory job names (jobs/memoryJobs.ts). */
export const MEMORY_JOB_LABELS = ['extract', 'rolling-summary', 'summarize', 'evolve', 'consolidate'] as const;
/** `completed`, `failed` (will be retried or exhausted), or what a handler said it did. */
export const MEMORY_RESULT_LABELS = ['completed', 'failed', 'skipped', 'folded'] as const;
/** MongoDB commands the store sends (the driver's command names). */
export const STORE_COMMAND_LABELS = [
  'find',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'getMore',
  'aggregate',
  'count',
] as const;
/** RefusalReason (src/domain/access.ts): why a message reached no model (SPEC §14). */
export const REFUSAL_REASON_LABELS = ['not_admitted', 'blocked', 'budget', 'moderation'] as const;
/** Moderation (src/moderation/): a person's message (in) or a reply (out). */
export const MODERATION_DIRECTION_LABELS = ['in', 'out'] as const;
/** How a check ended: clean, flagged, or let through because the endpoint failed (fail open). */
export const MODERATION_RESULT_LABELS = ['clean', 'flagged', 'unavailable'] as const;
/** SkipReason (src/domain/roundRules.ts). */
export const ROOM_SKIP_LABELS = ['chose', 'timeout', 'left', 'failed'] as const;

export type Bounded<T extends readonly string[]> = T[number] | typeof OTHER;

/** `value` when it is one of `allowed`, else "other". */
export function bounded<T extends readonly string[]>(allowed: T, value: string | undefined): Bounded<T> {
  const known = (v: string | undefined): v is T[number] => v !== undefined && allowed.includes(v);
  return known(value) ? value : OTHER;
}
