// Runs the lost-reply sweeper on an interval in every worker process. Sweeping is idempotent,
// so several workers sweeping at once cost a few reads and change nothing twice.
import type { Logger } from 'pino';
import type { Store } from '../src/store/store.js';
import { sweepLostReplies, type ReplyQueuePort } from '../src/lifecycle/sweepLostReplies.js';

export function startSweeper(o: { store: Store; queue: ReplyQueuePort; everyMs: number; olderThanMs: number; log: Logger }): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sweepLostReplies(o.store, o.queue, new Date(), o.olderThanMs)
      .then((r) => {
        if (r.requeued.length) o.log.warn({ turns: r.requeued }, 'sweeper re-enqueued replies whose job was lost');
        if (r.failed.length) o.log.error({ turns: r.failed }, 'replies whose job failed for good; an operator must look');
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
