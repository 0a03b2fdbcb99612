// A periodic task that never overlaps itself: a tick that finds the previous run still going is
// skipped. stop() waits for the run in flight. Used by the sweepers.
export interface Periodic {
  stop(): Promise<void>;
}

export function every(everyMs: number, task: () => Promise<void>, onError: (err: unknown) => void): Periodic {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = task()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
