// A session's page order: its turns and the messages outside them in time order, and the names
// its messages are shown under.
import type { MessageView, TurnView } from './types.js';

export type Entry =
  { at: number; turn: TurnView; message?: undefined } | { at: number; message: MessageView; turn?: undefined };

/** An operator's post is signed `operator:<name>`: name them rather than showing "system". */
export const withOperator = (
  names: Record<string, string>,
  m: MessageView,
  operator: (name: string) => string,
): Record<string, string> =>
  m.senderId.startsWith('operator:') ? { ...names, [m.senderId]: operator(m.senderId.slice(9)) } : names;

/** Turns and the messages outside them, in time order (a post lands between the turns around it). */
export function timeline(turns: TurnView[], loose: MessageView[], olderHidden: boolean): Entry[] {
  const from = olderHidden && turns[0] ? Date.parse(turns[0].startedAt) : -Infinity;
  return [
    ...turns.map((turn) => ({ at: Date.parse(turn.startedAt), turn })),
    ...loose.map((message) => ({ at: Date.parse(message.createdAt), message })).filter((e) => e.at >= from),
  ].sort((a, b) => a.at - b.at);
}
