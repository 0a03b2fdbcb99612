// Response-window expiry (SPEC §4.4): pending → unresponded once the deadline has passed;
// a no-op for a turn already answered or not yet due (a job that fired early).
import type { Store } from '../store/store.js';
import { isExpired } from '../domain/turnRules.js';

export async function expireTurn(
  store: Store,
  turnId: string,
  now: Date,
): Promise<'expired' | 'not_due' | 'closed' | 'missing'> {
  const turn = await store.turns.get(turnId);
  if (!turn) return 'missing';
  if (turn.status !== 'pending') return 'closed';
  if (!isExpired(turn, now)) return 'not_due';
  return (await store.turns.expire(turn)) ? 'expired' : 'closed';
}
