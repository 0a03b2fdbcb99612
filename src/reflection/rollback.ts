// An operator's rollback of one finished reflection, as a unit: every memory the run created
// leaves the memory set, every entry it changed or superseded is put back exactly as it was,
// and its values and mood go back. It runs under the agent's reflection lock (never beside a
// run), and nothing is done when an entry changed after the run (REFLECTION_ROLLBACK_CONFLICT:
// roll back newer runs first). Each memory scope is restored under its state guard; a rollback
// interrupted halfway can be asked for again (the plan skips what is already undone).
import { GatewayError } from '../errors.js';
import type { MemoryEntry } from '../domain/model.js';
import {
  innerRollback,
  planRollback,
  type ReflectionRollback,
  type ReflectionRun,
  type RollbackPlan,
} from '../domain/reflection.js';
import type { OwnerScope } from '../store/memories.js';
import type { RollbackDeps } from './deps.js';

const scopeOf = (m: Pick<MemoryEntry, 'ownerId' | 'subjectId'>): OwnerScope =>
  m.subjectId === undefined ? { ownerId: m.ownerId } : { ownerId: m.ownerId, subjectId: m.subjectId };
const scopeKey = (s: OwnerScope) => `${s.ownerId}\u001f${s.subjectId ?? ''}`;

export async function rollbackReflection(
  deps: RollbackDeps,
  reflectionId: string,
  o: { by: string; now: Date },
): Promise<ReflectionRun> {
  const { store } = deps;
  const run = await store.reflections.get(reflectionId);
  if (!run) throw new GatewayError('NOT_FOUND', `no reflection with id ${reflectionId}`);
  if (run.status === 'queued' || run.status === 'running')
    throw new GatewayError('REFLECTION_RUNNING', `reflection ${run._id} is ${run.status}; roll it back once it ends`);
  if (run.rollback) throw new GatewayError('BAD_REQUEST', `reflection ${run._id} was rolled back already`);
  const holder = `rollback:${run._id}`;
  if (!(await deps.lock.acquire(run.agentId, holder)))
    throw new GatewayError(
      'REFLECTION_RUNNING',
      `agent ${run.agentId} is reflecting or rolling back (${(await deps.lock.holder(run.agentId)) ?? 'just now'}); try again when it has finished`,
    );
  try {
    const { plan, inner } = await planFor(deps, run);
    const restored = await applyPlan(deps, run, plan);
    if (inner.restore) await store.reflections.setInner(run.agentId, inner.restore, run.inner?.beforeBy, o.now);
    const rollback: ReflectionRollback = {
      at: o.now,
      by: o.by,
      restoredIds: plan.restore.map((m) => m._id),
      removedIds: plan.remove,
      skipped: plan.skipped,
      innerRestored: inner.restore !== undefined,
    };
    await store.reflections.recordRollback(run, rollback);
    deps.log.info(
      { reflectionId: run._id, agentId: run.agentId, restored: restored.length, removed: plan.remove.length },
      'reflection rolled back',
    );
    return (await store.reflections.get(run._id))!;
  } finally {
    await deps.lock.release(run.agentId, holder);
  }
}

/** The plan over the entries as they are now; any conflict refuses the whole rollback. */
async function planFor(deps: RollbackDeps, run: ReflectionRun) {
  const ids = [...new Set(run.changes.map((c) => c.memoryId))];
  const found = new Map((await deps.store.memories.getMany(ids)).map((m) => [m._id, m]));
  const current = new Map(ids.map((id) => [id, found.get(id) ?? null]));
  const plan = planRollback(run.changes, current);
  const state = await deps.store.reflections.agentState(run.agentId);
  const inner = innerRollback(run, { ...(state?.innerUpdatedBy ? { innerUpdatedBy: state.innerUpdatedBy } : {}) });
  const conflicts = [
    ...plan.conflicts.map((c) => `memory ${c.memoryId} ${c.reason}`),
    ...(inner.conflict ? [inner.conflict] : []),
  ];
  if (conflicts.length > 0)
    throw new GatewayError(
      'REFLECTION_ROLLBACK_CONFLICT',
      `reflection ${run._id} cannot be rolled back: ${conflicts.join('; ')}`,
    );
  return { plan, inner };
}

/**
 * Per scope, under its guard: restore first (a superseded fact is current again before its
 * successor leaves), then remove. Every process's index is told through the scope's version.
 */
async function applyPlan(deps: RollbackDeps, run: ReflectionRun, plan: RollbackPlan): Promise<string[]> {
  const { store } = deps;
  const scopes = new Map<string, { scope: OwnerScope; restore: MemoryEntry[]; remove: string[] }>();
  const slot = (s: OwnerScope) => {
    const k = scopeKey(s);
    if (!scopes.has(k)) scopes.set(k, { scope: s, restore: [], remove: [] });
    return scopes.get(k)!;
  };
  for (const m of plan.restore) slot(scopeOf(m)).restore.push(m);
  const created = new Map((await store.memories.getMany(plan.remove)).map((m) => [m._id, scopeOf(m)] as const));
  for (const id of plan.remove) {
    const s = created.get(id);
    if (s) slot(s).remove.push(id);
  }
  const restored: string[] = [];
  for (const { scope, restore, remove } of scopes.values()) {
    await store.memories.guarded(scope, async () => {
      for (const m of restore) await store.reflections.restoreMemory(m);
      for (const id of remove) await store.reflections.removeMemory(id);
    });
    // Removed for good: no index snapshot may bring them back, whatever happens to the bump below.
    if (remove.length > 0) await store.memories.forgetSnapshots([scope]);
    restored.push(...restore.map((m) => m._id));
    await deps.memoryVersions
      ?.bump(scope, [...restore.map((m) => m._id), ...remove])
      .catch((err: unknown) =>
        deps.log.error({ err, scope, reflectionId: run._id }, 'memory version not bumped after a reflection rollback'),
      );
  }
  return restored;
}
