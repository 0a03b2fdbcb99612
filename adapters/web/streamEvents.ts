// Seed 004's stream events (§6.1, §8) as the web channel sends them, and the HTTP status of each
// error code (§9). Every event carries an id `<messageId>:<offset>` (characters of the reply
// already sent), so a reconnect with Last-Event-ID resumes where the client stopped.
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

/** Last-Event-ID → where to resume; null when it is not one of ours. */
export function parseEventId(id: string | undefined): { messageId: string; offset: number } | null {
  const m = /^(msg_[A-Za-z0-9_]+):(\d{1,9})$/.exec(id?.trim() ?? '');
  return m?.[1] && m[2] ? { messageId: m[1], offset: Number(m[2]) } : null;
}

/** One event in the text/event-stream format (data is one JSON line). */
export const formatEvent = (e: WebStreamEvent): string =>
  `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
