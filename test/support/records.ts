// Plain records for tests that seed the store directly: the fields every dialogue and session
// needs live here once, so each test states only what it is about.
import type { Dialogue, Platform, Session, Turn } from '../../src/domain/model.js';

export function dialogueRecord(o: {
  id: string;
  humanIds: string[];
  agentIds: string[];
  at: Date;
  platform?: Platform;
  /** The chat on the platform; the dialogue id by default. */
  chatId?: string;
  title?: string;
  currentSessionId?: string;
}): Dialogue {
  return {
    _id: o.id,
    type: 'human_ai',
    chat: { platform: o.platform ?? 'telegram', chatId: o.chatId ?? o.id },
    humanIds: o.humanIds,
    agentIds: o.agentIds,
    ...(o.title ? { title: o.title } : {}),
    status: 'active',
    messageCount: 0,
    ...(o.currentSessionId ? { currentSessionId: o.currentSessionId } : {}),
    lastActivityAt: o.at,
    createdAt: o.at,
    updatedAt: o.at,
  };
}

/** A dialogue session with nothing in it yet. */
export function sessionRecord(o: { id: string; dialogueId: string; at: Date; status?: Session['status'] }): Session {
  return {
    _id: o.id,
    dialogueId: o.dialogueId,
    kind: 'dialogue',
    status: o.status ?? 'open',
    startedAt: o.at,
    lastActivityAt: o.at,
    stats: { messageCount: 0, turnCount: 0 },
  };
}

/**
 * A pending dialogue turn of h-1 answered by a-1 (in d-1, session s-1), started at `startedAt`
 * with a response window of `windowMs`; `overrides` says what the test is about.
 */
export function turnRecord(o: { startedAt: Date; windowMs: number }, overrides: Partial<Turn> = {}): Turn {
  return {
    _id: 't-1',
    dialogueId: 'd-1',
    sessionId: 's-1',
    kind: 'dialogue',
    initiatorRole: 'human',
    initiatorId: 'h-1',
    responderRole: 'ai',
    responderId: 'a-1',
    startedAt: o.startedAt,
    responseWindowMs: o.windowMs,
    deadlineAt: new Date(o.startedAt.getTime() + o.windowMs),
    status: 'pending',
    ...overrides,
  };
}
