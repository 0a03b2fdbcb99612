// A room's chat commands (SPEC §8): /room shows the members, the mode and the round in
// progress; /pause and /resume; /host @agent. Each answers with the text to show.
import type { Agent, Platform } from '../domain/model.js';
import type { Room } from '../domain/room.js';
import { agentMembers, hostOf } from '../domain/room.js';
import { nextAsk } from '../domain/roundRules.js';
import { mentionedAgents } from '../domain/roomMentions.js';
import { text, type Locale } from '../i18n/texts.js';
import type { Store } from '../store/store.js';
import { setRoomHost, setRoomStatus } from './roomOps.js';

export const ROOM_COMMANDS = ['room', 'pause', 'resume', 'host'] as const;
export type RoomCommand = (typeof ROOM_COMMANDS)[number];

export async function runRoomCommand(
  store: Store,
  c: { name: RoomCommand; args: string; dialogueId: string; platform: Platform },
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
  switch (c.name) {
    case 'room':
      return describe(store, room, agents, locale);
    case 'pause':
      await setRoomStatus(store, room._id, 'paused', now);
      return text('ROOM_PAUSED', locale);
    case 'resume':
      await setRoomStatus(store, room._id, 'active', now);
      return text('ROOM_RESUMED', locale);
    case 'host': {
      const [id] = mentionedAgents({ platform: c.platform, text: c.args, mentions: [] }, agents);
      const agent = agents.find((a) => a._id === id);
      if (!agent) return text('ROOM_HOST_UNKNOWN', locale);
      await setRoomHost(store, room._id, agent._id, now);
      return text('ROOM_HOST_SET', locale, { name: agent.name });
    }
  }
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
