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
  /**
   * Claims a notice that is to be sent once in a while (`key` not claimed in the last `ttlMs`):
   * true for the first caller only. Refusals are told once, not on every message (SPEC §14).
   */
  claimNotice?: (key: string, ttlMs: number) => Promise<boolean>;
  /** DISPLAY_TIMEZONE: how a budget's reset time is shown. */
  timezone?: string;
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
  if (result.kind === 'refused') {
    deps.metrics?.refusal(result.reason);
    if (result.addressed) await tellRefused(deps, result, { locale, replyTo, groupChat: ev.chat.kind === 'group' });
  }
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

/** How long a refusal stays told: a person not let in hears it again a day later; a blocked one hardly ever. */
const TOLD_FOR_MS = { not_admitted: 24 * 3_600_000, blocked: 30 * 24 * 3_600_000 } as const;

/**
 * Tells a refused sender why, once per window: access once a day (blocked: once a month), a
 * spent budget once until it resets, flagged content every time (each message is its own).
 */
async function tellRefused(
  deps: HandleInboundDeps,
  r: Extract<IngestResult, { kind: 'refused' }>,
  o: { locale: Locale; replyTo: string | undefined; groupChat: boolean },
): Promise<void> {
  const told = refusalNotice(r, o.groupChat);
  const shown = text(told.key, o.locale, r.spent ? { resetAt: resetTime(r.spent.resetAt, deps.timezone) } : {});
  const window =
    r.reason === 'budget' && r.spent
      ? { key: `budget:${r.humanId}:${r.spent.resetAt.toISOString()}`, ttlMs: r.spent.resetAt.getTime() - Date.now() }
      : r.reason === 'not_admitted' || r.reason === 'blocked'
        ? { key: `${r.reason}:${r.humanId}:${r.dialogueId}`, ttlMs: TOLD_FOR_MS[r.reason] }
        : undefined;
  const claim = window && deps.claimNotice;
  if (claim && !(await claim(`refusal:${window.key}`, Math.max(1_000, window.ttlMs)))) return;
  await sendNotice(deps, r, shown, r.code, o.replyTo);
}

/** Which notice a refusal gets. */
function refusalNotice(r: Extract<IngestResult, { kind: 'refused' }>, groupChat: boolean): { key: TextKey } {
  switch (r.reason) {
    case 'blocked':
      return { key: 'ACCESS_BLOCKED' };
    case 'not_admitted':
      return { key: groupChat ? 'ACCESS_GROUP_NOT_ADMITTED' : 'ACCESS_NOT_ADMITTED' };
    case 'moderation':
      return { key: 'MODERATION_REFUSED_IN' };
    case 'budget':
      return {
        key:
          r.spent?.cap === 'chat'
            ? 'BUDGET_CHAT'
            : r.spent?.cap === 'deployment'
              ? 'BUDGET_DEPLOYMENT'
              : 'BUDGET_PERSON',
      };
  }
}

/** A reset time as people read it: `2026-12-02 00:00 (Asia/Shanghai)`. */
function resetTime(at: Date, timeZone = 'UTC'): string {
  const wall = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${wall} (${timeZone})`;
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
