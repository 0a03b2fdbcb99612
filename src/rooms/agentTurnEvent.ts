// seed 002's agent_turn event for webhook agents: what is sent when it is their turn, and its
// signature. HMAC-SHA256 over `<timestamp>.<body>` with the seat's signing key, sent as
// `X-Rainbow-Signature: t=<timestamp>,v1=<hex>`; a receiver recomputes it and refuses old
// timestamps (replay). Pure.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Turn } from '../domain/model.js';

export interface AgentTurnEvent {
  type: 'agent_turn';
  /** Unique per ask: a redelivered event has the same id. */
  id: string;
  roomId: string;
  roundId: string;
  turnId: string;
  agentId: string;
  canSkip: boolean;
  at: string;
}

export function agentTurnEvent(turn: Turn, roomId: string, at: Date): AgentTurnEvent {
  return {
    type: 'agent_turn',
    id: `agent_turn:${turn._id}`,
    roomId,
    roundId: turn.round?.roundId ?? '',
    turnId: turn._id,
    agentId: turn.responderId,
    canSkip: turn.round?.canSkip ?? false,
    at: at.toISOString(),
  };
}

export const SIGNATURE_HEADER = 'x-rainbow-signature';

export function signatureOf(body: string, key: string, timestamp: number): string {
  const mac = createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** A receiver's check: the signature matches and is at most `toleranceSec` old. */
export function verifySignature(
  body: string,
  header: string,
  key: string,
  nowSec: number,
  toleranceSec = 300,
): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSec - t) > toleranceSec || !parts.v1) return false;
  const expected = Buffer.from(signatureOf(body, key, t).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
