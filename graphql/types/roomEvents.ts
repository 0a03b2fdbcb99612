// seed 002's room events as a subscription (SPEC §8): message_new and message_update from the
// room's messages, round_start, agent_turn and round_end from the floor decisions of its asks,
// member_join, member_leave and member_status_change from the room's own happenings. Both come
// from the change feed (any process's writes); each event reads the record fresh.
import { Repeater } from 'graphql-yoga';
import { builder, type GraphQLContext } from '../builder.js';
import type { EventLog, Message } from '../../src/domain/model.js';
import type { FeedChange } from '../../src/feed/changeFeed.js';
import { apiError } from '../errors.js';
import { MessageType } from './message.js';

const ROOM_EVENT_TYPES = [
  'message_new',
  'message_update',
  'member_join',
  'member_leave',
  'member_status_change',
  'round_start',
  'round_end',
  'agent_turn',
] as const;
type RoomEventKind = (typeof ROOM_EVENT_TYPES)[number];

interface RoomEvent {
  type: RoomEventKind;
  roomId: string;
  at: Date;
  message?: Message;
  roundId?: string;
  agentId?: string;
  data?: Record<string, unknown>;
}

const RoomEventTypeEnum = builder.enumType('RoomEventType', { values: ROOM_EVENT_TYPES });

const RoomEventRef = builder.objectRef<RoomEvent>('RoomEvent').implement({
  fields: (t) => ({
    type: t.field({ type: RoomEventTypeEnum, resolve: (e) => e.type }),
    roomId: t.exposeID('roomId'),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    message: t.field({ type: MessageType, nullable: true, resolve: (e) => e.message ?? null }),
    roundId: t.id({ nullable: true, resolve: (e) => e.roundId ?? null }),
    agentId: t.id({ nullable: true, resolve: (e) => e.agentId ?? null }),
    data: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.data ?? null }),
  }),
});

/** Floor decisions that are seed 002 events (answers and skips are in the trace only). */
const FLOOR_TYPES: Record<string, RoomEventKind> = {
  round_started: 'round_start',
  asked: 'agent_turn',
  round_ended: 'round_end',
  member_join: 'member_join',
  member_leave: 'member_leave',
  member_status_change: 'member_status_change',
};

async function toRoomEvent(ctx: GraphQLContext, roomId: string, c: FeedChange): Promise<RoomEvent | undefined> {
  if (c.kind === 'message') {
    const message = await ctx.store.messages.get(c.messageId);
    // Invisible messages (skips) are not shown to anyone.
    if (!message?.visible) return undefined;
    return { type: c.change === 'created' ? 'message_new' : 'message_update', roomId, at: message.updatedAt, message };
  }
  if (c.kind !== 'event' || c.eventKind !== 'floor') return undefined;
  const event: EventLog | null = await ctx.store.events.get(c.eventId);
  const type = event ? FLOOR_TYPES[String(event.data.decision)] : undefined;
  if (!event || !type) return undefined;
  const { roundId, agentId } = event.data as { roundId?: string; agentId?: string };
  return {
    type,
    roomId,
    at: event.at,
    ...(roundId ? { roundId } : {}),
    ...(agentId ? { agentId } : {}),
    data: event.data,
  };
}

builder.subscriptionFields((t) => ({
  roomEvents: t.field({
    type: RoomEventRef,
    description: 'A room as it happens: seed 002’s event types, from any process’s writes.',
    args: { roomId: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      const roomId = String(args.roomId);
      const room = await ctx.store.rooms.get(roomId);
      if (!room) throw apiError('ROOM_NOT_FOUND', `no room with id ${roomId}`);
      const changes = Repeater.merge([
        ctx.pubsub.subscribe(ctx.pubsub.topics.messages, room.dialogueId),
        ctx.pubsub.subscribe(ctx.pubsub.topics.events, room.dialogueId),
      ]);
      return (async function* () {
        for await (const change of changes) {
          const event = await toRoomEvent(ctx, roomId, change);
          if (event) yield event;
        }
      })();
    },
    resolve: (event: RoomEvent) => event,
  }),
}));
