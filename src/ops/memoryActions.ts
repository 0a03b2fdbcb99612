// Long memory work asked for by an operator: queued for a worker (jobs/memoryJobs.ts), never run
// in the API process. The summarise action then closes the session as `summarized` and opens its
// seeded successor (src/lifecycle/memoryWork.ts); persona evolution rewrites the evolved persona.
import { GatewayError } from '../errors.js';
import type { OpsDeps } from './opsDeps.js';

export async function requestSessionSummary(
  deps: Pick<OpsDeps, 'store' | 'memory'>,
  sessionId: string,
): Promise<{ sessionId: string; queued: boolean }> {
  const session = await deps.store.sessions.get(sessionId);
  if (!session) throw new GatewayError('NOT_FOUND', `no session with id ${sessionId}`);
  await deps.memory.summarize(session._id, 'api');
  return { sessionId: session._id, queued: true };
}

export async function requestPersonaEvolution(
  deps: Pick<OpsDeps, 'store' | 'memory'>,
  agentId: string,
  now: Date,
): Promise<{ agentId: string; queued: boolean }> {
  const agent = await deps.store.participants.getAgent(agentId);
  if (!agent) throw new GatewayError('NOT_FOUND', `no agent with id ${agentId}`);
  await deps.memory.evolve(agent._id, now);
  return { agentId: agent._id, queued: true };
}
