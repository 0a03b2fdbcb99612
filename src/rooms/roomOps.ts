// Operator and chat actions on a room (SPEC §8): pause and resume, choose the host. Each is one
// decision under the dialogue's state guard, written by `_id`. Pausing also ends the round in
// progress (kept in history), so no agent is asked while the room is paused.
import type { Room } from '../domain/room.js';
import { superseded } from '../domain/roundRules.js';
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
    return { ...room, status, updatedAt: now };
  });
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
