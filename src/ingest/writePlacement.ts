// Writes what placement.ts decided about an inbound message: the message, its turn (or the
// room's round), the counters and pointers it moves, the reply job. Runs under the dialogue's
// state guard, the message having just been read as absent, so independent writes go out
// together; every document is addressed by `_id` (SPEC §3).
import type { ChatRef, Message, Turn } from '../domain/model.js';
import type { ReplyHints } from '../domain/replyJob.js';
import { expiryCheckAt, requireTurnAgent, turnHumanId } from '../domain/turnRules.js';
import { windowWith } from '../domain/windowRules.js';
import { startRoomRound } from '../rooms/roomFlow.js';
import type { ChatPlace } from './chatPlace.js';
import { actOnCommandAtIngest } from './commandEffects.js';
import { storeFounding, type FirstMessage, type Founded } from './founding.js';
import type { IngestDeps, IngestResult } from './ingest.js';
import type { Placement } from './placement.js';

/** Where the decided message is written: its chat's documents as read, and what this ingest holds. */
export interface Writing {
  deps: IngestDeps;
  place: ChatPlace;
  chat: ChatRef;
  messageId: string;
  /** The stored copy this message replaces, when it is placed again (storedMessage.ts). */
  orphan: Message | undefined;
  albumId: string | undefined;
  /** The guard hold's generation, when nothing may be written after this (the reply's hand-off). */
  generation?: number;
  now: Date;
}

/** A turn this message opens, with the writes that store it (sent with the message's). */
interface Opening {
  turn: Turn;
  writes: ReadonlyArray<() => Promise<unknown>>;
}

/** Performs the placement's writes, in the order ingest has always made them. */
export async function writePlacement(w: Writing, p: Placement): Promise<IngestResult> {
  switch (p.kind) {
    case 'own_echo':
      return { kind: 'ignored', reason: 'own_bot' };
    case 'command':
      return writeCommand(w, p);
    case 'context_only':
      return (await storeOutsideTurn(w, p.message)) ? { kind: 'context', ...placed(w) } : duplicate(w);
    case 'rejected':
      return (await storeOutsideTurn(w, p.message)) ? { kind: 'rejected', code: p.code, ...placed(w) } : duplicate(w);
    case 'refused': {
      const { reason, code, addressed } = p;
      const told = { reason, code, addressed, humanId: w.place.human._id, ...(p.spent ? { spent: p.spent } : {}) };
      return (await storeOutsideTurn(w, p.message)) ? { kind: 'refused', ...told, ...placed(w) } : duplicate(w);
    }
    case 'room':
      return writeRound(w, p);
    case 'turn':
      return writeTurn(w, p);
  }
}

/** The ids every stored placement reports. */
const placed = (w: Writing) => ({
  messageId: w.messageId,
  dialogueId: w.place.dialogue._id,
  sessionId: w.place.session._id,
  chat: w.chat,
});

/** The message was stored meanwhile: this delivery is a duplicate. */
const duplicate = (w: Writing): IngestResult => ({ kind: 'duplicate', messageId: w.messageId });

/** A command: stored, then what it changes at once (commandEffects.ts: `/new`, `/answerall`). */
async function writeCommand(w: Writing, p: Extract<Placement, { kind: 'command' }>): Promise<IngestResult> {
  const { deps, place, now } = w;
  if (!(await storeOutsideTurn(w, p.message))) return duplicate(w);
  const call = { deps, dialogueId: place.dialogue._id, session: place.session, groupChat: p.groupChat, now };
  await actOnCommandAtIngest(call, p.name, p.args);
  const who = { humanId: place.human._id, admitted: p.admitted };
  return { kind: 'command', name: p.name, args: p.args, groupChat: p.groupChat, ...who, ...placed(w) };
}

/** A room's new round: its first ask is the message's turn; no round can start, it is context. */
async function writeRound(w: Writing, p: Extract<Placement, { kind: 'room' }>): Promise<IngestResult> {
  const { message } = p;
  const opened = await startRoomRound(w.deps, {
    room: p.room,
    sessionId: w.place.session._id,
    trigger: { messageId: message._id, senderId: message.senderId },
    mentions: p.mentions,
    now: w.now,
  });
  if (!opened) return (await storeOutsideTurn(w, message)) ? { kind: 'context', ...placed(w) } : duplicate(w);
  const turnId = opened.turn._id;
  return storeInTurn(w, { ...message, turnId }, turnId, p.title, { turn: opened.turn, writes: opened.writes });
}

/** A message of an ordinary turn: the AI's turn it answers closes first; a new turn is stored with it. */
async function writeTurn(w: Writing, p: Extract<Placement, { kind: 'turn' }>): Promise<IngestResult> {
  const { store, scheduler } = w.deps;
  if (p.closes) await store.turns.closeResponded(p.closes, w.now, { responseMessageId: w.messageId });
  const turn = p.opens;
  const opening = turn && {
    turn,
    writes: [() => store.turns.insert(turn), () => scheduler.expireTurnAt(turn._id, expiryCheckAt(turn))],
  };
  const turnId = turn?._id ?? p.message.turnId;
  if (!turnId) throw new Error(`message ${w.messageId} was placed in no turn`);
  return storeInTurn(w, p.message, turnId, p.title, opening);
}

/** Stores a message that opens no turn (command, refused input, group context); false: stored already. */
async function storeOutsideTurn(w: Writing, message: Message): Promise<boolean> {
  await found(w, { message });
  // Under the guard and just read as absent, so the counters go out with the insert.
  const [inserted] = await Promise.all([w.deps.store.messages.insertOnce(message), ...counters(w, { turns: 0 })]);
  remember(w);
  return inserted === 'inserted';
}

/** Stores a message of a turn with the counters and pointers (`opening`: a new turn, the dialogue's latest). */
async function storeInTurn(
  w: Writing,
  message: Message,
  turnId: string,
  title: string | undefined,
  opening: Opening | undefined,
): Promise<IngestResult> {
  const { deps, orphan, now } = w;
  const opensTurn = opening !== undefined;
  const founded = await found(w, { message, ...(opensTurn ? { turnId } : {}), ...(title ? { title } : {}) });
  // Under the guard and just read as absent: the message, its turn, the counters and the
  // pointers are independent writes and go out together.
  const [inserted] = await Promise.all([
    orphan
      ? deps.store.messages.reassignTurn(orphan, turnId, now).then(() => 'inserted' as const)
      : deps.store.messages.insertOnce(message),
    ...(opening?.writes ?? []).map((write) => write()),
    ...counters(w, {
      turns: opensTurn ? 1 : 0,
      ...(opensTurn ? { openTurnId: turnId } : {}),
      ...(title ? { title } : {}),
    }),
  ]);
  remember(w, opensTurn ? turnId : undefined);
  if (inserted === 'duplicate') return duplicate(w);
  handOver(w, founded, opening?.turn, message);
  // Once the turn is stored: the job reads it. An album's reply waits a moment so its other
  // items join the message first.
  await deps.enqueueReply({
    turnId,
    dialogueId: w.place.dialogue._id,
    hints: hintsOf(w.place.session._id, opening?.turn),
    ...(w.albumId && deps.albumSettleMs ? { delayMs: deps.albumSettleMs } : {}),
  });
  return { kind: 'accepted', turnId, ...placed(w) };
}

/** A new chat is stored with its first message, before the message itself. */
function found(w: Writing, first: FirstMessage): Promise<Founded | undefined> {
  const { founding } = w.place;
  return founding ? storeFounding(w.deps, founding, first) : Promise.resolve(undefined);
}

/** The dialogue's turn pointer before this message: a dialogue without it yet (a new one) gets it now. */
function pointerOf(place: ChatPlace): { set: boolean; openTurnId: string | null } {
  const { dialogue, latestTurn } = place;
  if (dialogue.openTurnId === undefined) return { set: true, openTurnId: latestTurn?._id ?? null };
  return { set: false, openTurnId: dialogue.openTurnId };
}

/**
 * The message counted on its person, session and dialogue, with the pointers it moves. A new
 * chat's documents were stored already holding it (founding.ts): nothing more to write.
 */
function counters(w: Writing, o: { turns: number; openTurnId?: string; title?: string }): Array<Promise<unknown>> {
  const { deps, place, now } = w;
  const { human, dialogue, session } = place;
  if (place.founding) return [];
  const pointer = pointerOf(place);
  return [
    // A new session is one more visit (the persona card's count).
    place.opened ? deps.store.participants.noteVisit(human, dialogue.agentIds, now) : Promise.resolve(),
    deps.store.sessions.touch(session, now, { messages: 1, turns: o.turns }),
    deps.store.dialogues.noteActivity(dialogue._id, {
      at: now,
      currentSessionId: session._id,
      messages: 1,
      ...(pointer.set ? { openTurnId: pointer.openTurnId } : {}),
      ...(o.openTurnId ? { openTurnId: o.openTurnId } : {}),
      ...(o.title ? { title: o.title } : {}),
    }),
  ];
}

/** The pointers as this message leaves them, for the chat's next message (`opened`: the turn it opened). */
function remember(w: Writing, opened?: string): void {
  const { dialogue, session } = w.place;
  w.deps.pointerHints?.set(dialogue._id, {
    sessionId: session._id,
    openTurnId: opened ?? pointerOf(w.place).openTurnId,
  });
}

/** A new chat's reply, if it starts in this process next, begins from what was just stored (replyHandoff.ts). */
function handOver(w: Writing, founded: Founded | undefined, turn: Turn | undefined, message: Message): void {
  if (!founded?.window || !turn || w.orphan || w.generation === undefined) return;
  const { dialogue, session, window } = founded;
  w.deps.store.handoff.leave(w.generation, { turn, dialogue, session, window: windowWith(window, message) });
}

/** What the reply may read beside the turn: its session, and a new turn's parties. */
function hintsOf(sessionId: string, turn: Turn | undefined): ReplyHints {
  if (!turn) return { sessionId };
  const humanId = turnHumanId(turn);
  return { sessionId, agentId: requireTurnAgent(turn), ...(humanId ? { humanId } : {}) };
}
