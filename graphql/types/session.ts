import { builder } from '../builder.js';
import type { Session, Turn } from '../../src/domain/model.js';
import { childConnection } from '../pagination.js';
import { TurnType } from './turn.js';
import { SessionKindEnum, SessionStatusEnum } from './enums.js';
import { turnFilter, turnFilterArgs } from './queryFilters.js';

const SessionStatsType = builder.objectRef<Session['stats']>('SessionStats').implement({
  fields: (t) => ({ messageCount: t.exposeInt('messageCount'), turnCount: t.exposeInt('turnCount') }),
});

export const SessionType = builder.objectRef<Session>('Session').implement({
  fields: (t) => ({
    id: t.exposeID('_id'),
    dialogueId: t.exposeID('dialogueId'),
    kind: t.expose('kind', { type: SessionKindEnum }),
    status: t.expose('status', { type: SessionStatusEnum }),
    startedAt: t.field({ type: 'DateTime', resolve: (s) => s.startedAt }),
    lastActivityAt: t.field({ type: 'DateTime', resolve: (s) => s.lastActivityAt }),
    endedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.endedAt ?? null }),
    closeReason: t.exposeString('closeReason', { nullable: true }),
    summary: t.exposeString('summary', { nullable: true }),
    stats: t.field({ type: SessionStatsType, resolve: (s) => s.stats }),
    turns: t.connection({
      type: TurnType,
      description: 'Turns in start order; status and a window on startedAt filter them.',
      args: turnFilterArgs,
      resolve: (s, args, ctx) =>
        childConnection<Turn>(
          ctx.loaders,
          {
            collection: 'turns',
            parentField: 'sessionId',
            parentId: s._id,
            filter: turnFilter(args),
            field: 'startedAt',
            direction: 1,
          },
          args,
        ),
    }),
  }),
});
