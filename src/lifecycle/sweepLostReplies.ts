// The sweeper (SPEC §4.1): a turn the AI must answer whose job was lost (crash between store
// and enqueue, Redis restarted without persistence) is found in the store and enqueued again.
// Enqueueing is idempotent (job id = turn id), so sweeping a healthy turn does nothing.
import type { Store } from '../store/store.js';

export interface ReplyQueuePort {
  /** Makes sure a respond job for the turn is waiting, delayed or active. */
  ensureQueued(job: { turnId: string; dialogueId: string }): Promise<'present' | 'requeued' | 'failed'>;
}

export async function sweepLostReplies(
  store: Store,
  queue: ReplyQueuePort,
  now: Date,
  olderThanMs: number,
  limit = 200,
): Promise<{ checked: number; requeued: string[]; failed: string[] }> {
  const turns = await store.turns.awaitingAi(new Date(now.getTime() - olderThanMs), now, limit);
  const requeued: string[] = [];
  const failed: string[] = [];
  for (const t of turns) {
    const r = await queue.ensureQueued({ turnId: t._id, dialogueId: t.dialogueId });
    if (r === 'requeued') requeued.push(t._id);
    if (r === 'failed') failed.push(t._id);
  }
  return { checked: turns.length, requeued, failed };
}
