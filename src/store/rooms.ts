// Rooms and their rounds, by `_id` only (SPEC §3): the room's id derives from its dialogue and
// round n's from the room, so the hot path never queries. Writers hold the dialogue's state
// guard (src/rooms/roomFlow.ts), so whole-document writes cannot lose each other's changes.
import type { Collections } from './collections.js';
import type { Room, RoomRound } from '../domain/room.js';
import { roundIdOf } from '../domain/room.js';
import { derivedId } from '../domain/ids.js';

export const roomIdOf = (dialogueId: string): string => derivedId('room', dialogueId);

export class RoomRepo {
  constructor(private readonly c: Collections) {}

  get(id: string): Promise<Room | null> {
    return this.c.rooms.findOne({ _id: id });
  }

  /** A new room; false when the dialogue already has one. */
  async create(room: Room): Promise<boolean> {
    try {
      await this.c.rooms.insertOne(room);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  /** The whole room as the caller decided it (under the dialogue's guard). */
  async put(room: Room): Promise<void> {
    await this.c.rooms.replaceOne({ _id: room._id }, room);
  }

  getRound(id: string): Promise<RoomRound | null> {
    return this.c.rounds.findOne({ _id: id });
  }

  /** The room's current round: the latest one started, done or not. */
  current(room: Pick<Room, '_id' | 'roundSeq'>): Promise<RoomRound | null> {
    return room.roundSeq > 0 ? this.getRound(roundIdOf(room._id, room.roundSeq)) : Promise.resolve(null);
  }

  async putRound(round: RoomRound): Promise<void> {
    await this.c.rounds.replaceOne({ _id: round._id }, round, { upsert: true });
  }

  /** Rooms, newest first (the API; a scan, bounded by `limit`). */
  list(limit: number): Promise<Room[]> {
    return this.c.rooms.find({}).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
  }

  /** Rounds `from`..`to` of a room (history), oldest first, by their derived ids. */
  async rounds(roomId: string, from: number, to: number): Promise<RoomRound[]> {
    const ids = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => roundIdOf(roomId, from + i));
    if (ids.length === 0) return [];
    const found = await this.c.rounds.find({ _id: { $in: ids } }).toArray();
    return found.sort((a, b) => a.seq - b.seq);
  }
}
