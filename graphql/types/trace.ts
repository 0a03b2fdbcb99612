import { builder } from '../builder.js';
import type { EventLog } from '../../src/domain/model.js';
import { dialogueTurnView, type DialogueTurnView } from '../../src/trace/dialogueTurnView.js';
import { found } from '../errors.js';
import { MessageType } from './message.js';
import { TurnType } from './turn.js';

export const EventType = builder.objectRef<EventLog>('Event').implement({
  description: 'One recorded step: context build, LLM call, tool call, system utterance, warning or delivery.',
  fields: (t) => ({
    id: t.exposeID('_id'),
    kind: t.exposeString('kind'),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    turnId: t.exposeID('turnId', { nullable: true }),
    messageId: t.exposeID('messageId', { nullable: true }),
    data: t.field({ type: 'JSON', resolve: (e) => e.data }),
  }),
});

const TurnTraceType = builder.objectRef<DialogueTurnView>('TurnTrace').implement({
  description: "Seed 000's DialogueTurn: human input, system actions, the response, memory links.",
  fields: (t) => ({
    turn: t.field({ type: TurnType, resolve: (v) => v.turn }),
    input: t.field({ type: [MessageType], resolve: (v) => v.input }),
    systemActions: t.field({ type: [EventType], resolve: (v) => v.systemActions }),
    llmCalls: t.field({ type: [EventType], resolve: (v) => v.llmCalls }),
    toolCalls: t.field({ type: [EventType], resolve: (v) => v.toolCalls }),
    response: t.field({ type: [MessageType], resolve: (v) => v.response }),
    memoryLinks: t.stringList({ resolve: (v) => v.memoryLinks }),
  }),
});

builder.queryFields((t) => ({
  turnTrace: t.field({
    type: TurnTraceType,
    args: { turnId: t.arg.id({ required: true }) },
    resolve: async (_root, { turnId }, ctx) => found(await dialogueTurnView(ctx.store, String(turnId)), 'turn', turnId),
  }),
}));
