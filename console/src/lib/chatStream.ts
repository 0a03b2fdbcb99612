// A reply as it streams in over the web channel: its text so far, its sources, token use and any
// error, folded one event at a time.
import { ApiError, errorText } from './api.js';
import type { SourceRef, StreamEvent } from './chatApi.js';

export interface Streaming {
  content: string;
  sources: SourceRef[];
  usage?: { inputTokens?: number; outputTokens?: number };
  error?: string;
  done: boolean;
}

export const STREAM_START: Streaming = { content: '', sources: [], done: false };

/** The reply after one more of its events (a start says nothing new). */
export function withEvent(s: Streaming, ev: StreamEvent): Streaming {
  if (ev.event === 'content_delta') return { ...s, content: s.content + ev.delta };
  if (ev.event === 'source_reference') return { ...s, sources: [...s.sources, ev.source] };
  if (ev.event === 'message_complete') return { ...s, usage: ev.usage };
  if (ev.event === 'error') return { ...s, error: errorText(new ApiError(ev.message, ev.code, 0)) };
  return { ...s };
}
