// Before a prompt is built: every attachment of the messages it will show gets its text, or a
// visible reason why not. Pending attachments and failed ones whose retry is due are processed
// (in parallel), each result is stored, and a failure with attempts left schedules a retry
// with exponential backoff, so a failed transcription ends with text even if nobody writes again.
import type { Logger } from 'pino';
import type { Attachment, AttachmentProcessing, Message, Platform } from '../domain/model.js';
import type { AttachmentRepo } from '../store/attachments.js';
import type { AttachmentProcessor } from './processor.js';
import { describeError } from './errors.js';

export const DEFAULT_RETRY_BASE_MS = 30_000;
export const DEFAULT_RETRY_MAX_MS = 30 * 60_000;

export interface PrepareMediaDeps {
  processor: AttachmentProcessor;
  attachments: Pick<AttachmentRepo, 'saveProcessing' | 'processingOf'>;
  /** MEDIA_MAX_ATTEMPTS: a failed attachment is retried until it has had this many attempts. */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time up to retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Runs prepareMessagesMedia for this message again at `at` (jobs/mediaRetry.ts); idempotent per (message, at). */
  scheduleRetry(messageId: string, at: Date): Promise<void>;
  log: Logger;
}

/** Delay after the `attempts`-th failed attempt. */
export function retryDelayMs(attempts: number, baseMs = DEFAULT_RETRY_BASE_MS, maxMs = DEFAULT_RETRY_MAX_MS): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** Whether this attachment should be processed now. */
export function isDue(p: AttachmentProcessing, maxAttempts: number, now: Date): boolean {
  if (p.state === 'pending') return true;
  if (p.state !== 'failed' || p.attempts >= maxAttempts) return false;
  return !p.nextAttemptAt || p.nextAttemptAt.getTime() <= now.getTime();
}

/**
 * Returns `messages` with every due attachment processed and stored. Never throws for a media
 * or storage failure: the prompt is built either way, with failures visible in the state.
 * `now` decides what is due (a retry job passes the time it was scheduled for); `platform` is
 * used for messages without a platform reference.
 */
export async function prepareMessagesMedia(
  deps: PrepareMediaDeps,
  messages: Message[],
  o: { now?: Date; platform?: Platform } = {},
): Promise<Message[]> {
  const now = o.now ?? new Date();
  return Promise.all(messages.map((m) => prepareMessage(deps, m, now, o.platform)));
}

async function prepareMessage(
  deps: PrepareMediaDeps,
  message: Message,
  now: Date,
  fallbackPlatform: Platform | undefined,
): Promise<Message> {
  const attachments = message.contentMeta?.attachments;
  // The platform whose MediaSource has the bytes: the message's own, else the dialogue's.
  const platform = message.platformRef?.platform ?? fallbackPlatform;
  if (!attachments?.some((a) => isDue(a.processing, deps.maxAttempts, now))) return message;
  if (!platform) {
    deps.log.warn({ messageId: message._id }, 'attachments on a message without a platform reference: not processed');
    return message;
  }

  const results = await Promise.all(
    attachments.map((att, index) =>
      isDue(att.processing, deps.maxAttempts, now)
        ? processOne(deps, message._id, att, index, platform)
        : Promise.resolve(undefined),
    ),
  );

  const updated = attachments.map((att, i) => {
    const processing = results[i];
    return processing ? { ...att, processing } : att;
  });

  // One retry job per message, at the earliest next attempt of any of its attachments (also
  // ones not processed now: the job that would have retried them may be the one running).
  // The job id is derived from that time, so scheduling it again adds nothing.
  const next = nextRetryAt(updated, deps.maxAttempts);
  if (next) {
    await deps.scheduleRetry(message._id, next).catch((err: unknown) => {
      deps.log.error({ err, messageId: message._id }, 'could not schedule the media retry');
    });
  }
  return { ...message, contentMeta: { ...message.contentMeta, attachments: updated } };
}

/** When the message's media should be looked at again: the earliest pending retry, if any. */
export function nextRetryAt(attachments: Attachment[], maxAttempts: number): Date | undefined {
  const times = attachments
    .map((a) => a.processing)
    .filter((p) => p.state === 'failed' && p.attempts < maxAttempts && p.nextAttemptAt)
    .map((p) => p.nextAttemptAt!.getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : undefined;
}

/** One attempt, stored; returns what the record now says about the attachment. */
async function processOne(
  deps: PrepareMediaDeps,
  messageId: string,
  att: Attachment,
  index: number,
  platform: Platform,
): Promise<AttachmentProcessing> {
  let processing = await deps.processor.process(att, platform).catch((err: unknown): AttachmentProcessing => ({
    state: 'failed',
    attempts: att.processing.attempts + 1,
    error: { code: 'MEDIA_FETCH_FAILED', message: describeError(err) },
    updatedAt: new Date(),
  }));
  if (processing.state === 'failed' && processing.attempts < deps.maxAttempts) {
    const at = new Date(
      processing.updatedAt.getTime() + retryDelayMs(processing.attempts, deps.retryBaseMs, deps.retryMaxMs),
    );
    processing = { ...processing, nextAttemptAt: at };
  }
  try {
    if (
      await deps.attachments.saveProcessing(
        messageId,
        index,
        { fileRef: att.fileRef, attempts: att.processing.attempts },
        processing,
      )
    ) {
      return processing;
    }
    // Someone else processed it meanwhile: theirs is the record.
    return (await deps.attachments.processingOf(messageId, index)) ?? processing;
  } catch (err) {
    // Still pending/failed in the store, so the next prompt (or the scheduled retry) tries again.
    deps.log.error({ err, messageId, index }, 'could not store the attachment processing result');
    return processing;
  }
}
