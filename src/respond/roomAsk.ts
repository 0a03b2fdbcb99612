// What a reply does differently when it answers a room's ask (SPEC §8): the agent is offered
// skip_response, and while it may still skip nothing it says is shown — the finished text is
// shown at once, or nothing when it skipped — so a skip never reaches the platform.
import type { Turn } from '../domain/model.js';
import type { ToolContext, ToolRegistry } from '../tools/registry.js';
import { skipResponseTool } from '../rooms/skipTool.js';

export interface RoomAsk {
  tools: ToolRegistry;
  /** For the tool context; absent outside rooms. */
  ask?: NonNullable<ToolContext['ask']>;
  skipped(): boolean;
  /** Output is held until the reply ends (the agent may still skip). */
  holdsOutput: boolean;
}

export function roomAsk(tools: ToolRegistry, turn: Pick<Turn, 'round'>): RoomAsk {
  const round = turn.round;
  if (!round) return { tools, skipped: () => false, holdsOutput: false };
  let skipped = false;
  return {
    tools: tools.with([skipResponseTool]),
    ask: { canSkip: round.canSkip, skip: () => void (skipped = true) },
    skipped: () => skipped,
    holdsOutput: round.canSkip,
  };
}
