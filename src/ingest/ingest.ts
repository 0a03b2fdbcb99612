// Ingest (SPEC §4.1): validate, deduplicate, store, resolve dialogue/session/turn, decide who
// must answer (§7), enqueue. Runs in the adapter process and touches only the store and queue.
import type { Store } from '../store/store.js';
import type { Agent, Attachment, ChatRef, ContentMeta, Dialogue, Message, Quote, Turn } from '../domain/model.js';
import { checkInboundText, type ContentCheck } from '../domain/content.js';
import {
  expiryCheckAt,
  missedByReply,
  newTurn,
  placeInitiatorMessage,
  pointerBehind,
  requireTurnAgent,
  turnHumanId,
} from '../domain/turnRules.js';
import { dialogueTypeOf } from '../domain/dialogueType.js';
import { titleFromFirstMessage } from '../domain/title.js';
import { newId } from '../domain/ids.js';
import { inboundContentType } from '../domain/contentType.js';
import { activation } from '../domain/activation.js';
import { whoAnswers } from '../domain/floor.js';
import { DEFAULT_AGENT_ID } from '../store/participants.js';
import { chatRefOf, type InboundAttachment, type InboundEvent, type InboundMessage } from './inboundEvent.js';
import { withChosenAgent } from './privateAgent.js';
import type { Scheduler } from '../lifecycle/scheduler.js';
import { answerAllWanted, parseCommand } from '../domain/commands.js';
import { dialogueIdOf } from '../store/dialogues.js';
import { guardKeys } from '../store/stateGuard.js';
import { startNewSession } from '../lifecycle/currentSession.js';
import { addressCheck, isOwnEcho, mentionIds } from './addressing.js';
import { resolveQuote } from './quote.js';
import { albumMessageIdOf, messageIdOf } from './messageIds.js';
import { ingestDelete, ingestEdit } from './edits.js';
import { placeInRoom } from './roomIngest.js';
import { ROOM_COMMANDS } from '../rooms/roomCommands.js';
import type { PointerHints } from './pointerHints.js';
import { locate } from './chatPlace.js';
import { storeFounding, type FirstMessage, type Founded } from './founding.js';
import { belongsInWindow, windowWith } from '../domain/windowRules.js';
import type { ReplyHints, ReplyJob } from '../domain/replyJob.js';

export type { ReplyJob } from '../domain/replyJob.js';

export interface IngestDeps {
  store: Store;
  enqueueReply(job: ReplyJob): Promise<void>;
  scheduler: Scheduler;
  sessionGapMs: number;
  responseWindowMs: number;
  /** How long the reply to a Telegram album waits for the album's other items. */
  albumSettleMs?: number;
  /** This process's last view of each chat's pointers: a known chat's reads go out in one round trip. */
  pointerHints?: PointerHints;
  now?: () => Date;
}

/** Commands a user can send (SPEC §7); anything else starting with "/" is ordinary text. */
export const COMMANDS = [
  'stop',
  'start',
  'help',
  'new',
  'summary',
  'answerall',
  'link',
  'background',
  'agents',
  'agent',
  ...ROOM_COMMANDS,
] as const;
export type CommandName = (typeof COMMANDS)[number];

interface Placed {
  messageId: string;
  dialogueId: string;
  sessionId: string;
  chat: ChatRef;
}

export type IngestResult =
  | ({ kind: 'accepted'; turnId: string } & Placed)
  | { kind: 'duplicate'; messageId: string }
  | ({ kind: 'command'; name: CommandName; args: string; groupChat: boolean } & Placed)
  | ({ kind: 'rejected'; code: 'MESSAGE_CONTENT_REQUIRED' | 'MESSAGE_TOO_LONG' } & Placed)
  /** Stored as group context; nobody was addressed, so nobody answers. */
  | ({ kind: 'context' } & Placed)
  /** A later item of a Telegram album, added to the album's message. */
  | { kind: 'album_item'; messageId: string }
  | { kind: 'edited'; messageId: string }
  | { kind: 'deleted'; messageId: string }
  | { kind: 'ignored'; reason: 'own_bot' | 'unknown_message' | 'unchanged' };

export async function ingest(deps: IngestDeps, ev: InboundEvent): Promise<IngestResult> {
  if (ev.kind === 'edit') return ingestEdit(deps.store, ev);
  if (ev.kind === 'delete') return ingestDelete(deps.store, ev);
  return ingestMessage(deps, ev);
}

const toAttachment = (a: InboundAttachment, at: Date): Attachment => ({
  ...a,
  processing: { state: 'pending', attempts: 0, updatedAt: at },
});

/** BR-001 applies to the text; a media message may come without any. */
function checkContent(ev: InboundMessage): ContentCheck {
  if (ev.attachments.length > 0 && (ev.text ?? '').trim() === '') return { ok: true, text: '' };
  return checkInboundText(ev.text);
}

async function ingestMessage(deps: IngestDeps, ev: InboundMessage): Promise<IngestResult> {
  if (isOwnEcho(ev)) return { kind: 'ignored', reason: 'own_bot' };
  // A private chat whose person chose an agent goes to that agent's dialogue: read before the
  // guard, whose key is that dialogue's.
  const chat = await withChosenAgent(deps.store, chatRefOf(ev), ev.chat.kind);
  // Ids derive from the platform reference (or the album), so dedupe is a lookup by _id.
  const albumId = ev.mediaGroupId ? albumMessageIdOf(chat, ev.mediaGroupId) : undefined;
  const messageId = albumId ?? messageIdOf(chat, ev.platformMessageId);
  // Deduplicating and placing the message (session, turn, pointers, window) is one decision
  // under the dialogue's state guard: a redelivery racing the original sees it stored, and a
  // reply that starts meanwhile either sees this message or it opens the next turn.
  const jobs: ReplyJob[] = [];
  const collecting: IngestDeps = { ...deps, enqueueReply: (job) => Promise.resolve(void jobs.push(job)) };
  const result = await deps.store.guard.run(guardKeys.dialogue(dialogueIdOf(chat)), (hold) =>
    placeMessage(collecting, ev, {
      chat,
      messageId,
      albumId,
      // Read under the guard: the chat's messages and replies are then dated in the order they
      // were placed and read, so a reply sorts after every message its prompt held (issue 35).
      now: deps.now?.() ?? new Date(),
      // An outer hold may write more after this one's documents: nothing is left for the reply then.
      ...(hold.reentered ? {} : { generation: hold.generation }),
    }),
  );
  // Queued once the guard is free: the reply's start takes the same guard, and would otherwise
  // wait for this ingest to let go of it. A job lost to a crash here is queued again by the
  // redelivered update or the sweeper.
  for (const job of jobs) await deps.enqueueReply(job);
  return result;
}

/** The turn a stored message names: null when it names one that was never stored, undefined when none. */
async function turnOf(store: Store, existing: Message): Promise<Turn | null | undefined> {
  return existing.turnId ? store.turns.get(existing.turnId) : undefined;
}

/** A message we already hold: an album's next item, or a redelivered update (answered at most once). */
async function ingestKnown(
  deps: IngestDeps,
  ev: InboundMessage,
  existing: Message,
  o: { albumId: string | undefined; now: Date; turn: Turn | undefined; dialogue: Dialogue | null },
): Promise<IngestResult> {
  const { store } = deps;
  if (o.albumId && existing.platformRef?.messageId !== ev.platformMessageId) {
    await store.messages.appendAlbumItems(
      existing,
      ev.attachments.map((a) => toAttachment(a, o.now)),
      ev.text?.trim() || undefined,
      o.now,
    );
    return { kind: 'album_item', messageId: o.albumId };
  }
  if (o.turn?.status === 'pending') {
    // The message and its window entry are written together; if the server died between the
    // two, the reply would read a window without it. Put back while the reply has not read it.
    if (!o.turn.replyStartedAt && belongsInWindow(existing)) await store.windows.put(existing, o.now);
    if (o.dialogue) await pointAtTurn(store, o.dialogue, o.turn);
    // If its job was lost, enqueueing again is harmless: the job id is derived from the turn.
    await deps.enqueueReply({ turnId: o.turn._id, dialogueId: o.turn.dialogueId });
  }
  return { kind: 'duplicate', messageId: existing._id };
}

/** Moves the dialogue's turn and session pointers to this turn if they lag behind it (`pointerBehind`). */
async function pointAtTurn(store: Store, dialogue: Dialogue, turn: Turn): Promise<void> {
  const pointer = dialogue.openTurnId;
  if (pointer === undefined || pointer === turn._id) return; // undefined: rebuilt on the next read (latestTurn.ts)
  const pointed = pointer === null ? null : await store.turns.get(pointer);
  if (pointerBehind(pointed, turn)) await store.dialogues.setOpenTurn(dialogue._id, turn._id, turn.sessionId);
}

async function placeMessage(
  deps: IngestDeps,
  ev: InboundMessage,
  o: { chat: ChatRef; messageId: string; albumId: string | undefined; now: Date; generation?: number },
): Promise<IngestResult> {
  const { store } = deps;
  const { chat, messageId, albumId, now } = o;
  const identity = {
    platform: ev.platform,
    userId: ev.sender.userId,
    username: ev.sender.username,
    displayName: ev.sender.displayName,
  };
  const groupChat = ev.chat.kind === 'group';
  const type = dialogueTypeOf({ humans: 1, agents: 1, groupChat }) ?? 'human_ai';
  let located = await locate(deps, { chat, identity, type, messageId, now });
  // A message stored with a turn that never was, or that its turn's reply never read (the server
  // died between its writes), is placed again, as if new; anything else already stored is a
  // redelivery or an album's item.
  const stored = located.kind === 'stored' ? located.existing : undefined;
  const storedTurn = stored ? await turnOf(store, stored) : undefined;
  const lost = storedTurn === null || (stored && storedTurn && missedByReply(storedTurn, stored._id));
  const orphan = lost ? stored : undefined;
  if (located.kind === 'stored' && !orphan)
    return ingestKnown(deps, ev, located.existing, {
      albumId,
      now,
      turn: storedTurn ?? undefined,
      dialogue: located.dialogue,
    });
  if (orphan) located = await locate(deps, { chat, identity, type, messageId, now, replacing: true });
  if (located.kind === 'stored') throw new Error(`message ${messageId} could not be placed again`);
  const { human, dialogue, session, opened, latestTurn, founding } = located;
  const agent = await dialogueAgent(store, dialogue, located.defaultAgent);
  const sessionId = session._id;
  // Written with the message: a new session is one more visit (the persona card's count).
  const visit = opened ? () => store.participants.noteVisit(human, dialogue.agentIds, now) : () => Promise.resolve();
  const placed: Placed = { messageId, dialogueId: dialogue._id, sessionId, chat };

  const quote = await resolveQuote(store, chat, dialogue._id, ev);
  const base = inboundMessage(ev, { messageId, dialogueId: dialogue._id, sessionId, humanId: human._id, quote, now });
  // A dialogue without the pointer yet (a new one) gets it with this activity.
  const pointer = dialogue.openTurnId === undefined ? { openTurnId: latestTurn?._id ?? null } : {};
  const openTurnId = dialogue.openTurnId === undefined ? (latestTurn?._id ?? null) : dialogue.openTurnId;
  /** The pointers as this message leaves them, for the chat's next message. */
  const remember = (opened?: string) =>
    deps.pointerHints?.set(dialogue._id, { sessionId, openTurnId: opened ?? openTurnId });
  /**
   * The message counted on its person, session and dialogue, with the pointers it moves. A new
   * chat's documents were stored already holding it (founding.ts): nothing more to write.
   */
  const counters = (o: { turns: number; openTurnId?: string; title?: string }): Array<Promise<unknown>> =>
    founding
      ? []
      : [
          visit(),
          store.sessions.touch(session, now, { messages: 1, turns: o.turns }),
          store.dialogues.noteActivity(dialogue._id, {
            at: now,
            currentSessionId: sessionId,
            messages: 1,
            ...pointer,
            ...(o.openTurnId ? { openTurnId: o.openTurnId } : {}),
            ...(o.title ? { title: o.title } : {}),
          }),
        ];
  /** A new chat is stored with its first message, before the message itself. */
  const found = (first: FirstMessage) => (founding ? storeFounding(deps, founding, first) : Promise.resolve(undefined));
  /** A new chat's reply, if it starts in this process next, begins from what was just stored (replyHandoff.ts). */
  const handOver = (founded: Founded | undefined, turn: Turn | undefined, message: Message) => {
    if (!founded?.window || !turn || orphan || o.generation === undefined) return;
    const { dialogue, session, window } = founded;
    store.handoff.leave(o.generation, { turn, dialogue, session, window: windowWith(window, message) });
  };
  /** Stores a message that opens no turn (command, refused input, group context). */
  const storeOutsideTurn = async (message: Message): Promise<boolean> => {
    await found({ message });
    // Under the guard and just read as absent, so the counters go out with the insert.
    const [inserted] = await Promise.all([store.messages.insertOnce(message), ...counters({ turns: 0 })]);
    remember();
    return inserted === 'inserted';
  };

  const command = parseCommand(ev.text, ev.recipient?.username);
  if (
    command &&
    (COMMANDS as readonly string[]).includes(command.name) &&
    !ev.sender.isBot &&
    ev.answerable !== false
  ) {
    // Commands are recorded, never answered by the model (BR-005 for /stop).
    if (!(await storeOutsideTurn({ ...base, contentType: 'command' }))) return { kind: 'duplicate', messageId };
    const name = command.name as CommandName;
    if (name === 'new') await startNewSession(deps, dialogue._id, session, now);
    if (name === 'answerall' && groupChat)
      await store.dialogues.setAnswerAll(dialogue._id, answerAllWanted(command.args), now);
    return { kind: 'command', name, args: command.args, groupChat, ...placed };
  }

  const check = checkContent(ev);
  /** Stores a message of a turn with the counters and pointers (`opening`: a new turn, the dialogue's latest). */
  const storeInTurn = async (
    turnId: string,
    opening: { turn: Turn; writes: ReadonlyArray<() => Promise<unknown>> } | undefined,
  ): Promise<IngestResult> => {
    const opensTurn = opening !== undefined;
    const titleSource = check.ok ? check.text || quote?.text || '' : '';
    const title = dialogue.title || !titleSource ? undefined : titleFromFirstMessage(titleSource);
    const message: Message = { ...base, content: check.ok ? check.text : base.content, turnId };
    const founded = await found({ message, ...(opensTurn ? { turnId } : {}), ...(title ? { title } : {}) });
    // Under the guard and just read as absent: the message, its turn, the counters and the
    // pointers are independent writes and go out together.
    const [inserted] = await Promise.all([
      orphan
        ? store.messages.reassignTurn(orphan, turnId, now).then(() => 'inserted' as const)
        : store.messages.insertOnce(message),
      ...(opening?.writes ?? []).map((write) => write()),
      ...counters({
        turns: opensTurn ? 1 : 0,
        ...(opensTurn ? { openTurnId: turnId } : {}),
        ...(title ? { title } : {}),
      }),
    ]);
    remember(opensTurn ? turnId : undefined);
    if (inserted === 'duplicate') return { kind: 'duplicate', messageId };
    handOver(founded, opening?.turn, message);
    // Once the turn is stored: the job reads it. An album's reply waits a moment so its other
    // items join the message first.
    await deps.enqueueReply({
      turnId,
      dialogueId: dialogue._id,
      hints: hintsOf(sessionId, opening?.turn),
      ...(albumId && deps.albumSettleMs ? { delayMs: deps.albumSettleMs } : {}),
    });
    return { kind: 'accepted', turnId, ...placed };
  };
  /** Kept outside any turn; refused content is marked so (`answered`: someone was asked, so say it was refused). */
  const outsideTurn = async (answered: boolean): Promise<IngestResult> => {
    const message = check.ok ? base : { ...base, rejected: { code: check.code } };
    if (!(await storeOutsideTurn(message))) return { kind: 'duplicate', messageId };
    return answered && !check.ok ? { kind: 'rejected', code: check.code, ...placed } : { kind: 'context', ...placed };
  };
  // Only a turn of this session can be joined or answered; a new session starts afresh.
  const openTurn = !opened && latestTurn?.sessionId === sessionId ? latestTurn : null;

  // Nothing can be said back through the ordinary path (a guest query): kept as context only.
  if (ev.answerable === false) return outsideTurn(false);
  const room = dialogue.roomId ? await store.rooms.get(dialogue.roomId) : null;
  if (room) {
    // A room's floor is decided by rounds (src/rooms/roomFlow.ts).
    const d = await placeInRoom(deps, { room, ev, message: base, check, session, openTurn, now });
    if (d.kind === 'own_echo') return { kind: 'ignored', reason: 'own_bot' };
    if (d.kind === 'context') return outsideTurn(false);
    if (d.kind === 'rejected') return outsideTurn(true);
    if (d.kind === 'join') return storeInTurn(d.turnId, undefined);
    return storeInTurn(d.turn._id, { turn: d.turn, writes: d.writes });
  }

  // Who has the floor: the dialogue's one agent when the message addresses it.
  const floor = whoAnswers([
    { agentId: agent._id, activation: activation(addressCheck(ev, { agent, dialogue, ...(quote ? { quote } : {}) })) },
  ]);
  const speaker = floor.speakers[0];
  // Group context (or another bot): kept so a later answer knows what was said; refused
  // content is kept silently, since nobody asked us anything.
  if (!speaker) return outsideTurn(false);
  // Refused input is kept for the record (nothing is lost), but it opens no turn and reaches no LLM.
  if (!check.ok) return outsideTurn(true);

  const inTurn = await placeInTurn(deps, {
    openTurn,
    dialogueId: dialogue._id,
    sessionId,
    humanId: human._id,
    agentId: speaker.agentId,
    messageId,
    now,
  });
  return storeInTurn(inTurn.turnId, inTurn.opened);
}

/** What the reply may read beside the turn: its session, and a new turn's parties. */
function hintsOf(sessionId: string, turn: Turn | undefined): ReplyHints {
  if (!turn) return { sessionId };
  const humanId = turnHumanId(turn);
  return { sessionId, agentId: requireTurnAgent(turn), ...(humanId ? { humanId } : {}) };
}

/**
 * Who answers a dialogue outside rooms: the agent it was opened with (a web conversation names
 * one), else the deployment's default agent (read alongside the dialogue, so usually no extra read).
 */
async function dialogueAgent(store: Store, dialogue: Dialogue, defaultAgent: Agent | null): Promise<Agent> {
  const own = dialogue.roomId ? undefined : dialogue.agentIds[0];
  const agent = own && own !== DEFAULT_AGENT_ID ? await store.participants.getAgent(own) : defaultAgent;
  if (!agent) throw new Error(`agent ${own ?? DEFAULT_AGENT_ID} not found`);
  return agent;
}

/** The stored form of an inbound message, before it is placed in a turn. */
function inboundMessage(
  ev: InboundMessage,
  o: { messageId: string; dialogueId: string; sessionId: string; humanId: string; quote: Quote | undefined; now: Date },
): Message {
  const { quote, now } = o;
  const attachments = ev.attachments.map((a) => toAttachment(a, now));
  const senderName = ev.sender.displayName ?? ev.sender.username;
  const contentMeta: ContentMeta = {
    ...(senderName ? { senderName } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(quote ? { quote } : {}),
    ...(ev.mediaGroupId ? { mediaGroupId: ev.mediaGroupId } : {}),
  };
  return {
    _id: o.messageId,
    dialogueId: o.dialogueId,
    sessionId: o.sessionId,
    senderRole: 'human',
    senderId: o.humanId,
    contentType: inboundContentType(attachments, quote !== undefined),
    content: ev.text?.trim() ?? '',
    contentMeta,
    mentions: mentionIds(ev.platform, ev.mentions, ev.recipient, DEFAULT_AGENT_ID),
    ...(quote?.messageId ? { replyTo: quote.messageId } : {}),
    visible: true,
    platformRef: {
      platform: ev.platform,
      chatId: ev.chat.chatId,
      messageId: ev.platformMessageId,
      ...(ev.chat.bot ? { bot: ev.chat.bot } : {}),
    },
    sentAt: ev.sentAt,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The turn a human's message belongs to (turnRules.placeInitiatorMessage): the open one it
 * joins, or a new one — closing the AI's open turn it answers. A new turn's writes are returned
 * for the caller to send with the message's.
 */
async function placeInTurn(
  deps: IngestDeps,
  o: {
    openTurn: Turn | null;
    dialogueId: string;
    sessionId: string;
    humanId: string;
    agentId: string;
    messageId: string;
    now: Date;
  },
): Promise<{ turnId: string; opened?: { turn: Turn; writes: Array<() => Promise<unknown>> } }> {
  const placement = placeInitiatorMessage(o.openTurn, { role: 'human', id: o.humanId });
  if (placement.action === 'join') return { turnId: placement.turnId };
  if (placement.respondsTo && o.openTurn) {
    await deps.store.turns.closeResponded(o.openTurn, o.now, { responseMessageId: o.messageId });
  }
  const turn = newTurn({
    id: newId('trn', o.now),
    dialogueId: o.dialogueId,
    sessionId: o.sessionId,
    initiator: { role: 'human', id: o.humanId },
    responder: { role: 'ai', id: o.agentId },
    startedAt: o.now,
    responseWindowMs: deps.responseWindowMs,
    ...(placement.after ? { after: placement.after } : {}),
  });
  const writes = [
    () => deps.store.turns.insert(turn),
    () => deps.scheduler.expireTurnAt(turn._id, expiryCheckAt(turn)),
  ];
  return { turnId: turn._id, opened: { turn, writes } };
}
