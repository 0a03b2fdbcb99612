// Runs one queued reflection (a worker's job): holds the agent's reflection lock for the whole
// run (renewed; a lost lock stops it between steps), runs the steps in order, stores each
// introspection turn whatever happens to it, and ends the run as completed, budget_exceeded (the
// hit recorded) or failed (the reason recorded). What earlier steps wrote stays, reconciled and
// in the ledger: a failed run loses nothing, and an operator can roll it back as a unit.
import { isGatewayError } from '../errors.js';
import type { Agent } from '../domain/model.js';
import {
  FINISHED_STATUSES,
  STEP_INFO,
  type IntrospectionTurn,
  type PlannedStep,
  type ReflectionRun,
} from '../domain/reflection.js';
import type { RunDeps } from './deps.js';
import { draftTurn, type RunContext } from './runContext.js';
import { BudgetStop, Spender } from './spend.js';
import {
  adjustValuesAndMood,
  evaluatePersona,
  searchMemories,
  summarizeHuman,
  summarizePurpose,
  writeReport,
} from './steps.js';

class LockLost extends Error {
  constructor(agentId: string) {
    super(`another reflection of agent ${agentId} took the lock`);
    this.name = 'LockLost';
  }
}

type End = Pick<ReflectionRun, 'status' | 'budgetHit' | 'failure' | 'report'>;

export async function runReflection(deps: RunDeps, reflectionId: string): Promise<ReflectionRun | null> {
  const { store, log } = deps;
  const now = deps.now ?? (() => new Date());
  const run = await store.reflections.get(reflectionId);
  if (!run) {
    log.warn({ reflectionId }, 'reflection job for a run that does not exist');
    return null;
  }
  if (FINISHED_STATUSES.includes(run.status)) return run;
  if (run.status === 'running') return endStalled(deps, run, now());
  if (!(await deps.lock.renew(run.agentId, run._id))) {
    await finish(deps, run, failed('LOCK_LOST', 'another reflection of this agent holds the lock'), now());
    return store.reflections.get(run._id);
  }
  let lost = false;
  const keepAlive = setInterval(
    () => {
      deps.lock.renew(run.agentId, run._id).then(
        (ok) => void (lost ||= !ok),
        (err: unknown) => log.warn({ err, reflectionId }, 'reflection lock not renewed'),
      );
    },
    Math.max(200, Math.floor(deps.lock.leaseMs / 3)),
  );
  try {
    const end = await runSteps(deps, run, now, () => lost).catch((err: unknown): End => {
      log.error({ err, reflectionId }, 'reflection could not run');
      return failed('INTERNAL', err instanceof Error ? err.message : String(err));
    });
    await finish(deps, run, end, now());
  } finally {
    clearInterval(keepAlive);
    await deps.lock.release(run.agentId, run._id).catch((err: unknown) => {
      log.warn({ err, reflectionId }, 'reflection lock not released; it lapses');
    });
  }
  return store.reflections.get(run._id);
}

/**
 * A run delivered again after BullMQ took its worker for stalled. While its lock is still
 * renewed the first worker may be alive: leave it (if it is dead the lock lapses, and the next
 * trigger closes the run). Otherwise it ends here, failed; what it wrote stays in the ledger.
 */
async function endStalled(deps: RunDeps, run: ReflectionRun, at: Date): Promise<ReflectionRun | null> {
  if ((await deps.lock.holder(run.agentId)) === run._id) {
    deps.log.warn({ reflectionId: run._id }, 'reflection delivered again while its lock is held; left to its worker');
    return run;
  }
  await finish(deps, run, failed('WORKER_LOST', 'the worker running this reflection stopped'), at);
  return deps.store.reflections.get(run._id);
}

const failed = (code: string, message: string, where?: PlannedStep): End => ({
  status: 'failed',
  failure: { code, message, ...(where ? { seq: where.seq, step: where.step } : {}) },
});

async function finish(deps: RunDeps, run: ReflectionRun, end: End, at: Date): Promise<void> {
  await deps.store.reflections.finish(run, { ...end, endedAt: at });
  const level = end.status === 'completed' ? 'info' : 'warn';
  deps.log[level](
    { reflectionId: run._id, agentId: run.agentId, status: end.status, failure: end.failure, hit: end.budgetHit },
    'reflection finished',
  );
}

async function runSteps(deps: RunDeps, run: ReflectionRun, now: () => Date, lockLost: () => boolean): Promise<End> {
  const agent = await deps.store.participants.getAgent(run.agentId);
  if (!agent) return failed('NOT_FOUND', `agent ${run.agentId} no longer exists`);
  const [state, config] = await Promise.all([
    deps.store.reflections.agentStateOrDefault(agent._id, now()),
    deps.config(),
  ]);
  const started = now();
  await deps.store.reflections.markStarted(run, started, state.mood);
  const ctx: RunContext = {
    deps,
    run,
    agent,
    state,
    config,
    spender: new Spender(deps, run, now),
    now,
    since: new Date(started.getTime() - state.settings.lookbackHours * 3_600_000),
    generated: [],
  };
  let current: PlannedStep = { seq: 0, step: 'search_memories' };
  try {
    const recent = await step(ctx, current, (t) => searchMemories(ctx, t));
    const done: Array<{ purpose: string; outcome: string }> = [];
    const summaries: Array<{ name: string; summary: string }> = [];
    let evaluation = '';
    let report: string | undefined;
    for (const planned of recent.plan) {
      if (lockLost()) throw new LockLost(agent._id);
      current = planned;
      const outcome = await step(ctx, planned, (t) =>
        runPlanned(ctx, t, planned, recent, { summaries, evaluation, done }),
      );
      done.push({ purpose: purposeOf(planned, recent.names), outcome });
      if (planned.step === 'evaluate_persona') evaluation = outcome;
      if (planned.step === 'write_report') report = outcome;
    }
    return { status: 'completed', ...(report ? { report } : {}) };
  } catch (err) {
    return endOf(deps, run, agent, err, current);
  }
}

function purposeOf(p: PlannedStep, names: ReadonlyMap<string, string>): string {
  return p.subjectId ? summarizePurpose(names.get(p.subjectId) ?? p.subjectId) : STEP_INFO[p.step].purpose;
}

/** One planned step after the search; returns what it concluded, in a line (the report's input). */
async function runPlanned(
  ctx: RunContext,
  t: IntrospectionTurn,
  planned: PlannedStep,
  recent: Awaited<ReturnType<typeof searchMemories>>,
  acc: {
    summaries: Array<{ name: string; summary: string }>;
    evaluation: string;
    done: ReadonlyArray<{ purpose: string; outcome: string }>;
  },
): Promise<string> {
  switch (planned.step) {
    case 'summarize_human': {
      const s = await summarizeHuman(ctx, t, recent, planned.subjectId!);
      acc.summaries.push(s);
      return s.summary;
    }
    case 'evaluate_persona':
      return evaluatePersona(ctx, t, recent, acc.summaries);
    case 'adjust_values':
      return adjustValuesAndMood(ctx, t, acc.evaluation);
    case 'write_report':
      return writeReport(ctx, t, acc.done);
    case 'search_memories':
      throw new Error('the search runs once, first');
  }
}

/** Runs a step on its own turn and stores the turn, finished or not. */
async function step<T>(ctx: RunContext, planned: PlannedStep, body: (t: IntrospectionTurn) => Promise<T>): Promise<T> {
  const startedAt = ctx.now();
  const t = draftTurn(ctx, planned, startedAt);
  try {
    return await body(t);
  } catch (err) {
    if (err instanceof BudgetStop) {
      t.status = 'budget_exceeded';
      t.error = { code: 'BUDGET_EXCEEDED', message: err.message };
    } else {
      t.status = 'failed';
      t.error = { code: isGatewayError(err) ? err.code : 'INTERNAL', message: (err as Error).message };
    }
    throw err;
  } finally {
    t.durationMs = Math.max(0, ctx.now().getTime() - startedAt.getTime());
    await ctx.deps.store.reflections.putTurn(ctx.run, t);
  }
}

function endOf(deps: RunDeps, run: ReflectionRun, agent: Agent, err: unknown, at: PlannedStep): End {
  if (err instanceof BudgetStop) return { status: 'budget_exceeded', budgetHit: err.hit };
  if (err instanceof LockLost) return failed('LOCK_LOST', err.message, at);
  if (isGatewayError(err)) return failed(err.code, err.message, at);
  deps.log.error({ err, reflectionId: run._id, agentId: agent._id }, 'reflection step failed unexpectedly');
  return failed('INTERNAL', err instanceof Error ? err.message : String(err), at);
}
