// What the gateway does with one inbound event: ingest it and, when ingest refuses the content
// (BR-001), tell the user plainly. The notice is stored as a system message before it is sent.
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { Outbounds } from '../delivery/outbound.js';
import { inboundEventSchema, type InboundEventInput } from '../ingest/inboundEvent.js';
import { ingest, type IngestDeps, type IngestResult } from '../ingest/ingest.js';
import { pickLocale, text, type Locale, type TextKey } from '../i18n/texts.js';
import type { ChatRef } from '../domain/model.js';
import { derivedId } from '../domain/ids.js';
import { answerAllWanted } from '../domain/commands.js';

export interface HandleInboundDeps extends IngestDeps {
  store: Store;
  outbounds: Outbounds;
  log: Logger;
  defaultLocale: Locale;
  /** Tells the worker generating this dialogue's reply to stop (BR-005). */
  interrupt(dialogueId: string): Promise<void>;
}

export async function handleInbound(deps: HandleInboundDeps, raw: InboundEventInput): Promise<IngestResult> {
  const ev = inboundEventSchema.parse(raw);
  const result = await withTransientRetry(() => ingest(deps, ev), deps.log);
  const locale = pickLocale(ev.kind === 'delete' ? undefined : ev.sender.languageCode, deps.defaultLocale);
  // In a group the notice quotes the message it answers, so people see whom it is for.
  const replyTo = ev.chat.kind === 'group' ? ev.platformMessageId : undefined;
  if (result.kind === 'rejected') await sendNotice(deps, result, text(result.code, locale), result.code, replyTo);
  if (result.kind === 'command') await runCommand(deps, result, locale, replyTo);
  if (result.kind !== 'accepted') deps.log.info({ platform: ev.platform, result: result.kind, ...('code' in result ? { code: result.code } : {}), ...('reason' in result ? { reason: result.reason } : {}) }, 'inbound not answered by the model');
  return result;
}

/** What a command does beyond being recorded: stop the reply, or tell the user it was done. */
async function runCommand(deps: HandleInboundDeps, r: Extract<IngestResult, { kind: 'command' }>, locale: Locale, replyTo: string | undefined): Promise<void> {
  const say = (key: TextKey) => sendNotice(deps, r, text(key, locale), key, replyTo);
  switch (r.name) {
    case 'stop':
      if (await deps.store.turns.replyInProgress(r.dialogueId)) await deps.interrupt(r.dialogueId);
      else await say('NOTHING_TO_STOP');
      return;
    case 'start':
      return say('START');
    case 'help':
      return say('HELP');
    case 'new':
      return say('NEW_SESSION');
    case 'answerall':
      if (!r.groupChat) return say('GROUPS_ONLY');
      return say(answerAllWanted(r.args) ? 'ANSWER_ALL_ON' : 'ANSWER_ALL_OFF');
  }
}

/** A system notice answering one inbound message: stored first, then sent (persist before push). */
async function sendNotice(
  deps: HandleInboundDeps,
  r: { messageId: string; dialogueId: string; sessionId: string; chat: ChatRef },
  content: string,
  code: string,
  replyToPlatformMessageId?: string,
): Promise<void> {
  const outbound = deps.outbounds[r.chat.platform];
  const now = new Date();
  const noticeId = derivedId('msg', 'notice', r.messageId);
  const inserted = await deps.store.messages.insertOnce({
    _id: noticeId,
    dialogueId: r.dialogueId,
    sessionId: r.sessionId,
    senderRole: 'system',
    senderId: 'gateway',
    contentType: 'text',
    content,
    mentions: [],
    replyTo: r.messageId,
    visible: true,
    delivery: { state: 'complete', platformMessageIds: [] },
    createdAt: now,
    updatedAt: now,
  });
  if (inserted === 'duplicate' || !outbound) return;
  await deps.store.events.record({ kind: 'system_utterance', dialogueId: r.dialogueId, sessionId: r.sessionId, messageId: noticeId, data: { code, content } });
  const sent = await outbound.send(r.chat, content, replyToPlatformMessageId ? { replyToPlatformMessageId } : {});
  await deps.store.messages.recordPlatformMessage(noticeId, sent.platformMessageId);
}

/** Mongo or Redis restarting should delay an update, not lose it. */
async function withTransientRetry<T>(op: () => Promise<T>, log: Logger, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await op();
    } catch (err) {
      if (i >= attempts || !isTransient(err)) throw err;
      log.warn({ attempt: i, err }, 'ingest failed on a transient error; retrying');
      await new Promise((r) => setTimeout(r, 200 * 2 ** i));
    }
  }
}

function isTransient(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const name = err.name;
  return (
    name === 'MongoNetworkError' ||
    name === 'MongoServerSelectionError' ||
    name === 'MongoNotConnectedError' ||
    // SQLITE_BUSY comes from FerretDB's SQLite backend under write bursts.
    /ECONNREFUSED|ECONNRESET|Connection is closed|ETIMEDOUT|SQLITE_BUSY|database is locked/.test(err.message)
  );
}
