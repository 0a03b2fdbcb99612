// Ingest for a room's dialogue (SPEC §8): a human's message to an active room starts a round
// (src/rooms/roomFlow.ts) and belongs to its first ask; a quick follow-up before that agent
// started answering joins the same ask. Messages of a paused room and posts of other bots are
// kept as context; the room's own agents' posts coming back are ignored. The room is read
// first (`readRoom`), the decision is pure (`roomPlacement`), and the round is started by the
// writer (writePlacement.ts).
import type { Agent, Dialogue, Message, Turn } from '../domain/model.js';
import type { Room } from '../domain/room.js';
import { agentMembers } from '../domain/room.js';
import { mentionedAgents } from '../domain/roomMentions.js';
import type { ContentCheck } from '../domain/content.js';
import { joinsTurn } from '../domain/turnRules.js';
import type { Store } from '../store/store.js';
import type { InboundMessage } from './inboundEvent.js';

/** A room as its messages are placed: the room and its agents that are stored, read before deciding. */
export interface RoomView {
  room: Room;
  agents: Agent[];
}

/** The dialogue's room with its agents; null outside rooms (or when the room is gone). */
export async function readRoom(store: Store, dialogue: Pick<Dialogue, 'roomId'>): Promise<RoomView | null> {
  const room = dialogue.roomId ? await store.rooms.get(dialogue.roomId) : null;
  if (!room) return null;
  const agents = (await Promise.all(agentMembers(room).map((id) => store.participants.getAgent(id)))).filter(
    (a): a is Agent => a !== null,
  );
  return { room, agents };
}

/** What a room message is, as the room's floor sees it. */
export type RoomDecision =
  /** A post of one of the room's own agents coming back (Telegram bot-to-bot, Discord webhooks). */
  | { kind: 'own_echo' }
  | { kind: 'context' }
  | { kind: 'rejected' }
  | { kind: 'join'; turnId: string }
  /** A new round, asking these agents first (none named: the room's mode decides). */
  | { kind: 'round'; mentions: string[] };

/** Where a room message goes (`openTurn`: the dialogue's latest turn of this session, if any). Pure. */
export function roomPlacement(
  view: RoomView,
  p: { ev: InboundMessage; message: Message; check: ContentCheck; openTurn: Turn | null },
): RoomDecision {
  const { room, agents } = view;
  const { ev, message } = p;
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
  const sender = { role: message.senderRole, id: message.senderId };
  // Only an ask (a round's turn) is joined, and only by words that name nobody new.
  if (open?.round !== undefined && joinsTurn(open, sender) && mentions.length === 0) {
    return { kind: 'join', turnId: open._id };
  }
  return { kind: 'round', mentions };
}

const isAccountOf = (agent: Agent, platform: string, userId: string): boolean =>
  (agent.bindings ?? []).some((b) => b.platform === platform && b.userId === userId);
