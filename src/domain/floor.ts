// The floor (SPEC §7, seed 002): who answers an inbound message, and how. Given the dialogue's
// agents and how the message addressed each of them (activation), it names the agents that
// must answer, in order, and those that may answer or skip. A dialogue has one agent today: it
// must answer when addressed and nobody answers otherwise. Rooms extend this with rounds. Pure.
import type { Activation } from './activation.js';

export interface FloorMember {
  agentId: string;
  /** How the message addressed this agent (src/domain/activation.ts). */
  activation: Activation;
}

export interface Speaker {
  agentId: string;
  /** `must`: it answers; `may`: it is asked and may skip (rooms). */
  obligation: 'must' | 'may';
  /** Why it has the floor (the activation's reason). */
  why: Extract<Activation, { answer: true }>['why'];
}

export interface FloorDecision {
  /** Who answers, in order; empty: the message is context nobody answers. */
  speakers: Speaker[];
  /** Why nobody answers, when nobody does (the first member's reason). */
  silentWhy?: Extract<Activation, { answer: false }>['why'];
}

export function whoAnswers(members: readonly FloorMember[]): FloorDecision {
  const speakers: Speaker[] = [];
  for (const m of members) {
    if (m.activation.answer) speakers.push({ agentId: m.agentId, obligation: 'must', why: m.activation.why });
  }
  if (speakers.length > 0) return { speakers };
  const first = members[0]?.activation;
  return { speakers: [], silentWhy: first && !first.answer ? first.why : 'not_addressed' };
}
