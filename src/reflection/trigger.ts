// Starting a reflection (the operator's triggerReflection, the schedule's tick): the agent's
// reflection lock is taken first, named by the new run's id, so of two triggers at once exactly
// one gets it; the other is refused with REFLECTION_RUNNING naming the run that holds it. The
// winner records the run (queued, with the budget of the config in effect) and queues it for a
// worker. Runs of the agent left unfinished by a worker that died are closed as failed here:
// whoever holds the lock knows no one runs them.
import { GatewayError } from '../errors.js';
import { newId } from '../domain/ids.js';
import { scheduledReflectionIdOf, type ReflectionRun, type ReflectionTrigger } from '../domain/reflection.js';
import type { TriggerDeps } from './deps.js';

export interface TriggerInput {
  agentId: string;
  source: ReflectionTrigger;
  /** The operator's token name. */
  by?: string;
  /** The schedule's cron slot (the run id derives from it). */
  slot?: Date;
  now: Date;
}

const GOALS: Record<ReflectionTrigger, string> = {
  schedule: 'Regular look back: recent memories and conversations, persona, values and mood',
  operator: 'Reflection asked for by an operator',
};

export async function triggerReflection(deps: TriggerDeps, o: TriggerInput): Promise<ReflectionRun> {
  const { store } = deps;
  const agent = await store.participants.getAgent(o.agentId);
  if (!agent) throw new GatewayError('NOT_FOUND', `no agent with id ${o.agentId}`);
  if (agent.external)
    throw new GatewayError('BAD_REQUEST', `agent ${agent._id} runs outside the gateway; it reflects on its own`);

  const id = o.slot ? scheduledReflectionIdOf(agent._id, o.slot) : newId('rfl', o.now);
  if (!(await deps.lock.acquire(agent._id, id))) {
    const holder = describeHolder(await deps.lock.holder(agent._id));
    throw new GatewayError(
      'REFLECTION_RUNNING',
      `agent ${agent._id} is already reflecting (${holder}); try again when it has finished`,
    );
  }
  try {
    await closeAbandoned(deps, agent._id, id, o.now);
    const { config } = await store.config.get();
    const run: ReflectionRun = {
      _id: id,
      kind: 'self_reflection',
      agentId: agent._id,
      trigger: { source: o.source, ...(o.by ? { by: o.by } : {}), ...(o.slot ? { slot: o.slot } : {}) },
      goal: GOALS[o.source],
      status: 'queued',
      budget: {
        limits: { maxTokens: config.limits.reflection_max_tokens, maxMemories: config.limits.reflection_max_memories },
        used: { tokens: 0, memories: 0, calls: 0 },
      },
      turnIds: [],
      changes: [],
      queuedAt: o.now,
      updatedAt: o.now,
    };
    if (!(await store.reflections.insert(run))) {
      // This slot's run was started by another scheduler already.
      await deps.lock.release(agent._id, id);
      return (await store.reflections.get(id))!;
    }
    await deps.queue.enqueueRun({ reflectionId: id, agentId: agent._id });
    deps.log.info({ reflectionId: id, agentId: agent._id, source: o.source }, 'reflection queued');
    return run;
  } catch (err) {
    await store.reflections
      .finish(
        { _id: id, agentId: agent._id },
        {
          status: 'failed',
          failure: { code: 'NOT_QUEUED', message: `the reflection could not be queued: ${(err as Error).message}` },
          endedAt: o.now,
        },
      )
      .catch(() => {});
    await deps.lock.release(agent._id, id);
    throw err;
  }
}

/** The lock names a run, or a rollback of one (src/reflection/rollback.ts). */
function describeHolder(holder: string | undefined): string {
  if (!holder) return 'it has just finished';
  return holder.startsWith('rollback:') ? `a rollback of reflection ${holder.slice(9)}` : `reflection ${holder}`;
}

async function closeAbandoned(deps: TriggerDeps, agentId: string, except: string, now: Date): Promise<void> {
  const left = (await deps.store.reflections.unfinishedOf(agentId)).filter((r) => r._id !== except);
  for (const r of left) {
    await deps.store.reflections.finish(r, {
      status: 'failed',
      failure: { code: 'WORKER_LOST', message: 'its worker stopped before it finished (found by a later reflection)' },
      endedAt: now,
    });
    deps.log.warn({ reflectionId: r._id, agentId }, 'unfinished reflection closed as failed');
  }
}
