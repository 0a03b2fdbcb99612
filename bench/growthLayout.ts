// How padded history is laid out: per 2 messages one turn, 20 turns a session, 5 sessions (visits)
// a private chat, a memory per 5 turns, spread over the weeks before the run. Pure arithmetic plus
// the ids the app would have minted; the documents themselves are cloned in growthDocs.ts.
import { newId } from '../src/domain/ids.js';

export const TURNS_PER_SESSION = 20;
export const SESSIONS_PER_DIALOGUE = 5;
export const TURNS_PER_MEMORY = 5;
/** Between two turns of a session (well inside the app's one-hour session gap). */
export const TURN_GAP_MS = 3 * 60_000;
/** The app's default SESSION_GAP_MS: a session closes this long after its last activity. */
export const SESSION_GAP_MS = 60 * 60_000;
const DAY_MS = 86_400_000;
/** History spans the eight weeks before the run; the last session ends hours before it. */
const SPAN_MS = 56 * DAY_MS;
const QUIET_BEFORE_RUN_MS = 3 * 60 * 60_000;
/** Padded chats use ids the rig never hands out (its chats start at 500 000 001). */
const FIRST_CHAT_ID = 700_000_000;

export class PadLayout {
  readonly turns: number;
  readonly sessions: number;
  readonly dialogues: number;
  readonly memories: number;
  private readonly first: number;
  private readonly step: number;
  private readonly turnIds: string[];
  private readonly sessionIds: string[];
  private readonly memoryIds: string[];

  /** `messages` stored messages (a human one and the AI reply per turn), history ending before `now`. */
  constructor(messages: number, now: number) {
    this.turns = Math.floor(messages / 2);
    this.sessions = Math.ceil(this.turns / TURNS_PER_SESSION);
    this.dialogues = Math.ceil(this.sessions / SESSIONS_PER_DIALOGUE);
    this.memories = Math.ceil(this.turns / TURNS_PER_MEMORY);
    this.first = now - SPAN_MS;
    // Sessions in time order; session s belongs to chat s mod D, so each chat's visits spread over the span.
    this.step = (SPAN_MS - QUIET_BEFORE_RUN_MS) / Math.max(1, this.sessions);
    this.sessionIds = Array.from({ length: this.sessions }, (_, s) => newId('ses', new Date(this.sessionStart(s))));
    this.turnIds = Array.from({ length: this.turns }, (_, k) => newId('trn', new Date(this.turnStart(k))));
    this.memoryIds = Array.from({ length: this.memories }, (_, m) =>
      newId('mem', new Date(this.turnStart(m * TURNS_PER_MEMORY))),
    );
  }

  sessionOf = (turn: number): number => Math.floor(turn / TURNS_PER_SESSION);
  dialogueOf = (session: number): number => session % this.dialogues;
  /** Which visit of its chat a session is (0 = the first). */
  visitOf = (session: number): number => Math.floor(session / this.dialogues);
  /** Position of a turn in its session. */
  indexInSession = (turn: number): number => turn % TURNS_PER_SESSION;
  /** Position of a turn in its chat, counting every earlier visit's turns. */
  turnInChat = (turn: number): number =>
    this.visitOf(this.sessionOf(turn)) * TURNS_PER_SESSION + this.indexInSession(turn);
  turnsInSession = (session: number): number => Math.min(TURNS_PER_SESSION, this.turns - session * TURNS_PER_SESSION);

  sessionStart = (session: number): number => Math.round(this.first + session * this.step);
  turnStart = (turn: number): number =>
    this.sessionStart(this.sessionOf(turn)) + this.indexInSession(turn) * TURN_GAP_MS;

  /** The sessions of a chat, oldest first. */
  sessionsOf(dialogue: number): number[] {
    const out: number[] = [];
    for (let s = dialogue; s < this.sessions; s += this.dialogues) out.push(s);
    return out;
  }

  chatId = (dialogue: number): string => String(FIRST_CHAT_ID + dialogue);
  turnId = (turn: number): string => this.turnIds[turn]!;
  sessionId = (session: number): string => this.sessionIds[session]!;
  /** The memory extracted from a run of TURNS_PER_MEMORY turns, and the one every turn of that run names. */
  memoryId = (turn: number): string => this.memoryIds[Math.floor(turn / TURNS_PER_MEMORY)]!;
}
