// The web channel's REST + SSE API under /api (adapters/web), called with the operator's token
// (operator tokens work there too). Errors before a stream are JSON {error: {code, message}}.
import { ApiError } from './api.js';
import { translate } from './locale.js';
import { isTransientStatus, reportReachable, timedFetch } from './net.js';
import { getToken } from './session.js';
import { readSse } from './sse.js';

export interface Conversation {
  id: string;
  dialogueId: string;
  assistantId: string;
  /** Set when the conversation is a room's. */
  roomId?: string;
  title: string;
  status: string;
  messageCount: number;
  startedAt: string;
  lastMessageAt: string;
}

export interface SourceRef {
  documentId: string;
  documentName: string;
  content: string;
  relevanceScore: number;
}

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  /** The agent that wrote an assistant message (a room has several). */
  agentId?: string;
  content: string;
  /** A reply's delivery state (streaming, complete, interrupted, error…); `complete` otherwise. */
  state: string;
  metadata: { sources?: SourceRef[]; tokensUsed?: { inputTokens?: number; outputTokens?: number } };
  createdAt: string;
}

async function call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    const r = await timedFetch(
      `/api${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${getToken() ?? ''}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      },
      { signal },
    );
    // The limit is on the answer starting: a reply then streams for as long as it takes.
    r.settled();
    res = r.res;
  } catch (e) {
    if (signal?.aborted) throw e;
    reportReachable(false);
    throw new ApiError(translate('error.code.NETWORK', undefined, 'en'), 'NETWORK', 0);
  }
  reportReachable(!isTransientStatus(res.status));
  if (res.ok) return res;
  const err = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  // A bare 404 (no error body): the gateway has no web channel mounted.
  const noChannel = res.status === 404 && !err?.error;
  throw new ApiError(
    err?.error?.message ??
      (noChannel ? translate('error.code.WEB_CHANNEL_UNAVAILABLE', undefined, 'en') : `HTTP ${res.status}`),
    err?.error?.code ?? (noChannel ? 'WEB_CHANNEL_UNAVAILABLE' : `HTTP_${res.status}`),
    res.status,
  );
}

export const listConversations = async (): Promise<Conversation[]> =>
  ((await (await call('GET', '/conversations')).json()) as { conversations: Conversation[] }).conversations;

export const createConversation = async (agentId?: string): Promise<Conversation> =>
  (await (await call('POST', '/conversations', agentId ? { agentId } : {})).json()) as Conversation;

export const getConversation = async (id: string): Promise<{ conversation: Conversation; messages: ChatMessage[] }> =>
  (await (await call('GET', `/conversations/${encodeURIComponent(id)}`)).json()) as {
    conversation: Conversation;
    messages: ChatMessage[];
  };

/** Posts into a room's conversation: the round's replies are read from the conversation after. */
export const postToRoom = async (id: string, content: string): Promise<void> => {
  await call('POST', `/conversations/${encodeURIComponent(id)}/messages`, { content });
};

export const deleteConversation = async (id: string): Promise<void> => {
  await call('DELETE', `/conversations/${encodeURIComponent(id)}`);
};

export const abortReply = async (id: string): Promise<void> => {
  await call('POST', `/conversations/${encodeURIComponent(id)}/abort`, {});
};

export type StreamEvent =
  | { event: 'message_start'; messageId: string }
  | { event: 'content_delta'; delta: string }
  | { event: 'source_reference'; source: SourceRef }
  | { event: 'message_complete'; usage?: { inputTokens?: number; outputTokens?: number } }
  | { event: 'error'; code: string; message: string };

/** Posts a message and yields the reply's events as they stream. */
export async function* sendMessage(id: string, content: string, signal: AbortSignal): AsyncGenerator<StreamEvent> {
  const res = await call('POST', `/conversations/${encodeURIComponent(id)}/messages`, { content }, signal);
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    // A command (/new, /help…) is answered with a stored notice instead of a stream.
    await res.body?.cancel();
    yield { event: 'message_complete' };
    return;
  }
  const text = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
  for await (const e of readSse(res.body!, signal)) {
    const data = JSON.parse(e.data) as Record<string, unknown>;
    switch (e.event) {
      case 'message_start':
        yield { event: 'message_start', messageId: text(data.messageId) };
        break;
      case 'content_delta':
        yield { event: 'content_delta', delta: text(data.delta) };
        break;
      case 'source_reference':
        yield { event: 'source_reference', source: data as unknown as SourceRef };
        break;
      case 'message_complete':
        yield { event: 'message_complete', usage: data.usage as { inputTokens?: number; outputTokens?: number } };
        return;
      case 'error':
        yield { event: 'error', code: text(data.code, 'INTERNAL'), message: text(data.message) };
        return;
    }
  }
}
