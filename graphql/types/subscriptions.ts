// Live updates (SPEC §10) over SSE: a dialogue's messages (every streamed write of an AI reply
// included), its turns' status changes, and a turn's trace events as they are recorded. The
// store announces each write on Redis (src/feed), so changes made by any process arrive here.
// An announcement carries ids only: every event reads the record fresh from the store (not
// through ctx.loaders, whose cache would outlive the change in a long-lived subscription), so
// an event delayed behind newer writes shows the newest state and the final state always
// arrives last.
import { filter, pipe } from 'graphql-yoga';
import { builder, type GraphQLContext } from '../builder.js';
import type { Message } from '../../src/domain/model.js';
import type { FeedChange } from '../../src/feed/changeFeed.js';
import { found, stillThere } from '../errors.js';
import { MessageType } from './message.js';
import { TurnType } from './turn.js';
import { EventType } from './trace.js';

type MessageChange = Extract<FeedChange, { kind: 'message' }>;
type TurnChange = Extract<FeedChange, { kind: 'turn' }>;
type EventChange = Extract<FeedChange, { kind: 'event' }>;

const isMessageChange = (c: FeedChange): c is MessageChange => c.kind === 'message';
const isTurnChange = (c: FeedChange): c is TurnChange => c.kind === 'turn';
const isEventChange = (c: FeedChange): c is EventChange => c.kind === 'event';
const isDirectorEvent = (c: FeedChange): c is EventChange => isEventChange(c) && c.eventKind === 'director';

// Subscriptions need the viewer role, checked once when they start (authorizeOnSubscribe).
builder.subscriptionType({ authScopes: { viewer: true } });

const MessageChangeEnum = builder.enumType('MessageChange', {
  values: { CREATED: { value: 'created' }, UPDATED: { value: 'updated' } } as const,
});

interface MessageUpdate {
  change: MessageChange['change'];
  message: Message;
}

const MessageUpdateType = builder.objectRef<MessageUpdate>('MessageUpdate').implement({
  description:
    'A message of the dialogue was stored (CREATED) or changed (UPDATED); `message` is its state when the event was sent.',
  fields: (t) => ({
    change: t.field({ type: MessageChangeEnum, resolve: (u) => u.change }),
    message: t.field({ type: MessageType, resolve: (u) => u.message }),
  }),
});

/** A dialogue's changes on one topic, kept to those `keep` accepts; an unknown dialogue is refused first. */
async function dialogueFeed<C extends FeedChange>(
  ctx: GraphQLContext,
  dialogueId: string | number,
  topic: string,
  keep: (c: FeedChange) => c is C,
) {
  const id = String(dialogueId);
  found(await ctx.store.dialogues.get(id), 'dialogue', id);
  return pipe(ctx.pubsub.subscribe(topic, id), filter(keep));
}

const readEvent = async (change: EventChange, _args: unknown, ctx: GraphQLContext) =>
  stillThere(await ctx.store.events.get(change.eventId), 'event', change.eventId);

builder.subscriptionFields((t) => ({
  messageUpdates: t.field({
    type: MessageUpdateType,
    description:
      "New and changed messages of a dialogue, including every stored step of an AI reply's stream (delivery.state streaming → its outcome).",
    args: { dialogueId: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => dialogueFeed(ctx, args.dialogueId, ctx.pubsub.topics.messages, isMessageChange),
    resolve: async (change, _args, ctx) => {
      const message = stillThere(await ctx.store.messages.get(change.messageId), 'message', change.messageId);
      return { change: change.change, message };
    },
  }),
  turnUpdates: t.field({
    type: TurnType,
    description: 'Turns of a dialogue as they open and change status (pending → responded | unresponded).',
    args: { dialogueId: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => dialogueFeed(ctx, args.dialogueId, ctx.pubsub.topics.turns, isTurnChange),
    resolve: async (change, _args, ctx) => stillThere(await ctx.store.turns.get(change.turnId), 'turn', change.turnId),
  }),
  storyEvents: t.field({
    type: EventType,
    description:
      "A dialogue's director decisions as they are recorded (seed 001): each reply's markers applied or refused, replies without progress and the reminder falling due, an operator's beat changes and background switches.",
    args: { dialogueId: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => dialogueFeed(ctx, args.dialogueId, ctx.pubsub.topics.events, isDirectorEvent),
    resolve: readEvent,
  }),
  turnEvents: t.field({
    type: EventType,
    description: "A turn's trace as it is recorded: context builds, LLM calls, tool calls, warnings, deliveries.",
    args: { turnId: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      const turnId = String(args.turnId);
      found(await ctx.store.turns.get(turnId), 'turn', turnId);
      return pipe(ctx.pubsub.subscribe(ctx.pubsub.topics.events, turnId), filter(isEventChange));
    },
    resolve: readEvent,
  }),
}));
