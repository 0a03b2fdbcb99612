// Where an inbound message goes: its person, its dialogue, the dialogue's current session and
// latest turn — or the stored message when it is a redelivery. Called under the dialogue's
// state guard. Every id is derived or hinted, so a known chat costs one round of reads; a new
// chat's documents are built here and stored with its first message (founding.ts).
import type { Agent, ChatRef, Dialogue, DialogueType, Human, Message, Session, Turn } from '../domain/model.js';
import type { PlatformIdentity } from '../domain/model.js';
import type { Store } from '../store/store.js';
import { dialogueIdOf } from '../store/dialogues.js';
import { DEFAULT_AGENT_ID, humanIdOf } from '../store/participants.js';
import { latestTurnOf } from '../store/latestTurn.js';
import { currentSessionFor, type SessionDeps } from '../lifecycle/currentSession.js';
import { foundChat, type Founding } from './founding.js';
import { chatAgentId } from './privateAgent.js';
import type { DialoguePointers, PointerHints } from './pointerHints.js';

export interface ChatPlace {
  human: Human;
  dialogue: Dialogue;
  /** The deployment's default agent, read beside the rest (most dialogues answer with it). */
  defaultAgent: Agent | null;
  session: Session;
  /** A new session was opened for this message. */
  opened: boolean;
  latestTurn: Turn | null;
  /** A new chat: nothing of it is stored yet; its first message stores it (founding.ts). */
  founding?: Founding;
}

/** `stored`: a message already held, with its dialogue as read beside it (null: not stored). */
export type Located =
  { kind: 'stored'; existing: Message; dialogue: Dialogue | null } | ({ kind: 'placed' } & ChatPlace);

export interface LocateDeps extends SessionDeps {
  pointerHints?: PointerHints;
}

/** What `locate` looks for: the message's chat, sender and id. */
export interface LocateQuery {
  chat: ChatRef;
  identity: PlatformIdentity;
  type: DialogueType;
  messageId: string;
  now: Date;
  /** The message is known to be stored and is being placed again (no dedupe read). */
  replacing?: boolean;
}

export async function locate(deps: LocateDeps, o: LocateQuery): Promise<Located> {
  const { store } = deps;
  const dialogueId = dialogueIdOf(o.chat);
  const hint = deps.pointerHints?.get(dialogueId);
  const [existing, knownHuman, knownDialogue, defaultAgent, hinted] = await Promise.all([
    o.replacing ? null : store.messages.get(o.messageId),
    store.participants.getHuman(humanIdOf(o.identity)),
    store.dialogues.get(dialogueId),
    store.participants.getAgent(DEFAULT_AGENT_ID),
    readHinted(store, hint),
  ]);
  if (existing) return { kind: 'stored', existing, dialogue: knownDialogue };
  if (!knownDialogue) {
    const human = knownHuman ? await store.participants.resolveHuman(o.identity, o.now, knownHuman) : null;
    const founding = foundChat({ ...o, agentId: chatAgentId(o.chat, DEFAULT_AGENT_ID), human });
    const { dialogue, session } = founding;
    return {
      kind: 'placed',
      human: founding.human,
      dialogue,
      defaultAgent,
      session,
      opened: true,
      latestTurn: null,
      founding,
    };
  }
  const init = {
    type: o.type,
    humanId: humanIdOf(o.identity),
    agentId: chatAgentId(o.chat, DEFAULT_AGENT_ID),
    at: o.now,
  };
  const [human, dialogue, where] = await Promise.all([
    store.participants.resolveHuman(o.identity, o.now, knownHuman),
    store.dialogues.resolve(o.chat, init, knownDialogue),
    sessionAndTurn(deps, knownDialogue, { hint, hinted, now: o.now }),
  ]);
  return { kind: 'placed', human, dialogue, defaultAgent, ...where };
}

type Where = Pick<ChatPlace, 'session' | 'opened' | 'latestTurn'>;

/** A known dialogue's session (continued, or rolled over) and latest turn: as hinted if the pointers agree. */
async function sessionAndTurn(
  deps: SessionDeps,
  dialogue: Dialogue,
  o: { hint: DialoguePointers | undefined; hinted: Hinted; now: Date },
): Promise<Where> {
  const { store } = deps;
  const { hint, hinted } = o;
  const sessionId = dialogue.currentSessionId;
  const [current, latestTurn] = await Promise.all([
    sessionId && sessionId === hint?.sessionId ? hinted.session : sessionId ? store.sessions.get(sessionId) : null,
    typeof dialogue.openTurnId === 'string' && dialogue.openTurnId === hint?.openTurnId
      ? hinted.turn
      : latestTurnOf(store, dialogue),
  ]);
  const { session, opened } = await currentSessionFor(deps, dialogue, o.now, current);
  return { session, opened, latestTurn };
}

interface Hinted {
  session: Session | null;
  turn: Turn | null;
}

/** The session and turn the hint names (nothing without one), read beside the dialogue. */
async function readHinted(store: Store, hint: DialoguePointers | undefined): Promise<Hinted> {
  if (!hint) return { session: null, turn: null };
  const [session, turn] = await Promise.all([
    store.sessions.get(hint.sessionId),
    hint.openTurnId ? store.turns.get(hint.openTurnId) : null,
  ]);
  return { session, turn };
}
