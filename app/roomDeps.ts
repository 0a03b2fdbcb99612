// What the rooms' code is given in this process (SPEC §8): the floor's deps, an external
// seat's deps, how an agent without an account of its own is shown, and the webhook push of
// agent_turn events.
import type { Agent, ChatRef, Turn } from '../src/domain/model.js';
import type { Persona } from '../src/delivery/outbound.js';
import type { RoomFlowDeps } from '../src/rooms/roomFlow.js';
import type { SeatDeps } from '../src/rooms/externalSeat.js';
import { agentTurnEvent, SIGNATURE_HEADER, signatureOf } from '../src/rooms/agentTurnEvent.js';
import type { Shared } from './shared.js';
import { adapterOf } from './platforms.js';

export function roomFlowDeps(s: Shared): RoomFlowDeps {
  return {
    store: s.store,
    enqueueReply: (job) => s.respondQueue.enqueue(job),
    scheduler: s.timers,
    responseWindowMs: s.env.RESPONSE_WINDOW_MS,
    log: s.log,
    metrics: s.metrics,
    interrupt: (dialogueId, why) => s.interrupts.publish(dialogueId, why),
  };
}

export function seatDeps(s: Shared): SeatDeps & { timezone: string } {
  return {
    ...roomFlowDeps(s),
    outbounds: s.outbounds,
    presentAs: (agent, dialogue) => {
      const persona = personaOf(s, agent, dialogue.chat);
      return persona ? { persona } : undefined;
    },
    timezone: s.env.DISPLAY_TIMEZONE,
  };
}

/** Persona posts where the platform has them switched on (Discord's webhooks): the agent's name and avatar. */
export function personaOf(s: Shared, agent: Agent, chat: ChatRef): Persona | undefined {
  if (!adapterOf(chat.platform)?.personas?.(s.env)) return undefined;
  const avatarUrl = agent.avatarUrl ?? (agent.isDefault ? s.env.AGENT_AVATAR_URL : undefined);
  return { name: agent.name, ...(avatarUrl ? { avatarUrl } : {}) };
}

const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * A room asked an external agent: a webhook agent is POSTed a signed agent_turn event (a failure
 * throws, so the respond job retries; the answer deadline bounds it); an MCP agent finds out
 * through wait_for_turn.
 */
export function notifyExternal(s: Shared): (agent: Agent, turn: Turn) => Promise<void> {
  return async (agent, turn) => {
    if (agent.external?.kind !== 'webhook') return;
    const seat = await s.store.seats.get(agent.external.seatId);
    if (!seat?.webhook) return;
    const body = JSON.stringify(agentTurnEvent(turn, seat.roomId, new Date()));
    const res = await fetch(seat.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signatureOf(body, seat.webhook.signingKey, Math.floor(Date.now() / 1000)),
      },
      body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`agent_turn webhook answered ${res.status}`);
    s.log.info({ agentId: agent._id, turnId: turn._id }, 'agent_turn sent to a webhook agent');
  };
}
