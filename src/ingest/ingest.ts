// Ingest (SPEC §4.1): validate, deduplicate, store, resolve dialogue/session/turn, enqueue.
// Runs in the adapter process and touches only the store and the queue.
import type { Store } from '../store/store.js';
import type { ChatRef, Message } from '../domain/model.js';
import { checkInboundText } from '../domain/content.js';
import { decideSession } from '../domain/sessionRules.js';
import { newTurn, placeInitiatorMessage } from '../domain/turnRules.js';
import { dialogueTypeOf } from '../domain/dialogueType.js';
import { titleFromFirstMessage } from '../domain/title.js';
import { derivedId, newId } from '../domain/ids.js';
import { DEFAULT_AGENT_ID, humanIdOf } from '../store/participants.js';
import type { InboundEvent, InboundMessage } from './inboundEvent.js';
import type { Scheduler } from '../lifecycle/scheduler.js';
import { parseCommand } from '../domain/commands.js';
import { expiryCheckAt } from '../domain/turnRules.js';
import { sessionIdleCheckAt } from '../domain/sessionRules.js';

export interface IngestDeps {
  store: Store;
  enqueueReply(job: { turnId: string; dialogueId: string }): Promise<void>;
  scheduler: Scheduler;
  sessionGapMs: number;
  responseWindowMs: number;
  now?: () => Date;
}

export type IngestResult =
  | { kind: 'accepted'; messageId: string; turnId: string; dialogueId: string; chat: ChatRef }
  | { kind: 'duplicate'; messageId: string }
  | { kind: 'command'; name: 'stop'; messageId: string; dialogueId: string; sessionId: string; chat: ChatRef }
  | { kind: 'rejected'; code: 'MESSAGE_CONTENT_REQUIRED' | 'MESSAGE_TOO_LONG'; messageId: string; dialogueId: string; sessionId: string; chat: ChatRef }
  | { kind: 'ignored'; reason: 'own_bot' | 'group_not_supported_yet' | 'not_yet' };

export async function ingest(deps: IngestDeps, ev: InboundEvent): Promise<IngestResult> {
  if (ev.kind !== 'message') return { kind: 'ignored', reason: 'not_yet' };
  return ingestMessage(deps, ev);
}

async function ingestMessage(deps: IngestDeps, ev: InboundMessage): Promise<IngestResult> {
  const { store } = deps;
  const now = deps.now?.() ?? new Date();
  if (ev.sender.isBot) return { kind: 'ignored', reason: 'own_bot' };
  if (ev.chat.kind !== 'private') return { kind: 'ignored', reason: 'group_not_supported_yet' };

  const platformRef = { platform: ev.platform, chatId: ev.chat.chatId, messageId: ev.platformMessageId };
  // The message id is derived from its platform reference, so the dedupe check is a lookup by
  // _id (the unique platformRef index stays as the guard against races).
  const messageId = derivedId('msg', platformRef.platform, platformRef.chatId, platformRef.messageId);
  const existing = await store.messages.get(messageId);
  if (existing) {
    // A redelivered update: answer it at most once. If its job was lost, enqueueing again is
    // harmless because the job id is derived from the turn.
    if (existing.turnId) {
      const turn = await store.turns.get(existing.turnId);
      if (turn?.status === 'pending') await deps.enqueueReply({ turnId: turn._id, dialogueId: turn.dialogueId });
    }
    return { kind: 'duplicate', messageId: existing._id };
  }

  const chat: ChatRef = { platform: ev.platform, chatId: ev.chat.chatId, ...(ev.chat.threadId ? { threadId: ev.chat.threadId } : {}) };
  const identity = { platform: ev.platform, userId: ev.sender.userId, username: ev.sender.username, displayName: ev.sender.displayName };
  const type = dialogueTypeOf({ humans: 1, agents: 1, groupChat: false }) ?? 'human_ai';
  // Human ids are derived from the identity, so both upserts can go out at once.
  const [human, dialogue] = await Promise.all([
    store.participants.resolveHuman(identity, now),
    store.dialogues.resolve(chat, { type, humanId: humanIdOf(identity), agentId: DEFAULT_AGENT_ID, at: now }),
  ]);

  const current = dialogue.currentSessionId ? await store.sessions.get(dialogue.currentSessionId) : null;
  const decision = decideSession(current, now, deps.sessionGapMs);
  let sessionId: string;
  if (decision.action === 'continue') {
    sessionId = decision.sessionId;
  } else {
    if (decision.action === 'rollover') await store.sessions.close(decision.closeSessionId, 'timeout', decision.closedAt);
    sessionId = (await store.sessions.open(dialogue._id, 'dialogue', now))._id;
    await deps.scheduler.checkSessionAt(sessionId, sessionIdleCheckAt(now, deps.sessionGapMs));
  }

  const base: Message = {
    _id: messageId,
    dialogueId: dialogue._id,
    sessionId,
    senderRole: 'human',
    senderId: human._id,
    contentType: 'text',
    content: ev.text ?? '',
    mentions: [],
    visible: true,
    platformRef,
    sentAt: ev.sentAt,
    createdAt: now,
    updatedAt: now,
  };

  const command = parseCommand(ev.text);
  if (command?.name === 'stop') {
    // BR-005: a stop request is recorded, never answered by the model.
    const inserted = await store.messages.insertOnce({ ...base, contentType: 'command', content: ev.text?.trim() ?? '/stop' });
    if (inserted === 'duplicate') return { kind: 'duplicate', messageId };
    await store.dialogues.noteActivity(dialogue._id, { at: now, currentSessionId: sessionId, messages: 1 });
    await store.sessions.touch(sessionId, now, { messages: 1, turns: 0 });
    return { kind: 'command', name: 'stop', messageId, dialogueId: dialogue._id, sessionId, chat };
  }

  const check = checkInboundText(ev.text);
  if (!check.ok) {
    // Kept for the record (nothing is lost), but it opens no turn and reaches no LLM.
    const inserted = await store.messages.insertOnce({ ...base, rejected: { code: check.code } });
    if (inserted === 'duplicate') return { kind: 'duplicate', messageId };
    await store.dialogues.noteActivity(dialogue._id, { at: now, currentSessionId: sessionId, messages: 1 });
    await store.sessions.touch(sessionId, now, { messages: 1, turns: 0 });
    return { kind: 'rejected', code: check.code, messageId, dialogueId: dialogue._id, sessionId, chat };
  }

  const openHumanTurn = async (): Promise<string> => {
    const turn = newTurn({
      id: newId('trn', now),
      dialogueId: dialogue._id,
      sessionId,
      initiator: { role: 'human', id: human._id },
      responder: { role: 'ai', id: DEFAULT_AGENT_ID },
      startedAt: now,
      responseWindowMs: deps.responseWindowMs,
    });
    await Promise.all([store.turns.insert(turn), deps.scheduler.expireTurnAt(turn._id, expiryCheckAt(turn))]);
    return turn._id;
  };

  const openTurn = decision.action === 'continue' ? await store.turns.openIn(sessionId) : null;
  const placement = placeInitiatorMessage(openTurn, { role: 'human', id: human._id });
  let turnId: string;
  let openedTurn = placement.action === 'open';
  if (placement.action === 'join') {
    turnId = placement.turnId;
  } else {
    if (placement.respondsTo && openTurn) {
      await store.turns.closeResponded(openTurn, now, { responseMessageId: messageId });
    }
    turnId = await openHumanTurn();
  }

  const inserted = await store.messages.insertOnce({ ...base, content: check.text, turnId });
  if (inserted === 'duplicate') return { kind: 'duplicate', messageId };
  if (placement.action === 'join' && (await store.turns.get(turnId))?.replyStartedAt) {
    // The reply started between our read of the turn and our insert, so its prompt may not
    // hold this message: give the message a turn of its own rather than risk leaving it
    // unanswered (at worst it is answered twice, never lost).
    turnId = await openHumanTurn();
    openedTurn = true;
    await store.messages.moveToTurn(messageId, turnId);
  }
  // Independent writes: counters, activity and the job go out together.
  await Promise.all([
    store.sessions.touch(sessionId, now, { messages: 1, turns: openedTurn ? 1 : 0 }),
    store.dialogues.noteActivity(dialogue._id, {
      at: now,
      currentSessionId: sessionId,
      messages: 1,
      ...(dialogue.title ? {} : { title: titleFromFirstMessage(check.text) }),
    }),
    deps.enqueueReply({ turnId, dialogueId: dialogue._id }),
  ]);
  return { kind: 'accepted', messageId, turnId, dialogueId: dialogue._id, chat };
}
