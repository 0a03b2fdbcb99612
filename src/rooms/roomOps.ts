// Operator and chat actions on a room (SPEC §8): pause and resume, choose the host, remove a
// member, announce. Each is one
// decision under the dialogue's state guard, written by `_id`. Pausing also ends the round in
// progress (kept in history), so no agent is asked while the room is paused.
import type { Room } from '../domain/room.js';
import { nextAsk, superseded, withoutMember } from '../domain/roundRules.js';
import { recordRoomEvent } from './roomEvents.js';
import { postMessage } from '../ops/postMessage.js';
import type { OpsDeps } from '../ops/opsDeps.js';
import { askSkipped, type RoomFlowDeps } from './roomFlow.js';
import { GatewayError } from '../errors.js';
import type { Store } from '../store/store.js';
import { guardKeys } from '../store/stateGuard.js';

async function changeRoom(store: Store, roomId: string, change: (room: Room) => Room | Promise<Room>): Promise<Room> {
  const found = await store.rooms.get(roomId);
  if (!found) throw new GatewayError('ROOM_NOT_FOUND', `room ${roomId} not found`);
  return store.guard.run(guardKeys.dialogue(found.dialogueId), async () => {
    const room = await store.rooms.get(roomId);
    if (!room) throw new GatewayError('ROOM_NOT_FOUND', `room ${roomId} not found`);
    const next = await change(room);
    await store.rooms.put(next);
    return next;
  });
}

export function setRoomStatus(store: Store, roomId: string, status: Room['status'], now: Date): Promise<Room> {
  return changeRoom(store, roomId, async (room) => {
    if (status === 'paused') {
      const round = await store.rooms.current(room);
      if (round && !round.completed)
        await store.rooms.putRound({ ...round, ...superseded(round, now), updatedAt: now });
    }
    if (room.status !== status) await recordRoomEvent(store, room, { decision: 'member_status_change', status }, now);
    return { ...room, status, updatedAt: now };
  });
}

/**
 * A member leaves (seed 002 member_leave): still to be asked, it leaves the round's queue; asked
 * right now, it is skipped for it (reason `left`) and the round goes on. From then on it is
 * refused as not a member.
 */
export async function removeRoomMember(deps: RoomFlowDeps, roomId: string, memberId: string, now: Date): Promise<Room> {
  let askedTurnId: string | undefined;
  const room = await changeRoom(deps.store, roomId, async (r) => {
    if (!r.members.some((m) => m.id === memberId))
      throw new GatewayError('NOT_A_MEMBER', `${memberId} is not a member of room ${roomId}`);
    if (r.members.length === 1) throw new GatewayError('BAD_REQUEST', 'a room keeps at least one member');
    const round = await deps.store.rooms.current(r);
    if (round && !round.completed && nextAsk(round)?.agentId === memberId) askedTurnId = round.asks.at(-1)?.turnId;
    else if (round && !round.completed)
      await deps.store.rooms.putRound({ ...round, ...withoutMember(round, memberId), updatedAt: now });
    await recordRoomEvent(deps.store, r, { decision: 'member_leave', memberId }, now);
    return { ...r, members: r.members.filter((m) => m.id !== memberId), updatedAt: now };
  });
  const turn = askedTurnId ? await deps.store.turns.get(askedTurnId) : null;
  if (turn?.status === 'pending') {
    await deps.store.turns.expire({ ...turn, deadlineAt: now });
    const next = await askSkipped(deps, turn, 'left', now);
    if (next) await deps.enqueueReply(next);
  }
  return room;
}

export function setRoomHost(store: Store, roomId: string, memberId: string, now: Date): Promise<Room> {
  return changeRoom(store, roomId, (room) => {
    if (!room.members.some((m) => m.id === memberId))
      throw new GatewayError('NOT_A_MEMBER', `${memberId} is not a member of room ${roomId}`);
    const members = room.members.map((m) => {
      const { isHost: _was, ...rest } = m;
      return m.id === memberId ? { ...rest, isHost: true } : rest;
    });
    return { ...room, members, updatedAt: now };
  });
}

/** /stop in a room: the round in progress ends (kept in history), so the agents stop taking turns. */
export async function endCurrentRound(store: Store, dialogueId: string, now: Date): Promise<boolean> {
  const dialogue = await store.dialogues.get(dialogueId);
  if (!dialogue?.roomId) return false;
  const roomId = dialogue.roomId;
  return store.guard.run(guardKeys.dialogue(dialogueId), async () => {
    const room = await store.rooms.get(roomId);
    const round = room ? await store.rooms.current(room) : null;
    if (!round || round.completed) return false;
    await store.rooms.putRound({ ...round, ...superseded(round, now), updatedAt: now });
    return true;
  });
}

/**
 * seed 002's announcement: kept on the room (external agents read it in get_context) and posted
 * in the chat as a system message (src/ops/postMessage.ts), which opens no turn.
 */
export async function announce(
  deps: Pick<OpsDeps, 'store' | 'outbounds' | 'scheduler' | 'sessionGapMs' | 'log'>,
  o: { roomId: string; text: string; by: string },
  now: Date,
): Promise<Room> {
  const room = await changeRoom(deps.store, o.roomId, (r) => ({
    ...r,
    announcement: { text: o.text.trim(), by: o.by, at: now },
    updatedAt: now,
  }));
  await postMessage(deps, { dialogueId: room.dialogueId, text: o.text, as: 'system', by: o.by }, now);
  return room;
}

/** An agent of this deployment joins the room as its last member (seed 002 member_join). */
export async function addRoomMember(store: Store, roomId: string, agentId: string, now: Date): Promise<Room> {
  if (!(await store.participants.getAgent(agentId))) throw new GatewayError('NOT_FOUND', `agent ${agentId} not found`);
  const room = await changeRoom(store, roomId, async (r) => {
    if (r.members.some((m) => m.id === agentId)) return r;
    await recordRoomEvent(store, r, { decision: 'member_join', memberId: agentId }, now);
    return { ...r, members: [...r.members, { kind: 'agent', id: agentId, joinedAt: now }], updatedAt: now };
  });
  await store.dialogues.addAgent(room.dialogueId, agentId, now);
  return room;
}

export interface RoomChanges {
  name?: string;
  description?: string;
  mode?: Room['mode'];
  userParticipation?: boolean;
  answerTimeoutSeconds?: number;
}

/** Name, description, interaction mode, user participation: applied from the next round on. */
export function updateRoom(store: Store, roomId: string, changes: RoomChanges, now: Date): Promise<Room> {
  return changeRoom(store, roomId, (r) => ({
    ...r,
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.mode !== undefined ? { mode: changes.mode } : {}),
    ...(changes.userParticipation !== undefined ? { userParticipation: changes.userParticipation } : {}),
    ...(changes.answerTimeoutSeconds !== undefined ? { answerTimeoutSeconds: changes.answerTimeoutSeconds } : {}),
    updatedAt: now,
  }));
}
