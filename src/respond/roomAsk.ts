// What a reply does differently when it answers a room's ask (SPEC §8): an agent that may skip is
// offered skip_response, and while it may still skip what it says is held back, so a skip never
// reaches the platform. Once it has said enough to be clearly answering (HOLD_CHARS) the held
// text streams as usual and a skip is refused from then on ("you have already spoken"); a
// short answer is shown by the reply's final push, a skip not at all.
import type { Turn } from '../domain/model.js';
import type { ToolContext, ToolRegistry } from '../tools/registry.js';
import { skipResponseTool } from '../rooms/skipTool.js';

/** Text held back while an agent may still skip. */
export const HOLD_CHARS = 160;

export interface RoomAsk {
  tools: ToolRegistry;
  /** For the tool context; absent outside rooms. */
  ask?: NonNullable<ToolContext['ask']>;
  skipped(): boolean;
  /** Passes streamed text on (to `show`) once it need no longer be held. */
  stream(text: string, show: (text: string) => void): void;
}

export function roomAsk(tools: ToolRegistry, turn: Pick<Turn, 'round'>): RoomAsk {
  const round = turn.round;
  // An @mentioned agent is not offered the skip at all: it must answer (its prompt says so).
  if (!round?.canSkip)
    return {
      tools,
      ...(round ? { ask: { canSkip: false } } : {}),
      skipped: () => false,
      stream: (text, show) => show(text),
    };
  let skipped = false;
  let held = '';
  let released = false;
  return {
    tools: tools.with([skipResponseTool]),
    ask: { canSkip: true, markSkipped: () => void (skipped = true), spoke: () => released },
    skipped: () => skipped,
    stream(text, show) {
      if (released) return show(text);
      held += text;
      if (held.trim().length < HOLD_CHARS || skipped) return;
      released = true;
      show(held);
      held = '';
    },
  };
}
