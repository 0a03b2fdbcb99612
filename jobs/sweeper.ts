// Runs the lost-reply sweeper on an interval in every worker process. Sweeping is idempotent,
// so several workers sweeping at once cost a few reads and change nothing twice.
import type { Logger } from 'pino';
import type { Store } from '../src/store/store.js';
import { sweepLostReplies, type ReplyQueuePort } from '../src/lifecycle/sweepLostReplies.js';

export function startSweeper(o: { store: Store; queue: ReplyQueuePort; everyMs: number; olderThanMs: number; log: Logger }): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const reported = new Set<string>(); // failed turns already reported, so the log says it once
  const tick = () => {
    if (running) return;
    running = sweepLostReplies(o.store, o.queue, new Date(), o.olderThanMs)
      .then((r) => {
        if (r.requeued.length) o.log.warn({ turns: r.requeued }, 'sweeper re-enqueued replies whose job was lost');
        const fresh = r.failed.filter((id) => !reported.has(id));
        fresh.forEach((id) => reported.add(id));
        if (fresh.length) o.log.error({ turns: fresh }, 'replies whose job failed for good; an operator must look');
      })
      .catch((err: unknown) => o.log.error({ err }, 'sweep failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, o.everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
