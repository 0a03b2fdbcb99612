// External agents in a room (SPEC §8, seed 002's IDE and non-IDE agents): what a seat can do,
// whichever door it comes through (MCP at /mcp, or the small REST endpoint webhook agents
// answer on). The same rules as for internal agents: only the agent asked now may speak or
// skip, a mentioned agent cannot skip, and the answer deadline skips it for them.
import type { Agent, Dialogue, Message } from '../domain/model.js';
import { planMessageSearch } from '../search/messageSearch.js';
import { searchMessages } from '../store/indexSearch.js';
import { searchableTexts } from '../search/searchKeys.js';
import type { Room, RoomRound } from '../domain/room.js';
import { agentMembers, hostOf } from '../domain/room.js';
import { nextAsk } from '../domain/roundRules.js';
import { mentionedAgents } from '../domain/roomMentions.js';
import { checkInboundText } from '../domain/content.js';
import { isConversation } from '../domain/conversation.js';
import { newId } from '../domain/ids.js';
import { GatewayError } from '../errors.js';
import type { Outbounds, SendOptions } from '../delivery/outbound.js';
import { splitForPlatform } from '../delivery/split.js';
import type { Seat } from '../store/seats.js';
import { guardKeys } from '../store/stateGuard.js';
import { replyIdOf } from '../domain/aiMessage.js';
import { askAnswered, askSkipped, skipMessage, type RoomFlowDeps } from './roomFlow.js';
import { passwordMatches } from './createRoom.js';
import { recordRoomEvent } from './roomEvents.js';

export interface SeatDeps extends RoomFlowDeps {
  outbounds: Outbounds;
  /** How an agent without its own account is shown on a platform (Discord persona webhooks). */
  presentAs?(agent: Agent, dialogue: Dialogue): SendOptions | undefined;
}

/** The seat a bearer token opens; UNAUTHENTICATED otherwise (the token is never echoed). */
export async function openSeat(deps: Pick<SeatDeps, 'store'>, token: string | undefined): Promise<Seat> {
  const seat = token ? await deps.store.seats.byToken(token) : null;
  if (!seat) throw new GatewayError('UNAUTHENTICATED', 'a valid seat token is required');
  return seat;
}

/**
 * seed 002 register_agent: the seat's agent is created (or renamed) and joins the room as its
 * last member. A room with a password asks for it.
 */
export async function registerAgent(
  deps: Pick<SeatDeps, 'store'>,
  seat: Seat,
  o: { name: string; introduction?: string; capabilities?: readonly string[]; password?: string },
  now: Date,
): Promise<{ agentId: string; roomId: string }> {
  const room = await roomOf(deps, seat);
  if (room.passwordHash && !(o.password && (await passwordMatches(o.password, room.passwordHash))))
    throw new GatewayError('FORBIDDEN', 'wrong room password');
  const name = o.name.trim();
  if (!name || name.length > 64) throw new GatewayError('BAD_REQUEST', 'name: 1–64 characters');
  const agentId = seat.agentId ?? newId('agt', now);
  const external = seat.webhook
    ? { kind: 'webhook' as const, seatId: seat._id, url: seat.webhook.url }
    : { kind: 'mcp' as const, seatId: seat._id };
  const capabilities = [...new Set((o.capabilities ?? []).map((c) => c.trim()).filter(Boolean))];
  await deps.store.participants.putExternalAgent(
    {
      _id: agentId,
      name,
      basePersona: '',
      external,
      ...(o.introduction ? { introduction: o.introduction } : {}),
      ...(capabilities.length > 0 ? { capabilities } : {}),
    },
    now,
  );
  await deps.store.guard.run(guardKeys.dialogue(room.dialogueId), async () => {
    const fresh = (await deps.store.rooms.get(room._id)) ?? room;
    if (!fresh.members.some((m) => m.id === agentId)) {
      const member = {
        kind: 'agent' as const,
        id: agentId,
        joinedAt: now,
        ...(o.introduction ? { introduction: o.introduction } : {}),
      };
      await deps.store.rooms.put({ ...fresh, members: [...fresh.members, member], updatedAt: now });
      await recordRoomEvent(deps.store, fresh, { decision: 'member_join', memberId: agentId }, now);
    }
    await deps.store.dialogues.addAgent(room.dialogueId, agentId, now);
  });
  await deps.store.seats.setAgent(seat._id, agentId, now);
  return { agentId, roomId: room._id };
}

export interface SeatTurn {
  asked: boolean;
  roundId?: string;
  canSkip?: boolean;
  /** Who is asked now (another member), when it is not this seat. */
  waitingFor?: string;
}

/** Whether the seat's agent is the one asked now. */
export async function turnOf(deps: Pick<SeatDeps, 'store'>, seat: Seat): Promise<SeatTurn> {
  const agentId = requireAgent(seat);
  const room = await roomOf(deps, seat);
  const round = await deps.store.rooms.current(room);
  const ask = round ? nextAsk(round) : undefined;
  if (!round || !ask) return { asked: false };
  if (ask.agentId !== agentId) return { asked: false, roundId: round._id, waitingFor: ask.agentId };
  return { asked: true, roundId: round._id, canSkip: ask.canSkip };
}

/** `wait_for_turn`: polls by `_id` until this seat is asked, the time is up or the caller left. */
export async function waitForTurn(
  deps: Pick<SeatDeps, 'store'>,
  seat: Seat,
  o: { timeoutMs: number; signal?: AbortSignal; pollMs?: number },
): Promise<SeatTurn> {
  const until = Date.now() + o.timeoutMs;
  for (;;) {
    const t = await turnOf(deps, seat);
    if (t.asked || Date.now() >= until || o.signal?.aborted) return t;
    await new Promise((r) => setTimeout(r, Math.min(o.pollMs ?? 250, Math.max(0, until - Date.now()))));
  }
}

/** seed 002 get_context: the room, its members, the round, and what was said since the agent last spoke. */
export async function roomContext(deps: Pick<SeatDeps, 'store'>, seat: Seat, o: { limit?: number } = {}) {
  const agentId = requireAgent(seat);
  const room = await roomOf(deps, seat);
  const [dialogue, round] = await Promise.all([
    deps.store.dialogues.get(room.dialogueId),
    deps.store.rooms.current(room),
  ]);
  const members = await Promise.all(room.members.map((m) => deps.store.participants.getAgent(m.id)));
  const agents = new Map(members.filter((a): a is Agent => a !== null).map((a) => [a._id, a]));
  const names = new Map([...agents].map(([id, a]) => [id, a.name]));
  const said = dialogue?.currentSessionId ? await conversationOf(deps, dialogue) : [];
  const lastOwn = said.map((m) => m.senderId).lastIndexOf(agentId);
  const since = said.slice(lastOwn + 1).slice(-(o.limit ?? 50));
  const ask = round ? nextAsk(round) : undefined;
  return {
    room: {
      id: room._id,
      name: room.name,
      description: room.description ?? null,
      mode: room.mode,
      status: room.status,
    },
    announcement: room.announcement?.text ?? null,
    members: room.members.map((m) => ({
      id: m.id,
      name: names.get(m.id) ?? m.id,
      kind: m.kind,
      isHost: hostOf(room)?.id === m.id,
      introduction: m.introduction ?? null,
      capabilities: agents.get(m.id)?.capabilities ?? [],
    })),
    round: round
      ? { id: round._id, seq: round.seq, completed: round.completed, asked: round.asked, next: ask?.agentId ?? null }
      : null,
    messages: since.map((m) => ({
      id: m._id,
      at: m.createdAt.toISOString(),
      from: m.senderRole === 'human' ? (m.contentMeta?.senderName ?? 'user') : (names.get(m.senderId) ?? m.senderId),
      role: m.senderRole,
      text: m.content,
    })),
  };
}

/** seed 002 send_message: the asked agent's answer, stored, shown in the chat, and the round moves on. */
export async function sendAsSeat(deps: SeatDeps, seat: Seat, raw: string, now: Date): Promise<{ messageId: string }> {
  const agentId = requireAgent(seat);
  const check = checkInboundText(raw);
  if (!check.ok)
    throw new GatewayError(
      check.code,
      check.code === 'MESSAGE_TOO_LONG' ? 'the message is too long' : 'the message is empty',
    );
  const { room, turnId } = await askedNow(deps, seat, agentId);
  const [turn, dialogue, agent] = await Promise.all([
    deps.store.turns.get(turnId),
    deps.store.dialogues.get(room.dialogueId),
    deps.store.participants.getAgent(agentId),
  ]);
  if (!turn || !dialogue || !agent) throw new GatewayError('NOT_FOUND', 'the ask is gone');
  const message: Message = {
    _id: replyIdOf(turn._id),
    dialogueId: turn.dialogueId,
    sessionId: turn.sessionId,
    turnId: turn._id,
    senderRole: 'ai',
    senderId: agentId,
    contentType: 'text',
    content: check.text,
    mentions: [],
    visible: true,
    delivery: { state: 'complete', platformMessageIds: [] },
    createdAt: now,
    updatedAt: now,
  };
  if ((await deps.store.messages.insertOnce(message)) === 'duplicate')
    throw new GatewayError('NOT_YOUR_TURN', 'you already answered this ask');
  await show(deps, { message, agent, dialogue });
  await deps.store.turns.closeResponded(turn, now, { outcome: 'complete', responseMessageId: message._id });
  const others = (await Promise.all(agentMembers(room).map((id) => deps.store.participants.getAgent(id)))).filter(
    (a): a is Agent => a !== null && a._id !== agentId,
  );
  const mentions = mentionedAgents({ platform: dialogue.chat.platform, text: check.text, mentions: [] }, others);
  const next = await askAnswered(deps, turn, { messageId: message._id, mentions }, now);
  if (next) await deps.enqueueReply(next);
  return { messageId: message._id };
}

/** seed 002 skip_response for an external agent: refused when it was @mentioned. */
export async function skipAsSeat(deps: SeatDeps, seat: Seat, now: Date): Promise<{ skipped: true }> {
  const agentId = requireAgent(seat);
  const { round, turnId } = await askedNow(deps, seat, agentId);
  if (round.mustAnswer.includes(agentId))
    throw new GatewayError('SKIP_NOT_ALLOWED', 'you were @mentioned: answer, do not skip');
  const turn = await deps.store.turns.get(turnId);
  if (!turn) throw new GatewayError('NOT_FOUND', 'the ask is gone');
  const skip = skipMessage(turn, 'chose', now);
  await deps.store.messages.insertOnce(skip);
  await deps.store.turns.closeResponded(turn, now, { outcome: 'complete', responseMessageId: skip._id });
  const next = await askSkipped(deps, turn, 'chose', now);
  if (next) await deps.enqueueReply(next);
  return { skipped: true };
}

/** seed 002 get_full_message: one message of this room. */
export async function fullMessage(deps: Pick<SeatDeps, 'store'>, seat: Seat, messageId: string) {
  const room = await roomOf(deps, seat);
  const m = await deps.store.messages.get(messageId);
  if (!m || m.dialogueId !== room.dialogueId || !m.visible)
    throw new GatewayError('MESSAGE_NOT_FOUND', `no message ${messageId} in this room`);
  return {
    id: m._id,
    at: m.createdAt.toISOString(),
    role: m.senderRole,
    senderId: m.senderId,
    contentType: m.contentType,
    text: m.content,
    mentions: m.mentions,
    replyTo: m.replyTo ?? null,
  };
}

/** seed 002 search_messages: the room's newest messages containing the text, in the order they were said. */
export async function searchRoom(deps: Pick<SeatDeps, 'store'>, seat: Seat, query: string, limit: number) {
  const room = await roomOf(deps, seat);
  // The search index (src/search/), as every search: the room's shown, undeleted messages; bad text is BAD_REQUEST.
  const plan = planMessageSearch({ text: query, dialogueId: room.dialogueId, visibleOnly: true }, new Date());
  const page = await searchMessages(deps.store, plan, { limit });
  return [...page.messages].reverse().map((m) => ({
    id: m._id,
    at: m.createdAt.toISOString(),
    role: m.senderRole,
    text: (searchableTexts(m)[0] ?? '').slice(0, 500),
  }));
}

export async function roomOf(deps: Pick<SeatDeps, 'store'>, seat: Seat): Promise<Room> {
  const room = await deps.store.rooms.get(seat.roomId);
  if (!room) throw new GatewayError('ROOM_NOT_FOUND', `room ${seat.roomId} not found`);
  return room;
}

function requireAgent(seat: Seat): string {
  if (!seat.agentId) throw new GatewayError('BAD_REQUEST', 'register_agent first');
  return seat.agentId;
}

/** The room, its round and the ask's turn, when this agent is the one asked now. */
async function askedNow(
  deps: Pick<SeatDeps, 'store'>,
  seat: Seat,
  agentId: string,
): Promise<{ room: Room; round: RoomRound; turnId: string }> {
  const room = await roomOf(deps, seat);
  if (!room.members.some((m) => m.id === agentId))
    throw new GatewayError('NOT_A_MEMBER', 'you are not a member of this room');
  const round = await deps.store.rooms.current(room);
  const ask = round ? nextAsk(round) : undefined;
  const turnId = round?.asks.at(-1)?.turnId;
  if (!round || !ask || ask.agentId !== agentId || !turnId)
    throw new GatewayError('NOT_YOUR_TURN', 'it is not your turn');
  return { room, round, turnId };
}

/** The current session's conversation, oldest first (from the working window). */
async function conversationOf(deps: Pick<SeatDeps, 'store'>, dialogue: Dialogue): Promise<Message[]> {
  const session = await deps.store.sessions.get(dialogue.currentSessionId!);
  if (!session) return [];
  const r = await deps.store.history.since(session, undefined);
  return r.messages.filter(isConversation);
}

/** Posts the external agent's message in the chat under its name, recording each platform id. */
async function show(deps: SeatDeps, o: { message: Message; agent: Agent; dialogue: Dialogue }): Promise<void> {
  const outbound = deps.outbounds[o.dialogue.chat.platform];
  if (!outbound) throw new GatewayError('PLATFORM_NOT_CONFIGURED', `no outbound for ${o.dialogue.chat.platform}`);
  const options = deps.presentAs?.(o.agent, o.dialogue);
  // Without a persona of its own the post names its author.
  const text = options?.persona ? o.message.content : `${o.agent.name}: ${o.message.content}`;
  for (const chunk of splitForPlatform(text, outbound.maxMessageChars)) {
    const sent = await outbound.send(o.dialogue.chat, chunk, options);
    await deps.store.messages.recordPlatformMessage(o.message, o.dialogue.chat, sent.platformMessageId);
  }
}
