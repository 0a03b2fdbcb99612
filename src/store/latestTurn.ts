// The dialogue's latest turn through its pointer (`Dialogue.openTurnId`), one point read. A
// dialogue stored before the pointer existed gets it from one query on its first touch.
import type { Dialogue, Turn } from '../domain/model.js';
import type { Store } from './store.js';

export async function latestTurnOf(
  store: Store,
  dialogue: Pick<Dialogue, '_id' | 'openTurnId' | 'currentSessionId'>,
): Promise<Turn | null> {
  if (dialogue.openTurnId === null) return null;
  if (dialogue.openTurnId !== undefined) return store.turns.get(dialogue.openTurnId);
  const found = dialogue.currentSessionId ? await store.turns.openIn(dialogue.currentSessionId) : null;
  await store.dialogues.setOpenTurn(dialogue._id, found?._id ?? null);
  return found;
}
