// Ingest for a room's dialogue (SPEC §8): a human's message to an active room starts a round
// (src/rooms/roomFlow.ts) and belongs to its first ask; a quick follow-up before that agent
// started answering joins the same ask. Messages of a paused room and posts of other bots are
// kept as context; the room's own agents' posts coming back are ignored. Runs under the
// dialogue's state guard.
import type { Agent, Message, Session, Turn } from '../domain/model.js';
import type { Room } from '../domain/room.js';
import { agentMembers } from '../domain/room.js';
import { mentionedAgents } from '../domain/roomMentions.js';
import type { ContentCheck } from '../domain/content.js';
import { startRoomRound } from '../rooms/roomFlow.js';
import type { IngestDeps } from './ingest.js';
import type { InboundMessage } from './inboundEvent.js';

export interface RoomPlacement {
  room: Room;
  ev: InboundMessage;
  message: Message;
  check: ContentCheck;
  session: Session;
  /** The dialogue's latest turn of this session, if any. */
  openTurn: Turn | null;
  now: Date;
}

export type RoomDecision =
  /** A post of one of the room's own agents coming back (Telegram bot-to-bot, Discord webhooks). */
  | { kind: 'own_echo' }
  | { kind: 'context' }
  | { kind: 'rejected' }
  | { kind: 'join'; turnId: string }
  | { kind: 'round'; turn: Turn; writes: Array<() => Promise<unknown>> };

/** Where a room message goes; nothing is written here but the round's own writes, returned. */
export async function placeInRoom(deps: IngestDeps, p: RoomPlacement): Promise<RoomDecision> {
  const { room, ev, message } = p;
  const agents = (await Promise.all(agentMembers(room).map((id) => deps.store.participants.getAgent(id)))).filter(
    (a): a is Agent => a !== null,
  );
  if (ev.sender.isBot && agents.some((a) => isAccountOf(a, ev.platform, ev.sender.userId))) return { kind: 'own_echo' };
  // Where people only watch, a human's message still starts the agents' conversation (bounded).
  if (room.status !== 'active' || ev.sender.isBot) return { kind: 'context' };
  if (!p.check.ok) return { kind: 'rejected' };
  const quote = message.contentMeta?.quote;
  const mentions = mentionedAgents(
    {
      platform: ev.platform,
      text: ev.text,
      mentions: ev.mentions,
      ...(quote?.senderRole === 'ai' && quote.senderId ? { repliesToAgentId: quote.senderId } : {}),
    },
    agents,
  );
  const open = p.openTurn;
  const joinable =
    open?.round !== undefined &&
    open.status === 'pending' &&
    !open.replyStartedAt &&
    open.initiatorId === message.senderId &&
    mentions.length === 0;
  if (open && joinable) return { kind: 'join', turnId: open._id };
  const opened = await startRoomRound(deps, {
    room,
    sessionId: p.session._id,
    trigger: { messageId: message._id, senderId: message.senderId },
    mentions,
    now: p.now,
  });
  if (!opened) return { kind: 'context' };
  return { kind: 'round', turn: opened.turn, writes: opened.writes };
}

const isAccountOf = (agent: Agent, platform: string, userId: string): boolean =>
  (agent.bindings ?? []).some((b) => b.platform === platform && b.userId === userId);
