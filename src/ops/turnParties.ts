// Who may open a turn in a dialogue (seed 000's "open turn"): the initiator and the expected
// responder are two different participants of the dialogue. Humans and agents must belong to it;
// `system` stands for the gateway or an operator and needs no membership. Pure.
import type { Dialogue, Role } from '../domain/model.js';

export interface TurnParty {
  role: Role;
  id: string;
}

/** Why these parties cannot open a turn here, or null when they can. */
export function turnPartiesProblem(
  dialogue: Pick<Dialogue, '_id' | 'humanIds' | 'agentIds'>,
  initiator: TurnParty,
  responder: TurnParty,
): string | null {
  if (initiator.role === responder.role && initiator.id === responder.id)
    return 'the initiator and the responder must differ';
  for (const [what, p] of [
    ['initiator', initiator],
    ['responder', responder],
  ] as const) {
    if (p.role === 'human' && !dialogue.humanIds.includes(p.id))
      return `${what} ${p.id} is not a human of dialogue ${dialogue._id}`;
    if (p.role === 'ai' && !dialogue.agentIds.includes(p.id))
      return `${what} ${p.id} is not an agent of dialogue ${dialogue._id}`;
  }
  return null;
}
