// Per-dialogue questions an operator asks first: which turns went unanswered, and which
// session is the current one.
import { builder } from '../builder.js';
import type { Dialogue, Turn } from '../../src/domain/model.js';
import type { GraphQLContext } from '../context.js';
import { keysetConnection } from '../pagination.js';
import { found } from '../errors.js';
import { SessionType } from './session.js';
import { TurnType } from './turn.js';
import { latestSessionOf } from './relations.js';

export async function dialogueOrNotFound(ctx: GraphQLContext, id: string): Promise<Dialogue> {
  return found(await ctx.loaders.dialogue.load(id), 'dialogue', id);
}

builder.queryFields((t) => ({
  unrespondedTurns: t.connection({
    type: TurnType,
    description: 'Turns of a dialogue whose response window closed without an answer, newest first.',
    args: { dialogueId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const d = await dialogueOrNotFound(ctx, String(args.dialogueId));
      return keysetConnection<Turn>(
        ctx.store.pages.of('turns'),
        { dialogueId: d._id, status: 'unresponded' },
        'startedAt',
        -1,
        args,
      );
    },
  }),
  latestSession: t.field({
    type: SessionType,
    nullable: true,
    description: 'The dialogue’s current session, else its most recently started one; null before the first message.',
    args: { dialogueId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) =>
      latestSessionOf(ctx.loaders, await dialogueOrNotFound(ctx, String(args.dialogueId))),
  }),
}));
