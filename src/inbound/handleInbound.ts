// What the gateway does with one inbound event: ingest it and, when ingest refuses the content
// (BR-001), tell the user plainly. The notice is stored as a system message before it is sent.
import { retryTransient } from '../transientRetry.js';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Outbounds } from '../delivery/outbound.js';
import { inboundEventSchema, type InboundEvent, type InboundEventInput } from '../ingest/inboundEvent.js';
import type { PlatformIdentity } from '../domain/model.js';
import { ingest, type IngestDeps, type IngestResult } from '../ingest/ingest.js';
import { pickLocale, text, type Locale, type TextKey } from '../i18n/texts.js';
import { sendNotice } from '../delivery/notice.js';
import { runCommand } from './commandHandlers.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ReplyLease } from '../domain/replyLease.js';

export interface HandleInboundDeps extends IngestDeps {
  store: Store;
  outbounds: Outbounds;
  log: Logger;
  defaultLocale: Locale;
  /** Inbound events by platform, kind and result (duplicates among them). */
  metrics?: Metrics;
  /** Tells the worker generating this dialogue's reply to stop (BR-005). */
  interrupt(dialogueId: string): Promise<void>;
  /** Whether a worker holds the dialogue's reply lease now (a reply is being generated). */
  replyLease: Pick<ReplyLease, 'isHeld'>;
  /** `/link CODE`: links the sender's identity to the web user who was given the code; false when the code is no good. */
  link?(identity: PlatformIdentity, code: string): Promise<boolean>;
  /** Queues the summarise action for a session (`/summary`); the worker answers when done. */
  requestSummary?(
    sessionId: string,
    notify: { messageId: string; dialogueId: string; sessionId: string; locale: Locale; replyTo?: string },
  ): Promise<void>;
}

export async function handleInbound(deps: HandleInboundDeps, raw: InboundEventInput): Promise<IngestResult> {
  const ev = inboundEventSchema.parse(raw);
  const result = await withTransientRetry(() => ingest(deps, ev), deps.log);
  deps.metrics?.inbound(ev.platform, ev.kind, result.kind);
  const locale = pickLocale(ev.kind === 'delete' ? undefined : ev.sender.languageCode, deps.defaultLocale);
  // In a group the notice quotes the message it answers, so people see whom it is for.
  const replyTo = ev.chat.kind === 'group' ? ev.platformMessageId : undefined;
  if (result.kind === 'rejected') await sendNotice(deps, result, text(result.code, locale), result.code, replyTo);
  if (result.kind === 'command') await answerCommand(deps, result, locale, replyTo, ev);
  if (result.kind !== 'accepted')
    deps.log.info(
      {
        platform: ev.platform,
        result: result.kind,
        ...('code' in result ? { code: result.code } : {}),
        ...('reason' in result ? { reason: result.reason } : {}),
      },
      'inbound not answered by the model',
    );
  return result;
}

/** What a command does beyond being recorded: its handler, looked up by name (commandHandlers.ts). */
function answerCommand(
  deps: HandleInboundDeps,
  r: Extract<IngestResult, { kind: 'command' }>,
  locale: Locale,
  replyTo: string | undefined,
  ev: InboundEvent,
): Promise<void> {
  const show = (shown: string, code: string) => sendNotice(deps, r, shown, code, replyTo);
  const say = (key: TextKey) => show(text(key, locale), key);
  return runCommand(r.name, { deps, r, ev, locale, replyTo, say, show });
}

/** Mongo or Redis restarting should delay an update, not lose it (400 ms … 3.2 s between tries). */
const withTransientRetry = <T>(op: () => Promise<T>, log: Logger): Promise<T> =>
  retryTransient(op, {
    attempts: 5,
    baseMs: 400,
    onRetry: (attempt, err) => log.warn({ attempt, err }, 'ingest failed on a transient error; retrying'),
  });
