// Dialogue type from who takes part and where (seed 000's seven types; ① ② are human-only
// and not mediated by the gateway, so they map to null).
import type { DialogueType } from './model.js';

export interface Participants {
  humans: number;
  agents: number;
  /** Whether the place is a multi-person chat (group, supergroup, guild channel). */
  groupChat: boolean;
  /** LIO: the humans present own all the agents present. */
  humanOwnsAgents?: boolean;
}

export function dialogueTypeOf(p: Participants): DialogueType | null {
  if (p.agents === 0) return null;
  if (p.humans === 0) return p.agents === 1 ? 'ai_self' : 'ai_ai';
  if (p.humans === 1 && p.agents > 1 && p.humanOwnsAgents) return 'lio_group';
  if (p.humans === 1 && !p.groupChat && p.agents === 1) return 'human_ai';
  return 'group';
}
