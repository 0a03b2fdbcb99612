// Operator mutations that queue memory work for a worker: summarise a session (it closes as
// `summarized` and a seeded successor opens), evolve an agent's persona.
import { builder } from '../builder.js';
import { requestPersonaEvolution, requestSessionSummary } from '../../src/ops/memoryActions.js';

const SummarizeSessionResultType = builder
  .objectRef<{ sessionId: string; queued: boolean }>('SummarizeSessionResult')
  .implement({
    fields: (t) => ({ sessionId: t.exposeID('sessionId'), queued: t.exposeBoolean('queued') }),
  });

const EvolvePersonaResultType = builder
  .objectRef<{ agentId: string; queued: boolean }>('EvolvePersonaResult')
  .implement({
    fields: (t) => ({ agentId: t.exposeID('agentId'), queued: t.exposeBoolean('queued') }),
  });

builder.mutationFields((t) => ({
  summarizeSession: t.field({
    type: SummarizeSessionResultType,
    description:
      'Queues the summarise action: the session closes as summarized and a successor seeded with its summary becomes current.',
    args: { sessionId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => requestSessionSummary(ctx.ops, String(a.sessionId)),
  }),
  evolvePersona: t.field({
    type: EvolvePersonaResultType,
    description: "Queues a rewrite of the agent's evolved persona from its recent conversations.",
    args: { agentId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => requestPersonaEvolution(ctx.ops, String(a.agentId), new Date()),
  }),
}));
