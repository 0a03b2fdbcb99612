// A step's proposed memories go through the same write step as post-turn extraction
// (src/memory/writeStep.ts, then writeMemories.ts): exact duplicates settle without the model,
// similar entries go to `reconcile_memories` (its call charged to the run's budget), a
// contradicted entry is superseded, never deleted. Around the write, under the scope's state
// guard, every entry the write can touch is read before and after: the difference is the
// rollback ledger, stored on the run right after the write.
import type { MemoryEmbedding, MemoryEntry, MemoryOrigin } from '../domain/model.js';
import type { IntrospectionTurn, MemoryChange } from '../domain/reflection.js';
import { GatewayError } from '../errors.js';
import { memoryIdOf, type OwnerScope } from '../store/memories.js';
import { clampMemoryText, dedupeKeyOf } from '../memory/normalize.js';
import { PRIVATE_HOME } from '../domain/memoryOrigin.js';
import { DEFAULT_RECONCILE_OPTIONS, type Candidate, type Decision } from '../memory/reconcile.js';
import { applyDecisions, type WriteSummary } from '../memory/writeMemories.js';
import { planMemoryWrite } from '../memory/writeStep.js';
import { RECONCILE_MEMORIES_INSTRUCTIONS, reconcileOutputSchema } from '../memory/extractionPrompt.js';
import type { Proposal } from './reflectionPrompts.js';
import type { RunContext } from './runContext.js';

export interface WriteRequest {
  scope: OwnerScope;
  proposals: Proposal[];
  /** What the step read: the provenance of what it writes. */
  shown: { memoryIds: string[]; messageIds: string[]; turnIds: string[]; dialogueIds: string[] };
  occurredAt: Date;
  /** Where a person's memories were learned (their private chats); absent for the agent's own. */
  origin?: MemoryOrigin;
}

/** Writes a step's proposals (all or none within the budget) and fills the turn's memory fields. */
export async function writeProposals(ctx: RunContext, turn: IntrospectionTurn, req: WriteRequest): Promise<void> {
  if (req.proposals.length === 0) return;
  const at = { seq: turn.seq, step: turn.step };
  ctx.spender.checkMemories(req.proposals.length, at);
  const maxChars = ctx.config.limits.memory_max_chars;
  const candidates = req.proposals.map((p, i) => toCandidate(ctx, turn, req, p, i, maxChars));
  const { deps } = ctx;

  const planned = await planMemoryWrite(
    { store: deps.store, embedder: deps.embedder, cache: deps.cache, log: deps.log },
    {
      scope: req.scope,
      candidates,
      // A person's summaries are private (SPEC §13): compared only with their private memories.
      home: req.scope.subjectId === undefined ? undefined : PRIVATE_HOME,
      options: DEFAULT_RECONCILE_OPTIONS,
      maxChars,
      ask: (input) => askModel(ctx, turn, input),
      writer: 'reflection',
    },
  );
  turn.notes.push(...planned.problems.map((p) => `reconcile: ${p}`));
  const { decisions, embeddings } = planned;

  const now = ctx.now();
  const { summary, changes } = await deps.store.memories.guarded(req.scope, () =>
    writeWithLedger(ctx, turn, req, { candidates, decisions, embeddings, now, maxChars }),
  );
  await deps.store.reflections.addChanges(ctx.run, changes, now);
  await ctx.spender.chargeMemories(req.proposals.length);
  const changed = changes.map((c) => c.memoryId);
  if (changed.length > 0)
    await deps.cache
      .noteWritten(req.scope, changed)
      .catch((err: unknown) => deps.log.warn({ err, scope: req.scope }, 'memory index not told of a reflection write'));
  turn.generatedMemoryIds.push(...summary.writtenIds.filter((id) => !turn.generatedMemoryIds.includes(id)));
  turn.supersededMemoryIds.push(...summary.supersededIds);
  ctx.generated.push(...summary.writtenIds);
}

function toCandidate(
  ctx: RunContext,
  turn: IntrospectionTurn,
  req: WriteRequest,
  p: Proposal,
  i: number,
  maxChars: number,
): Candidate {
  const text = clampMemoryText(p.text, maxChars);
  if (Array.from(p.text.trim()).length > maxChars)
    turn.notes.push(`memory ${i} cut to ${maxChars} characters (limits.memory_max_chars)`);
  return {
    // writeMemories stores whatever kind it is given; its type names only extraction's kinds
    // because extraction is its only other caller. Reflection's kinds are MemoryKinds too.
    kind: p.kind as Candidate['kind'],
    text,
    importance: p.importance,
    occurredAt: req.occurredAt,
    dedupeKey: dedupeKeyOf(req.scope.ownerId, req.scope.subjectId, text, req.origin),
  };
}

interface Planned {
  candidates: Candidate[];
  decisions: Decision[];
  embeddings: ReadonlyMap<string, MemoryEmbedding>;
  now: Date;
  maxChars: number;
}

/** Ids a decision can change, besides the candidate's own derived id. */
function decisionTargets(d: Decision): string[] {
  switch (d.kind) {
    case 'noop':
      return d.targetId ? [d.targetId] : [];
    case 'add':
      return d.supersede;
    case 'update':
      return [d.targetId];
    case 'reactivate':
      return [d.id, ...d.supersede];
  }
}

/** Runs under the scope's guard: snapshot, write, provenance, snapshot; the difference is the ledger. */
async function writeWithLedger(
  ctx: RunContext,
  turn: IntrospectionTurn,
  req: WriteRequest,
  p: Planned,
): Promise<{ summary: WriteSummary; changes: MemoryChange[] }> {
  const { store, log } = ctx.deps;
  const keys = p.candidates.map((c) => c.dedupeKey);
  const maybe = [...new Set([...keys.map(memoryIdOf), ...p.decisions.flatMap(decisionTargets)])];
  const [byId, byKey] = await Promise.all([
    store.memories.getMany(maybe),
    store.reflections.memoriesByDedupeKeys(keys),
  ]);
  const before = new Map<string, MemoryEntry>([...byId, ...byKey].map((e) => [e._id, e]));

  const singleDialogue = req.shown.dialogueIds.length === 1 ? req.shown.dialogueIds[0] : undefined;
  const sources = {
    ...(singleDialogue ? { dialogueId: singleDialogue } : {}),
    ...(req.shown.turnIds.length > 0 ? { turnIds: req.shown.turnIds } : {}),
    ...(req.shown.messageIds.length > 0 ? { messageIds: req.shown.messageIds } : {}),
  };
  const summary = await applyDecisions(
    store,
    { scope: req.scope, sources, origin: req.origin, now: p.now, maxChars: p.maxChars },
    p.candidates,
    p.decisions,
    p.embeddings,
    log,
  );
  await addBasis(ctx, req, p, summary);

  const touched = [...new Set([...before.keys(), ...summary.writtenIds, ...summary.supersededIds])];
  const after = new Map((await store.memories.getMany(touched)).map((e) => [e._id, e]));
  const changes: MemoryChange[] = [];
  for (const id of touched) {
    const b = before.get(id) ?? null;
    const a = after.get(id);
    if (!a) continue;
    const changed = !b || b.updatedAt.getTime() !== a.updatedAt.getTime() || b.status !== a.status || b.text !== a.text;
    if (changed)
      changes.push({
        memoryId: id,
        seq: turn.seq,
        turnId: turn._id,
        before: b,
        after: { updatedAt: a.updatedAt, status: a.status },
      });
  }
  return { summary, changes };
}

/**
 * The memories behind each entry a step wrote: the stored ones its proposal named (among those
 * the step was shown), else everything it was shown; never the entry itself. Entries the write
 * only confirmed (duplicates) keep their own basis: their provenance grows by turns and messages.
 */
async function addBasis(ctx: RunContext, req: WriteRequest, p: Planned, summary: WriteSummary): Promise<void> {
  const { store } = ctx.deps;
  const written = await store.memories.getMany(summary.writtenIds);
  const byKey = new Map(written.map((e) => [e.dedupeKey, e._id]));
  const writtenIds = new Set(summary.writtenIds);
  const shown = new Set(req.shown.memoryIds);
  for (const [i, d] of p.decisions.entries()) {
    const id =
      d.kind === 'reactivate' ? d.id : d.kind === 'update' && writtenIds.has(d.targetId) ? d.targetId : undefined;
    const entryId = id ?? (d.kind === 'noop' ? undefined : byKey.get(p.candidates[i]!.dedupeKey));
    if (!entryId) continue;
    const named = req.proposals[i]!.basis.filter((b) => shown.has(b));
    const basis = (named.length > 0 ? named : req.shown.memoryIds).filter((b) => b !== entryId);
    await store.reflections.addMemoryBasis([entryId], basis);
  }
}

/** `reconcile_memories` within the run's budget; a model failure adds the candidates (extraction's rule). */
async function askModel(ctx: RunContext, turn: IntrospectionTurn, input: string): Promise<unknown[] | 'unavailable'> {
  try {
    const r = await ctx.spender.call(
      {
        task: 'reconcile_memories',
        instructions: RECONCILE_MEMORIES_INSTRUCTIONS,
        input,
        schema: reconcileOutputSchema,
      },
      { seq: turn.seq, step: turn.step },
    );
    turn.tokens += r.tokens;
    return r.value.operations;
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err; // a budget stop ends the step
    turn.notes.push(`reconcile: the model failed (${err.code}); new memories are added as they are`);
    return 'unavailable';
  }
}
