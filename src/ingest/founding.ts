// A new chat's first message. Its dialogue, first session and that session's window (and the
// person, when new too) are created already counting and pointing at the message, so the
// message's own round of writes is the message, its window entry and its turn alone: three
// writes fewer than creating them empty and then updating each with the message. They are
// stored before the message, as before, so a stored message always has its dialogue and session;
// the window is created empty and takes the message once it is stored (MessageRepo.insertOnce).
import type {
  Dialogue,
  DialogueType,
  Human,
  Message,
  PlatformIdentity,
  Session,
  SessionWindow,
} from '../domain/model.js';
import type { ChatRef } from '../domain/model.js';
import { sessionIdleCheckAt } from '../domain/sessionRules.js';
import { newDialogue } from '../store/dialogues.js';
import { humanIdOf, newHuman } from '../store/participants.js';
import { newSession } from '../store/sessions.js';
import type { SessionDeps } from '../lifecycle/currentSession.js';

/** What a new chat's first message creates, built before anything is written. */
export interface Founding {
  identity: PlatformIdentity;
  /** The person as they speak here (stored, or `newHuman`). */
  human: Human;
  /** The person, seen for the first time (absent: already stored). */
  newHuman?: Human;
  dialogue: Dialogue;
  session: Session;
}

/** The documents of a new chat (`human`: the person as read, null when new). Nothing is written. */
export function foundChat(o: {
  chat: ChatRef;
  identity: PlatformIdentity;
  type: DialogueType;
  agentId: string;
  human: Human | null;
  now: Date;
}): Founding {
  const human = o.human ?? newHuman(o.identity, o.now);
  // The identity's own person, as `dialogues.resolve` lists it (a linked identity's person speaks).
  const humanId = humanIdOf(o.identity);
  const dialogue = newDialogue(o.chat, { type: o.type, humanId, agentId: o.agentId, at: o.now });
  const session = newSession(dialogue._id, 'dialogue', o.now);
  return { identity: o.identity, human, ...(o.human ? {} : { newHuman: human }), dialogue, session };
}

/** What the first message makes of the new chat. */
export interface FirstMessage {
  message: Message;
  /** The turn it opens (none: a command, or kept outside any turn). */
  turnId?: string;
  title?: string;
}

/** The new chat's documents as stored (the window: undefined when a retry found one). */
export interface Founded {
  dialogue: Dialogue;
  session: Session;
  window: SessionWindow | undefined;
}

/** Stores the new chat as its first message leaves it; the caller then stores the message and its turn. */
export async function storeFounding(deps: SessionDeps, f: Founding, first: FirstMessage): Promise<Founded> {
  const { store } = deps;
  const { message } = first;
  const at = message.createdAt;
  const dialogue: Dialogue = {
    ...f.dialogue,
    messageCount: 1,
    currentSessionId: f.session._id,
    openTurnId: first.turnId ?? null,
    ...(first.title ? { title: first.title } : {}),
    lastActivityAt: at,
    updatedAt: at,
  };
  const session: Session = {
    ...f.session,
    lastActivityAt: at,
    stats: { messageCount: 1, turnCount: first.turnId ? 1 : 0 },
  };
  const [, , window] = await Promise.all([
    storeVisitor(deps, f, dialogue.agentIds, at),
    store.dialogues.insert(dialogue),
    store.sessions.insert(session),
    deps.scheduler.checkSessionAt(session._id, sessionIdleCheckAt(at, deps.sessionGapMs)),
  ]);
  return { dialogue, session, window };
}

/** The person with this first session counted as a visit (a new person is stored with it). */
async function storeVisitor(deps: SessionDeps, f: Founding, agentIds: string[], at: Date) {
  const visits = Object.fromEntries(agentIds.map((a) => [a, { count: 1 }]));
  if (f.newHuman && (await deps.store.participants.insertHuman({ ...f.newHuman, visits }))) return;
  // Known, or stored meanwhile by another chat of theirs: counted like any new session.
  const human = f.newHuman ? await deps.store.participants.resolveHuman(f.identity, at) : f.human;
  await deps.store.participants.noteVisit(human, agentIds, at);
}
