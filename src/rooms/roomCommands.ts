// A room's chat commands (SPEC §8): /room shows the members, the mode and the round in
// progress; /pause and /resume; /host @agent. Each answers with the text to show.
import type { Agent, Platform } from '../domain/model.js';
import type { RoomCommandName } from '../domain/commandRegistry.js';
import type { Room } from '../domain/room.js';
import { agentMembers, hostOf } from '../domain/room.js';
import { nextAsk } from '../domain/roundRules.js';
import { mentionedAgents } from '../domain/roomMentions.js';
import { text, type Locale } from '../i18n/texts.js';
import type { Store } from '../store/store.js';
import { setRoomHost, setRoomStatus } from './roomOps.js';

/** What one room command does to the room it is sent in, and the text it answers with. */
type RoomAction = (
  store: Store,
  c: { room: Room; agents: Agent[]; args: string; platform: Platform },
  locale: Locale,
  now: Date,
) => Promise<string>;

/** Why a map: the registry's room commands (`room: true`) each need one, checked by the type. */
const ROOM_ACTIONS: Record<RoomCommandName, RoomAction> = {
  room: (store, c, locale) => describe(store, c.room, c.agents, locale),
  pause: async (store, c, locale, now) => {
    await setRoomStatus(store, c.room._id, 'paused', now);
    return text('ROOM_PAUSED', locale);
  },
  resume: async (store, c, locale, now) => {
    await setRoomStatus(store, c.room._id, 'active', now);
    return text('ROOM_RESUMED', locale);
  },
  host: async (store, c, locale, now) => {
    const [id] = mentionedAgents({ platform: c.platform, text: c.args, mentions: [] }, c.agents);
    const agent = c.agents.find((a) => a._id === id);
    if (!agent) return text('ROOM_HOST_UNKNOWN', locale);
    await setRoomHost(store, c.room._id, agent._id, now);
    return text('ROOM_HOST_SET', locale, { name: agent.name });
  },
};

export async function runRoomCommand(
  store: Store,
  c: { name: RoomCommandName; args: string; dialogueId: string; platform: Platform },
  locale: Locale,
  now: Date,
): Promise<string> {
  const dialogue = await store.dialogues.get(c.dialogueId);
  const room = dialogue?.roomId ? await store.rooms.get(dialogue.roomId) : null;
  if (!room) {
    // In a chat that is no room yet, /room says what an operator needs to make it one.
    if (c.name !== 'room' || !dialogue) return text('ROOMS_ONLY', locale);
    return text('NOT_A_ROOM', locale, { platform: dialogue.chat.platform, chatId: dialogue.chat.chatId });
  }
  const agents = await agentsOf(store, room);
  return ROOM_ACTIONS[c.name](store, { room, agents, args: c.args, platform: c.platform }, locale, now);
}

async function agentsOf(store: Store, room: Room): Promise<Agent[]> {
  const found = await Promise.all(agentMembers(room).map((id) => store.participants.getAgent(id)));
  return found.filter((a): a is Agent => a !== null);
}

async function describe(store: Store, room: Room, agents: Agent[], locale: Locale): Promise<string> {
  const name = (id: string | undefined) => agents.find((a) => a._id === id)?.name ?? id ?? '—';
  const host = hostOf(room);
  const members = agentMembers(room)
    .map((id) => (room.mode === 'host' && id === host?.id ? `${name(id)} ★` : name(id)))
    .join(', ');
  const round = await store.rooms.current(room);
  const ask = round ? nextAsk(round) : undefined;
  const roundLine =
    round && ask
      ? text('ROOM_ROUND', locale, { seq: round.seq, asked: round.asked.map(name).join(', '), next: name(ask.agentId) })
      : text('ROOM_NO_ROUND', locale);
  return text('ROOM_STATUS', locale, {
    name: room.name,
    mode: room.mode,
    status: room.status,
    members,
    round: roundLine,
  });
}
