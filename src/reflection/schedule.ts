// The schedule's tick (jobs/reflectionJobs.ts runs it every minute): for each agent whose
// reflection schedule is on, the pure rule (src/domain/reflection.ts scheduleDecision) says
// whether its cron names this minute and it is not quiet there; a due agent's slot is noted and
// a run triggered with an id derived from the slot, so two schedulers start it once. An agent
// already reflecting keeps its run; the slot is not made up later.
import { GatewayError } from '../errors.js';
import { scheduleDecision } from '../domain/reflection.js';
import type { TriggerDeps } from './deps.js';
import { triggerReflection } from './trigger.js';

export interface TickResult {
  started: string[];
  skipped: Array<{ agentId: string; reason: string }>;
}

export async function reflectOnSchedule(
  deps: TriggerDeps & { defaultTimezone: string },
  now: Date,
): Promise<TickResult> {
  const out: TickResult = { started: [], skipped: [] };
  for (const state of await deps.store.reflections.enabledAgents()) {
    let decision;
    try {
      decision = scheduleDecision(now, state.settings, {
        defaultTimezone: deps.defaultTimezone,
        ...(state.lastSlot ? { lastSlot: state.lastSlot } : {}),
      });
    } catch (err) {
      deps.log.warn({ err, agentId: state._id }, 'reflection schedule unreadable; skipped');
      out.skipped.push({ agentId: state._id, reason: 'bad_settings' });
      continue;
    }
    if (!decision.due) {
      if (decision.reason === 'quiet_hours') out.skipped.push({ agentId: state._id, reason: decision.reason });
      continue;
    }
    await deps.store.reflections.setLastSlot(state._id, decision.slot);
    try {
      const run = await triggerReflection(deps, { agentId: state._id, source: 'schedule', slot: decision.slot, now });
      out.started.push(run._id);
    } catch (err) {
      const reason = err instanceof GatewayError ? err.code : 'error';
      if (reason !== 'REFLECTION_RUNNING')
        deps.log.warn({ err, agentId: state._id }, 'scheduled reflection not started');
      out.skipped.push({ agentId: state._id, reason });
    }
  }
  return out;
}
