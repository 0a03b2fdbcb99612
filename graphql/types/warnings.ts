// Warnings (events of kind `warning`, one per dialogue and category, counted on repeats — see
// EventRepo.warnOnce) and the raw event log of a dialogue or a turn.
import { builder } from '../builder.js';
import type { EventLog } from '../../src/domain/model.js';
import { checkWindow, windowCondition } from '../../src/query/timeWindow.js';
import { keysetConnection } from '../pagination.js';
import { apiError } from '../errors.js';
import { DialogueType } from './dialogue.js';
import { EventType } from './trace.js';
import { EventKindEnum } from './enums.js';
import { windowArgs } from './queryFilters.js';
import { dialogueOrNotFound } from './queriesDialogue.js';

const dateOr = (v: unknown, fallback: Date) => (v instanceof Date ? v : fallback);

const WarningType = builder.objectRef<EventLog>('Warning').implement({
  description: 'One kind of warning in a dialogue: when it first and last happened and how often.',
  fields: (t) => ({
    id: t.exposeID('_id'),
    dialogueId: t.exposeID('dialogueId'),
    dialogue: t.field({
      type: DialogueType,
      nullable: true,
      resolve: (e, _a, ctx) => ctx.loaders.dialogue.load(e.dialogueId),
    }),
    category: t.string({ resolve: (e) => (typeof e.data.category === 'string' ? e.data.category : 'unknown') }),
    count: t.int({ resolve: (e) => (typeof e.data.count === 'number' ? e.data.count : 1) }),
    firstAt: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    lastAt: t.field({ type: 'DateTime', resolve: (e) => dateOr(e.data.lastAt, e.at) }),
    firstTurnId: t.exposeID('turnId', { nullable: true }),
    lastTurnId: t.id({
      nullable: true,
      resolve: (e) => (typeof e.data.lastTurnId === 'string' ? e.data.lastTurnId : null),
    }),
    data: t.field({
      type: 'JSON',
      description: 'The warning’s current values (tokens, limit, …).',
      resolve: (e) => e.data,
    }),
  }),
});

builder.queryFields((t) => ({
  warnings: t.connection({
    type: WarningType,
    description:
      'Warnings, most recently first raised first; since/until keep those that occurred in the window (first ≤ until, last ≥ since).',
    args: { dialogueId: t.arg.id(), ...windowArgs },
    resolve: async (_r, args, ctx) => {
      const { since, until } = checkWindow(args);
      if (args.dialogueId) await dialogueOrNotFound(ctx, String(args.dialogueId));
      const filter = {
        kind: 'warning' as const,
        ...(args.dialogueId ? { dialogueId: String(args.dialogueId) } : {}),
        ...(since ? { 'data.lastAt': { $gte: since } } : {}),
        ...(until ? { at: { $lt: until } } : {}),
      };
      return keysetConnection<EventLog>(ctx.store.pages.of('events'), filter, 'at', -1, args);
    },
  }),
  events: t.connection({
    type: EventType,
    description: 'The event log of a dialogue or of one turn, oldest first.',
    args: { dialogueId: t.arg.id(), turnId: t.arg.id(), kind: t.arg({ type: EventKindEnum }), ...windowArgs },
    resolve: async (_r, args, ctx) => {
      if (!args.dialogueId && !args.turnId) throw apiError('BAD_REQUEST', 'give a dialogueId or a turnId');
      if (args.turnId && !(await ctx.loaders.turn.load(String(args.turnId))))
        throw apiError('NOT_FOUND', `no turn with id ${String(args.turnId)}`);
      if (args.dialogueId) await dialogueOrNotFound(ctx, String(args.dialogueId));
      const filter = {
        ...(args.turnId ? { turnId: String(args.turnId) } : {}),
        ...(args.dialogueId ? { dialogueId: String(args.dialogueId) } : {}),
        ...(args.kind ? { kind: args.kind } : {}),
        ...windowCondition('at', args),
      };
      return keysetConnection<EventLog>(ctx.store.pages.of('events'), filter, 'at', 1, args);
    },
  }),
}));
