// Creating a room (SPEC §8, seed 002): the chat's dialogue becomes the room's record, its
// agents the room's members in the order given (the round-robin order; the first is the host
// unless another is named). A password is stored as a scrypt hash, never as given.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { ChatRef } from '../domain/model.js';
import type { Room } from '../domain/room.js';
import type { RoomMode } from '../domain/roundRules.js';
import { GatewayError } from '../errors.js';
import type { Store } from '../store/store.js';
import { dialogueIdOf } from '../store/dialogues.js';
import { roomIdOf } from '../store/rooms.js';

export interface NewRoom {
  chat: ChatRef;
  name: string;
  description?: string;
  mode: RoomMode;
  agentIds: string[];
  hostId?: string;
  userParticipation?: boolean;
  password?: string;
  /** One human with several of their own agents (seed 000 ⑥ LIO): the dialogue is a `lio_group`. */
  lio?: boolean;
  /** This room's answer deadline (checked by the caller against ANSWER_TIMEOUT_RANGE). */
  answerTimeoutSeconds?: number;
}

export async function createRoom(store: Store, o: NewRoom, now: Date): Promise<Room> {
  const agentIds = [...new Set(o.agentIds)];
  if (agentIds.length === 0) throw new GatewayError('BAD_REQUEST', 'a room needs at least one agent');
  if (o.hostId && !agentIds.includes(o.hostId))
    throw new GatewayError('NOT_A_MEMBER', `host ${o.hostId} is not a member`);
  const agents = await Promise.all(agentIds.map((id) => store.participants.getAgent(id)));
  const missing = agentIds.filter((_, i) => !agents[i]);
  if (missing.length > 0) throw new GatewayError('NOT_FOUND', `unknown agent(s): ${missing.join(', ')}`);
  const dialogueId = dialogueIdOf(o.chat);
  const room: Room = {
    _id: roomIdOf(dialogueId),
    dialogueId,
    chat: o.chat,
    name: o.name,
    ...(o.description ? { description: o.description } : {}),
    mode: o.mode,
    userParticipation: o.userParticipation ?? true,
    ...(o.answerTimeoutSeconds !== undefined ? { answerTimeoutSeconds: o.answerTimeoutSeconds } : {}),
    status: 'active',
    members: agentIds.map((id) => ({
      kind: 'agent' as const,
      id,
      joinedAt: now,
      ...(id === (o.hostId ?? agentIds[0]) ? { isHost: true } : {}),
    })),
    ...(o.password ? { passwordHash: await hashPassword(o.password) } : {}),
    roundSeq: 0,
    createdAt: now,
    updatedAt: now,
  };
  const type = o.lio ? 'lio_group' : 'group';
  const hosted = await store.dialogues.hostRoom(o.chat, { roomId: room._id, type, agentIds, at: now });
  if (!hosted || !(await store.rooms.create(room)))
    throw new GatewayError('ROOM_EXISTS', `the chat ${o.chat.platform}:${o.chat.chatId} already has a room`);
  return room;
}

const SCRYPT: ScryptOptions = { N: 16_384, r: 8, p: 1 };

function scrypt(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((res, rej) =>
    scryptCb(password.normalize('NFKC'), salt, 32, SCRYPT, (err, key) => (err ? rej(err) : res(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${SCRYPT.N}$${salt.toString('base64')}$${(await scrypt(password, salt)).toString('base64')}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [kind, , salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const got = await scrypt(password, Buffer.from(salt, 'base64'));
  return got.length === expected.length && timingSafeEqual(got, expected);
}
