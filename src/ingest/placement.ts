// What an inbound message is (SPEC §4.1, §7): a command, context nobody answers, refused input,
// the start of a room's round, or a message of a turn — with the documents that say so. Pure:
// everything it needs was read before (ingest.ts `placeMessage`), and what it decides is written
// after (writePlacement.ts), in one place each.
import type { Dialogue, Message, Session, Turn } from '../domain/model.js';
import type { Room } from '../domain/room.js';
import type { Activation } from '../domain/activation.js';
import type { CommandName } from '../domain/commandRegistry.js';
import { checkInboundText, type ContentCheck } from '../domain/content.js';
import { whoAnswers } from '../domain/floor.js';
import { titleFromFirstMessage } from '../domain/title.js';
import { newTurn, openTurnFor, placeInitiatorMessage } from '../domain/turnRules.js';
import type { InboundMessage } from './inboundEvent.js';
import { roomPlacement, type RoomView } from './roomIngest.js';
import type { RefusalReason } from '../domain/access.js';

/**
 * What SPEC §14 says of a human sender, read before deciding (senderGate.ts): let in, or
 * refused and why. `scope`: `all` refuses every message (not let in, blocked, flagged content:
 * none of it may reach a prompt); `answer` only the ones someone must answer (a spent budget:
 * what they say as group context is still said).
 */
export type SenderGate =
  | { pass: true }
  | {
      pass: false;
      reason: RefusalReason;
      code: RefusalCode;
      scope: 'all' | 'answer';
      spent?: SpentBudget;
      /** `access.refusal: silent`: the sender is never told. */
      silent?: true;
    };

/** A spent budget: whose, and when it resets (told to the person). */
export interface SpentBudget {
  cap: 'person' | 'chat' | 'deployment';
  resetAt: Date;
}

/** The stable code a refused sender's message is marked with, by reason. */
export type RefusalCode = 'ACCESS_DENIED' | 'BUDGET_EXCEEDED' | 'MODERATION_FLAGGED';

/** Everything the decision reads, already read: plain data, no store. */
export interface PlacementInput {
  ev: InboundMessage;
  /** The message's stored form before it is placed (inboundMessage.ts). */
  message: Message;
  dialogue: Pick<Dialogue, '_id' | 'title'>;
  session: Pick<Session, '_id'>;
  /** The session was opened for this message. */
  sessionOpened: boolean;
  /** The dialogue's latest turn, whichever session it is of. */
  latestTurn: Turn | null;
  /** A command the message gives, when it is one we know (the command registry's). */
  command: { name: CommandName; args: string } | undefined;
  /** The dialogue's agent, and how the message addressed it (outside rooms). */
  agentId: string;
  activation: Activation;
  /** The dialogue's room, when it is a room's. */
  room: RoomView | null;
  /** The id a new turn takes (minted by the caller, so the decision stays pure). */
  newTurnId: string;
  responseWindowMs: number;
  /** SPEC §14's word on the sender (always pass for bots and the gateway's own). */
  gate: SenderGate;
  now: Date;
}

/** The decision, carrying what is to be written; `message` is the document to store. */
export type Placement =
  /** Recorded outside any turn, never answered by the model (BR-005 for /stop). */
  | {
      kind: 'command';
      message: Message;
      name: CommandName;
      args: string;
      groupChat: boolean;
      /** false: a sender not let in, knocking with `/start CODE`. */
      admitted: boolean;
    }
  /** Kept as context: nobody was addressed, or nothing can be said back. Refused content is marked. */
  | { kind: 'context_only'; message: Message }
  /** Refused input someone was asked: kept for the record, opening no turn, reaching no LLM. */
  | { kind: 'rejected'; message: Message; code: Extract<ContentCheck, { ok: false }>['code'] }
  /**
   * A sender SPEC §14 refuses: kept for the record, reaching no model, prompt or memory.
   * `addressed`: someone was asked, so the sender may be told (once per window, by the caller).
   */
  | {
      kind: 'refused';
      message: Message;
      reason: RefusalReason;
      code: RefusalCode;
      addressed: boolean;
      spent?: SpentBudget;
    }
  /** A post of one of the room's own agents coming back: not stored. */
  | { kind: 'own_echo' }
  /** Starts a room's round; `message` takes the round's first ask as its turn (roomFlow.ts). */
  | { kind: 'room'; room: Room; message: Message; title?: string; mentions: string[] }
  /** A message of a turn: joining it, or opening `opens` (and closing `closes`, the AI's turn it answers). */
  | { kind: 'turn'; message: Message; title?: string; opens?: Turn; closes?: Turn };

/** The commands a sender not let in may still give: they ask to be let in. */
const KNOCKS: ReadonlySet<CommandName> = new Set(['start', 'allow']);

/** BR-001 applies to the text; a media message may come without any. */
function checkContent(ev: InboundMessage): ContentCheck {
  if (ev.attachments.length > 0 && (ev.text ?? '').trim() === '') return { ok: true, text: '' };
  return checkInboundText(ev.text);
}

/** What the message is, and what is to be stored for it. */
export function decidePlacement(i: PlacementInput): Placement {
  const { ev, message, gate } = i;
  if (i.command && !ev.sender.isBot && ev.answerable !== false) {
    const { name, args } = i.command;
    // Someone not let in may still knock (`/start CODE`, `/allow`, whose handlers check their
    // standing themselves); nothing else of theirs is acted on.
    const knocking = !gate.pass && gate.reason === 'not_admitted' && KNOCKS.has(name);
    if (!gate.pass && gate.scope === 'all' && !knocking) return refused(message, gate, true);
    const command = { ...message, contentType: 'command' as const };
    const groupChat = ev.chat.kind === 'group';
    return { kind: 'command', message: command, name, args, groupChat, admitted: !knocking };
  }
  const check = checkContent(ev);
  if (!gate.pass && gate.scope === 'all' && ev.answerable !== false) return refused(message, gate, addressed(i, check));
  const placement = placeAdmitted(i, check);
  // A spent budget refuses what would be answered; what nobody must answer stays context.
  const answered = placement.kind === 'turn' || placement.kind === 'room';
  if (!gate.pass && answered) return refused(message, gate, true);
  return placement;
}

/** Where a let-in sender's message goes (or anyone's, when the gate does not apply). */
function placeAdmitted(i: PlacementInput, check: ContentCheck): Placement {
  const { ev, message } = i;
  // Nothing can be said back through the ordinary path (a guest query): kept as context only.
  if (ev.answerable === false) return outsideTurn(message, check, false);
  const openTurn = openTurnFor(i.latestTurn, i.session, i.sessionOpened);
  // A room's floor is decided by rounds (src/rooms/roomFlow.ts).
  if (i.room) return inRoom(i, i.room, check, openTurn);
  // Who has the floor: the dialogue's one agent when the message addresses it.
  const speaker = whoAnswers([{ agentId: i.agentId, activation: i.activation }]).speakers[0];
  // Group context (or another bot): kept so a later answer knows what was said; refused
  // content is kept silently, since nobody asked us anything.
  if (!speaker) return outsideTurn(message, check, false);
  // Refused input is kept for the record (nothing is lost), but it opens no turn and reaches no LLM.
  if (!check.ok) return outsideTurn(message, check, true);
  return inTurn(i, check.text, openTurn, speaker.agentId);
}

/** Whether the message asks something of us: it would open or join a turn, start a round, or be refused content. */
function addressed(i: PlacementInput, check: ContentCheck): boolean {
  const kind = placeAdmitted(i, check).kind;
  return kind === 'turn' || kind === 'room' || kind === 'rejected';
}

/** A refused sender's message: marked with the code and reason, outside any turn. */
function refused(base: Message, gate: Extract<SenderGate, { pass: false }>, addressed: boolean): Placement {
  const message = { ...base, rejected: { code: gate.code, reason: gate.reason } };
  const spent = gate.spent ? { spent: gate.spent } : {};
  const told = addressed && !gate.silent;
  return { kind: 'refused', message, reason: gate.reason, code: gate.code, addressed: told, ...spent };
}

/** Kept outside any turn; refused content is marked so (`answered`: someone was asked, so say it was refused). */
function outsideTurn(base: Message, check: ContentCheck, answered: boolean): Placement {
  if (check.ok) return { kind: 'context_only', message: base };
  const message = { ...base, rejected: { code: check.code } };
  return answered ? { kind: 'rejected', message, code: check.code } : { kind: 'context_only', message };
}

/** A room message, as the room's floor places it. */
function inRoom(i: PlacementInput, room: RoomView, check: ContentCheck, openTurn: Turn | null): Placement {
  const d = roomPlacement(room, { ev: i.ev, message: i.message, check, openTurn });
  if (d.kind === 'own_echo') return d;
  if (d.kind === 'context') return outsideTurn(i.message, check, false);
  if (d.kind === 'rejected' || !check.ok) return outsideTurn(i.message, check, true);
  const said = { message: { ...i.message, content: check.text }, ...titled(i, check.text) };
  if (d.kind === 'join') return { kind: 'turn', ...said, message: { ...said.message, turnId: d.turnId } };
  return { kind: 'room', room: room.room, ...said, mentions: d.mentions };
}

/**
 * A human's message outside rooms (turnRules.placeInitiatorMessage): it joins the open turn, or
 * opens a new one for `agentId` to answer — closing the AI's open turn it answers.
 */
function inTurn(i: PlacementInput, text: string, openTurn: Turn | null, agentId: string): Placement {
  const { message } = i;
  const said = { ...message, content: text };
  const human = { role: 'human' as const, id: message.senderId };
  const placement = placeInitiatorMessage(openTurn, human);
  if (placement.action === 'join')
    return { kind: 'turn', message: { ...said, turnId: placement.turnId }, ...titled(i, text) };
  const opens = newTurn({
    id: i.newTurnId,
    dialogueId: i.dialogue._id,
    sessionId: i.session._id,
    initiator: human,
    responder: { role: 'ai', id: agentId },
    startedAt: i.now,
    responseWindowMs: i.responseWindowMs,
    ...(placement.after ? { after: placement.after } : {}),
  });
  const closes = placement.respondsTo && openTurn ? { closes: openTurn } : {};
  return { kind: 'turn', message: { ...said, turnId: opens._id }, ...titled(i, text), opens, ...closes };
}

/** The dialogue's title, when it has none yet: from the message's words, else the words it quotes. */
function titled(i: PlacementInput, text: string): { title?: string } {
  const source = text || i.message.contentMeta?.quote?.text || '';
  return i.dialogue.title || !source ? {} : { title: titleFromFirstMessage(source) };
}
