// Operator mutations on memory: queue work for a worker — summarise a session (it closes as
// `summarized` and a seeded successor opens), evolve an agent's persona — and correct single
// memories (retire, edit, where they may be recalled).
import { z } from 'zod';
import { builder } from '../builder.js';
import { requestPersonaEvolution, requestSessionSummary } from '../../src/ops/memoryActions.js';
import { editMemory, retireMemory, setMemoryVisibility } from '../../src/ops/memoryEdits.js';
import { apiError } from '../errors.js';
import { MemoryType, MemoryVisibilityEnum } from './memory.js';

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

// Operator corrections of single memories (src/ops/memoryEdits.ts): nothing is deleted, the
// supersede chain keeps the history. Input checked here, where it enters the server.
const memoryText = z.string().trim().min(1, 'the memory text must not be empty').max(10_000);

builder.mutationFields((t) => ({
  retireMemory: t.field({
    type: MemoryType,
    description: 'Takes an active memory out of recall (status pruned); it stays stored.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => retireMemory(ctx.ops, String(a.id), new Date()),
  }),
  editMemory: t.field({
    type: MemoryType,
    description:
      'Rewrites an active memory: the new text is stored as a new entry that supersedes the old one (returned). At most limits.memory_max_chars characters.',
    args: { id: t.arg.id({ required: true }), text: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => {
      const text = memoryText.safeParse(a.text);
      if (!text.success) throw apiError('BAD_REQUEST', text.error.issues[0]?.message ?? 'invalid memory text');
      return editMemory(ctx.ops, String(a.id), text.data, new Date());
    },
  }),
  setMemoryVisibility: t.field({
    type: MemoryType,
    description:
      "Where an active memory may be recalled (SPEC §13): SHARED in every chat with its person, ORIGIN only where it was learned. Every process's memory index sees the change.",
    args: {
      id: t.arg.id({ required: true }),
      visibility: t.arg({ type: MemoryVisibilityEnum, required: true }),
    },
    resolve: (_r, a, ctx) => setMemoryVisibility(ctx.ops, String(a.id), a.visibility, new Date()),
  }),
}));
