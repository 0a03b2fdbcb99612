// Waiting for the memory queue (post-turn extraction, rolling summary) to go quiet, so the work a
// turn leaves behind is done before the next turn starts, as in a real conversation's pauses.
import type { MemoryQueue } from '../jobs/memoryJobs.js';
import { sleep } from './concurrency.js';

/** Resolves true once nothing waits, runs or awaits a retry; false when still busy after `timeoutMs`. */
export async function memoryIdle(memory: MemoryQueue, timeoutMs: number, pollMs = 20): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const c = await memory.queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
    // Delayed jobs are retries, except the nightly consolidation's next run (a repeat job).
    const retries =
      (c.delayed ?? 0) === 0 ? 0 : (await memory.queue.getDelayed()).filter((j) => !j.repeatJobKey).length;
    if ((c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0) + retries === 0) return true;
    if (Date.now() > until) return false;
    await sleep(pollMs);
  }
}
