// Seed 004's stream events (§6.1, §8) as the web channel sends them, and the HTTP status of each
// error code (§9). Every event carries an id `<messageId>:<offset>` (characters of the reply
// already sent), so a reconnect with Last-Event-ID resumes where the client stopped; the last
// event of a reply (message_complete, or error) carries `<messageId>:<offset>:end`, so a
// reconnect after it learns there is nothing more (204, which ends an EventSource for good).
import type { ErrorCode } from '../../src/errors.js';

export interface SourceReferenceData {
  documentId: string;
  documentName: string;
  content: string;
  relevanceScore: number;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export type WebStreamEvent =
  | { event: 'message_start'; id: string; data: { messageId: string } }
  | { event: 'content_delta'; id: string; data: { delta: string } }
  | { event: 'source_reference'; id: string; data: SourceReferenceData }
  | { event: 'message_complete'; id: string; data: { usage: TokenUsage } }
  | { event: 'error'; id: string; data: { code: ErrorCode; message: string } };

/** An event id: the reply and how many of its characters the client has with this event. */
export const eventIdOf = (messageId: string, offset: number): string => `${messageId}:${offset}`;
/** The id of a reply's last event: after it, the stream has nothing more to say. */
export const endEventIdOf = (messageId: string, offset: number): string => `${messageId}:${offset}:end`;

/**
 * Last-Event-ID → where to resume, and whether the client already had the reply's end; null
 * when it is not one of ours.
 */
export function parseEventId(id: string | undefined): { messageId: string; offset: number; ended: boolean } | null {
  const m = /^(msg_[A-Za-z0-9_]+):(\d{1,9})(:end)?$/.exec(id?.trim() ?? '');
  return m?.[1] && m[2] ? { messageId: m[1], offset: Number(m[2]), ended: m[3] !== undefined } : null;
}

/** How long an EventSource waits before it reconnects after a drop (the stream's `retry:` field). */
export const RETRY_MS = 1000;

/** One event in the text/event-stream format (data is one JSON line). */
export const formatEvent = (e: WebStreamEvent): string =>
  `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
