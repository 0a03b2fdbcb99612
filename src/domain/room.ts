// Rooms (SPEC §8, seed 002): a platform group where several agents take turns by rounds. The
// room lives on one dialogue (its record of messages); its rounds are kept by derived ids, so
// the current one and the history are read by `_id` (SPEC §3 access rule).
import type { ChatRef } from './model.js';
import type { Round, RoomMode } from './roundRules.js';

export type RoomStatus = 'active' | 'paused';

export interface RoomMember {
  kind: 'agent' | 'human';
  id: string;
  /** Host mode: the member whose messages start rounds (the first member unless set). */
  isHost?: boolean;
  /** Seed 002 `introduce`: shown to the other members. */
  introduction?: string;
  joinedAt: Date;
}

export interface Room {
  /** Derived from the dialogue (roomIdOf). */
  _id: string;
  dialogueId: string;
  chat: ChatRef;
  name: string;
  description?: string;
  mode: RoomMode;
  /** Whether humans' messages start rounds (off: the agents talk among themselves). */
  userParticipation: boolean;
  status: RoomStatus;
  members: RoomMember[];
  announcement?: { text: string; by: string; at: Date };
  /** This room's answer deadline (seed 002 sets it per room); absent: the deployment's config. */
  answerTimeoutSeconds?: number;
  /** scrypt hash (`scrypt$N$salt$hash`); absent: no password. */
  passwordHash?: string;
  /** Rounds started so far: round n has id roundIdOf(room, n), so history needs no query. */
  roundSeq: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A round as stored: the pure round (roundRules.ts) and where it came from. */
export interface RoomRound extends Round {
  /** roundIdOf(roomId, seq); also `id`. */
  _id: string;
  roomId: string;
  dialogueId: string;
  seq: number;
  /** The message that started the round (a human's, or the host's). */
  triggerMessageId: string;
  /** Who sent it: each ask's turn is opened in its name. */
  triggerSenderId: string;
  /** A human, or (a round the agents started among themselves) the agent who spoke last. */
  triggerSenderRole: 'human' | 'ai';
  /** 1 for a round a human's message started; n for the agents' n-th round after it (bounded by config). */
  chainRound: number;
  /** Tokens (prompts and answers) this round's asks spent so far. */
  tokens?: number;
  /** Tokens the earlier rounds of its chain spent (the agents' own rounds are bounded by them too). */
  chainTokens?: number;
  /** The turn opened for each ask, in asking order. */
  asks: Array<{ agentId: string; turnId: string; at: Date }>;
  updatedAt: Date;
}

export const roundIdOf = (roomId: string, seq: number): string => `${roomId}.r${seq}`;

/** The room's agents in member order (the round-robin queue). */
export const agentMembers = (room: Pick<Room, 'members'>): string[] =>
  room.members.filter((m) => m.kind === 'agent').map((m) => m.id);

/** The host: the member flagged, else the first member (seed 002: the first to join). */
export function hostOf(room: Pick<Room, 'members'>): RoomMember | undefined {
  return room.members.find((m) => m.isHost) ?? room.members[0];
}

/** Bounds of a room's answer deadline: the config's own range for it. */
export const ANSWER_TIMEOUT_RANGE = { min: 5, max: 3_600 } as const;

/** How long an agent asked in this room has to answer: the room's own deadline, else the deployment's. */
export const answerDeadlineSeconds = (
  room: Pick<Room, 'answerTimeoutSeconds'> | null,
  deploymentSeconds: number,
): number => room?.answerTimeoutSeconds ?? deploymentSeconds;
