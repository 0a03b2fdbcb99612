// A room's own happenings in its trace (event `floor` without a turn): members joining and
// leaving, the room paused or resumed. With the asks' floor events they are what the API's
// roomEvents subscription shows as seed 002's event types.
import type { Room } from '../domain/room.js';
import type { Store } from '../store/store.js';

export type RoomHappening =
  | { decision: 'member_join'; memberId: string }
  | { decision: 'member_leave'; memberId: string }
  | { decision: 'member_status_change'; status: Room['status'] };

export function recordRoomEvent(store: Store, room: Pick<Room, '_id' | 'dialogueId'>, what: RoomHappening, at: Date) {
  return store.events.record({ kind: 'floor', dialogueId: room.dialogueId, at, data: { roomId: room._id, ...what } });
}
