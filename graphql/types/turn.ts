import { builder } from '../builder.js';
import type { Message, Turn } from '../../src/domain/model.js';
import { childConnection } from '../pagination.js';
import { DeliveryStateEnum, RoleEnum, TurnStatusEnum } from './enums.js';
import { MessageType } from './message.js';
import { messageFilter, messageFilterArgs } from './queryFilters.js';

export const TurnType = builder.objectRef<Turn>('Turn').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    dialogueId: t.exposeID('dialogueId'),
    sessionId: t.exposeID('sessionId'),
    kind: t.exposeString('kind'),
    initiatorRole: t.expose('initiatorRole', { type: RoleEnum }),
    initiatorId: t.exposeString('initiatorId'),
    responderRole: t.expose('responderRole', { type: RoleEnum }),
    responderId: t.exposeString('responderId'),
    status: t.expose('status', { type: TurnStatusEnum }),
    outcome: t.field({ type: DeliveryStateEnum, nullable: true, resolve: (x) => x.outcome ?? null }),
    startedAt: t.field({ type: 'DateTime', resolve: (x) => x.startedAt }),
    deadlineAt: t.field({ type: 'DateTime', resolve: (x) => x.deadlineAt }),
    closedAt: t.field({ type: 'DateTime', nullable: true, resolve: (x) => x.closedAt ?? null }),
    responseWindowMs: t.exposeInt('responseWindowMs'),
    responseTimeMs: t.int({ nullable: true, resolve: (x) => x.responseTime ?? null }),
    messages: t.connection({
      type: MessageType,
      description: 'Messages in time order; sender role, content type and a window on createdAt filter them.',
      args: messageFilterArgs,
      resolve: (turn, args, ctx) =>
        childConnection<Message>(
          ctx.loaders,
          {
            collection: 'messages',
            parentField: 'turnId',
            parentId: turn._id,
            filter: messageFilter(args),
            field: 'createdAt',
            direction: 1,
          },
          args,
        ),
    }),
  }),
});
