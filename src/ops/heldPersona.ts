// An operator's review of an agent's held persona (SPEC §13): an evolved persona of an earlier
// version, which may hold what people said in private, waits out of every prompt until an
// operator adopts it (as held, or as they rewrote it) or discards it. The text is the
// operator's decision: nothing filters it here.
import { GatewayError } from '../errors.js';
import type { Agent } from '../domain/model.js';
import type { AgentEvolution } from '../store/participants.js';
import type { OpsDeps } from './opsDeps.js';

export async function resolveHeldPersona(
  deps: Pick<OpsDeps, 'store' | 'log'>,
  agentId: string,
  decision: { adopt: false } | { adopt: true; text?: string },
  now: Date,
): Promise<Agent & AgentEvolution> {
  const r = await deps.store.participants.resolveHeldPersona(agentId, decision, now);
  if (r === 'no_agent') throw new GatewayError('NOT_FOUND', `no agent with id ${agentId}`);
  if (r === 'nothing_held') throw new GatewayError('BAD_REQUEST', `agent ${agentId} holds no persona for review`);
  deps.log.info(
    { agentId, adopted: decision.adopt, rewritten: decision.adopt && decision.text !== undefined },
    'held persona resolved by an operator',
  );
  return (await deps.store.participants.getAgentEvolution(agentId))!;
}
