// A room as its agents know it (seed 002): its members' documents read by `_id` — only those the
// chat's agents do not already cover — and, from them, the pure view the prompt shows (name,
// purpose, announcement, every member with their introduction).
import type { Agent, Human } from '../domain/model.js';
import type { Room, RoomMember } from '../domain/room.js';
import type { Store } from '../store/store.js';
import type { RoomContext } from './buildContext.js';

/** One member with the document read for it: plain data the view is built from. */
export interface RoomMemberRead {
  member: RoomMember;
  /** The member's agent (read or already at hand); null for a human or an agent not found. */
  agent: Agent | null;
  /** The member's human; null for an agent or a human not found. */
  human: Human | null;
}

/** A room read for a context: its document and its members' documents (plain data, built by roomContextOf). */
export interface RoomRead {
  room: Room;
  members: RoomMemberRead[];
}

/** Every member's document, in the room's order; the chat's agents are already read, the rest here. */
export function readRoomMembers(store: Store, room: Room, agents: readonly Agent[]): Promise<RoomMemberRead[]> {
  return Promise.all(
    room.members.map(async (member) => {
      const agent =
        member.kind === 'agent'
          ? (agents.find((a) => a._id === member.id) ?? (await store.participants.getAgent(member.id)))
          : null;
      const human = member.kind === 'human' ? await store.participants.getHuman(member.id) : null;
      return { member, agent, human };
    }),
  );
}

/** The room as its agents know it, from its members' documents; `selfId` is marked as `you`. */
export function roomContextOf(
  room: Pick<Room, 'name' | 'description' | 'announcement'>,
  members: readonly RoomMemberRead[],
  selfId: string,
): RoomContext {
  return {
    name: room.name,
    ...(room.description ? { description: room.description } : {}),
    ...(room.announcement ? { announcement: room.announcement.text } : {}),
    members: members.map(({ member: m, agent, human }) => {
      const introduction = m.introduction ?? agent?.introduction;
      return {
        name: agent?.name ?? human?.displayName ?? m.id,
        kind: m.kind,
        ...(introduction ? { introduction } : {}),
        ...(m.id === selfId ? { you: true } : {}),
      };
    }),
  };
}
