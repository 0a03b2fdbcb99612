// Stable error codes (SPEC §10: seed 004's list plus our own). Clients and logs match on
// `code`, never on message text.
export const ERROR_CODES = [
  'CONVERSATION_NOT_FOUND',
  'MESSAGE_NOT_FOUND',
  'NOT_FOUND',
  'MESSAGE_CONTENT_REQUIRED',
  'MESSAGE_TOO_LONG',
  'GENERATION_TIMEOUT',
  'GENERATION_ABORTED',
  'LLM_SERVICE_ERROR',
  /** No model service is configured (no OPENAI_API_KEY, no OPENAI_BASE_URL of its own). */
  'MODEL_NOT_CONFIGURED',
  'PROMPT_TOO_LONG',
  'CONFIG_INVALID',
  'EMBEDDING_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'BAD_REQUEST',
  'QUERY_TOO_COMPLEX',
  /** The dialogue's platform has no outbound channel in this deployment (no bot token). */
  'PLATFORM_NOT_CONFIGURED',
  /** A reply or summary of the dialogue holds its lease; try again shortly. */
  'DIALOGUE_BUSY',
  /** Rooms (seed 002): a member acted when it was not asked, or skipped when it must answer. */
  'ROOM_NOT_FOUND',
  'NOT_YOUR_TURN',
  'SKIP_NOT_ALLOWED',
  'ROUND_COMPLETED',
  'NOT_A_MEMBER',
  'ROOM_EXISTS',
  /** Knowledge uploads (src/knowledge/intake.ts): refused whole, nothing stored. */
  'DOCUMENT_TYPE_UNSUPPORTED',
  'DOCUMENT_TOO_LARGE',
  'DOCUMENT_EMPTY',
  'DOCUMENT_MALFORMED',
  /** Self-reflection: the agent is reflecting already (the message names the running reflection). */
  'REFLECTION_RUNNING',
  /** Self-reflection: a memory the run touched changed since; roll back newer runs first. */
  'REFLECTION_ROLLBACK_CONFLICT',
  /** An export download link (GET /exports/<token>) whose time is up: ask for a new export. */
  'EXPORT_LINK_EXPIRED',
  /** An export download link that is malformed or not signed by this deployment. */
  'EXPORT_LINK_INVALID',
  /** MongoDB or Redis is not answering (restarting, stopped): nothing was changed; try again. */
  'STORE_UNAVAILABLE',
  /** SPEC §14: the person, chat or deployment spent today's budget; no model call was made. */
  'BUDGET_EXCEEDED',
  /** SPEC §14: the sender is not let in (allowlist) or is blocked; no model call was made. */
  'ACCESS_DENIED',
  /** SPEC §14: an invite code that does not exist, has expired, is used up or was withdrawn. */
  'INVITE_UNKNOWN',
  'INVITE_EXPIRED',
  'INVITE_USED_UP',
  'INVITE_REVOKED',
  /** SPEC §14: moderation flagged the message (keywords or the moderation endpoint); not sent to the model. */
  'MODERATION_FLAGGED',
  /** SPEC §14: moderation flagged a reply; people were shown a notice instead (the text is in the trace). */
  'REPLY_WITHHELD',
  /** The moderation endpoint failed or timed out; the text passed unchecked by it (fail open). */
  'MODERATION_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class GatewayError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GatewayError';
  }
}

export const isGatewayError = (e: unknown): e is GatewayError => e instanceof GatewayError;

/**
 * The HTTP status each code is answered with by the REST doors (the web channel, seats' REST):
 * seed 004 §9 for its codes, the usual meaning for ours. Every code has one, so a new code must
 * say how it reads over HTTP.
 */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  MESSAGE_CONTENT_REQUIRED: 400,
  MESSAGE_TOO_LONG: 400,
  PROMPT_TOO_LONG: 400,
  CONFIG_INVALID: 400,
  QUERY_TOO_COMPLEX: 400,
  DOCUMENT_EMPTY: 400,
  DOCUMENT_MALFORMED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_A_MEMBER: 403,
  EXPORT_LINK_INVALID: 403,
  ACCESS_DENIED: 403,
  INVITE_UNKNOWN: 404,
  INVITE_EXPIRED: 410,
  INVITE_USED_UP: 410,
  INVITE_REVOKED: 410,
  BUDGET_EXCEEDED: 429,
  MODERATION_FLAGGED: 422,
  REPLY_WITHHELD: 422,
  MODERATION_UNAVAILABLE: 503,
  CONVERSATION_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  ROOM_NOT_FOUND: 404,
  DIALOGUE_BUSY: 409,
  NOT_YOUR_TURN: 409,
  SKIP_NOT_ALLOWED: 409,
  ROUND_COMPLETED: 409,
  ROOM_EXISTS: 409,
  PLATFORM_NOT_CONFIGURED: 409,
  REFLECTION_RUNNING: 409,
  REFLECTION_ROLLBACK_CONFLICT: 409,
  EXPORT_LINK_EXPIRED: 410,
  DOCUMENT_TOO_LARGE: 413,
  DOCUMENT_TYPE_UNSUPPORTED: 415,
  GENERATION_ABORTED: 499,
  STORE_UNAVAILABLE: 503,
  INTERNAL: 500,
  LLM_SERVICE_ERROR: 502,
  EMBEDDING_FAILED: 502,
  MODEL_NOT_CONFIGURED: 503,
  GENERATION_TIMEOUT: 504,
};
