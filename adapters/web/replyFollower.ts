// Follows one reply through the stored record: the text a web client sees is exactly what the
// worker stored (persist-then-push), so a client that reconnects, or one served by another
// process than the worker's, gets the same text with nothing lost or repeated. The change feed
// wakes the follower; a slow poll covers a lost announcement (the feed is a hint).
import type { Message } from '../../src/domain/model.js';
import type { ErrorCode } from '../../src/errors.js';
import { displayedText } from '../../src/domain/displayedText.js';
import type { DialogueFeed } from './feedSubscriber.js';
import { endEventIdOf, eventIdOf, type TokenUsage, type WebStreamEvent } from './streamEvents.js';

export interface FollowOptions {
  dialogueId: string;
  replyId: string;
  /** Characters of the reply the client already has (Last-Event-ID); 0 for a new stream. */
  offset: number;
  /** A reconnect (Last-Event-ID): the client has message_start already. */
  resumed?: boolean;
  read(messageId: string): Promise<Message | null>;
  feed: DialogueFeed;
  /** Give up (GENERATION_TIMEOUT) when the reply has not ended by then; the reply itself goes on. */
  maxWaitMs: number;
  /** Re-read this often even without an announcement. */
  pollMs: number;
  /** The client went away: stop following. */
  signal: AbortSignal;
}

/** A stored failure → the code and plain message the client is told. */
const FAILURES: Record<'interrupted' | 'timeout' | 'error', { code: ErrorCode; message: string }> = {
  interrupted: { code: 'GENERATION_ABORTED', message: 'The reply was stopped.' },
  timeout: { code: 'GENERATION_TIMEOUT', message: 'The model took too long to answer.' },
  error: { code: 'LLM_SERVICE_ERROR', message: 'The model service failed to answer.' },
};

/** The reply's failure as the client is told it; a known refusal (prompt too long) keeps its code. */
function failureOf(m: Message): { code: ErrorCode; message: string } | null {
  const state = m.delivery?.state;
  if (state !== 'interrupted' && state !== 'timeout' && state !== 'error') return null;
  // Refusals that tell the person what to do keep their code and notice.
  const code = m.delivery?.error?.code;
  if (state === 'error' && (code === 'PROMPT_TOO_LONG' || code === 'MODEL_NOT_CONFIGURED'))
    return { code, message: displayedText(m) };
  return FAILURES[state];
}

const usageOf = (m: Message): TokenUsage => m.delivery?.usage ?? { inputTokens: 0, outputTokens: 0 };

/** Wakes a waiting follower; a wake-up that comes while it is busy is kept for its next wait. */
class Wakeup {
  private pending = false;
  private resolve: (() => void) | undefined;

  notify(): void {
    this.pending = true;
    this.resolve?.();
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    if (!this.pending && !signal.aborted) {
      await new Promise<void>((res) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.resolve = undefined;
          res();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done);
        this.resolve = done;
      });
    }
    this.pending = false;
  }
}

/**
 * The reply's events from `offset` on: message_start, content_delta…, then source_reference…
 * and message_complete, or error. Ends when the reply has ended, the wait ran out or the client left.
 */
export async function* followReply(o: FollowOptions): AsyncGenerator<WebStreamEvent> {
  const wake = new Wakeup();
  const unsubscribe = await o.feed.onMessages(o.dialogueId, (c) => {
    if (c.kind === 'message' && c.messageId === o.replyId) wake.notify();
  });
  try {
    const deadline = Date.now() + o.maxWaitMs;
    let sent = o.offset;
    // A resumed stream does not say message_start again: the client has it (its Last-Event-ID names the reply).
    let started = o.resumed === true;
    while (!o.signal.aborted) {
      const m = await o.read(o.replyId);
      const ended = m?.delivery !== undefined && m.delivery.state !== 'streaming';
      const failure = m && ended ? failureOf(m) : null;
      // A failure's notice is not reply text: the client gets the error event instead.
      const text = m ? (failure ? m.content : displayedText(m)) : '';
      // A reply that failed before saying anything never started: its first event is the error.
      if (m && (text.length > sent || (ended && !failure))) {
        if (!started) yield { event: 'message_start', id: eventIdOf(o.replyId, sent), data: { messageId: o.replyId } };
        started = true;
        if (text.length > sent) {
          const delta = text.slice(sent);
          sent = text.length;
          yield { event: 'content_delta', id: eventIdOf(o.replyId, sent), data: { delta } };
        }
      }
      if (m && ended) {
        if (failure) {
          yield { event: 'error', id: endEventIdOf(o.replyId, sent), data: failure };
          return;
        }
        for (const s of m.sources ?? [])
          yield {
            event: 'source_reference',
            id: eventIdOf(o.replyId, sent),
            data: {
              documentId: s.documentId,
              documentName: s.documentName,
              content: s.content,
              relevanceScore: s.relevanceScore,
            },
          };
        yield { event: 'message_complete', id: endEventIdOf(o.replyId, sent), data: { usage: usageOf(m) } };
        return;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        const data = { code: 'GENERATION_TIMEOUT' as const, message: 'No reply yet; it will appear in the history.' };
        // Not the reply's end: it goes on, and a reconnect may follow it further.
        yield { event: 'error', id: eventIdOf(o.replyId, sent), data };
        return;
      }
      await wake.wait(Math.min(left, o.pollMs), o.signal);
    }
  } finally {
    unsubscribe();
  }
}
