// Runs the lost-reply sweeper on an interval in every worker process. Sweeping is idempotent,
// so several workers sweeping at once cost a few reads and change nothing twice.
import type { Logger } from 'pino';
import type { Store } from '../src/store/store.js';
import { sweepLostReplies, type ReplyQueuePort } from '../src/lifecycle/sweepLostReplies.js';
import { every, type Periodic } from './interval.js';

export function startSweeper(o: {
  store: Store;
  queue: ReplyQueuePort;
  everyMs: number;
  olderThanMs: number;
  log: Logger;
}): Periodic {
  const reported = new Set<string>(); // failed turns already reported, so the log says it once
  return every(
    o.everyMs,
    async () => {
      const r = await sweepLostReplies(o.store, o.queue, new Date(), o.olderThanMs);
      if (r.requeued.length) o.log.warn({ turns: r.requeued }, 'sweeper re-enqueued replies whose job was lost');
      const fresh = r.failed.filter((id) => !reported.has(id));
      fresh.forEach((id) => reported.add(id));
      if (fresh.length) o.log.error({ turns: fresh }, 'replies whose job failed for good; an operator must look');
    },
    (err) => o.log.error({ err }, 'sweep failed'),
  );
}
