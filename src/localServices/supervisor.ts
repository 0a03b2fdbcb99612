// Keeps a local stand-in server (FerretDB, redis-server) running for as long as this process
// wants it: a child that dies is started again on the same port and data, after a backoff that
// doubles while it keeps failing and resets once a run lasted a while. Clients reconnect by
// themselves (the MongoDB driver and ioredis retry), so nobody has to restart it by hand.

export interface RunningChild {
  /** Resolves with the exit code (null: killed by a signal) when the child ends. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
  /** The OS process id, when it is one. */
  pid?: number | undefined;
}

export interface SupervisorOptions {
  name: string;
  /** Starts the child and resolves once it serves. */
  start(): Promise<RunningChild>;
  log(line: string): void;
  /** First wait before a restart; doubles up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A run at least this long resets the backoff. */
  healthyAfterMs?: number;
}

export interface Supervised {
  /** Stops the child for good (no restart). */
  stop(): Promise<void>;
  /** How many times the child was started again. */
  readonly restarts: number;
  /** The running child's process id (none while it is being started again). */
  readonly pid: number | undefined;
}

export async function supervise(o: SupervisorOptions): Promise<Supervised> {
  const first = await o.start();
  let current: RunningChild | undefined = first;
  let stopping = false;
  let restarts = 0;
  let backoff = o.backoffMs ?? 500;
  const maxBackoff = o.maxBackoffMs ?? 30_000;
  const healthyAfter = o.healthyAfterMs ?? 60_000;
  let wake: (() => void) | undefined;

  const watch = async (run: RunningChild, startedAt: number): Promise<void> => {
    const code = await run.exited;
    if (stopping) return;
    if (Date.now() - startedAt >= healthyAfter) backoff = o.backoffMs ?? 500;
    current = undefined;
    for (;;) {
      o.log(`${o.name} exited (code ${code ?? 'signal'}); starting it again in ${backoff} ms`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, backoff);
        wake = () => {
          clearTimeout(t);
          res();
        };
      });
      wake = undefined;
      if (stopping) return;
      backoff = Math.min(backoff * 2, maxBackoff);
      try {
        const next = await o.start();
        if (stopping) return void (await next.stop());
        restarts += 1;
        current = next;
        o.log(`${o.name} is running again`);
        void watch(next, Date.now());
        return;
      } catch (err) {
        o.log(`${o.name} did not start: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };
  void watch(first, Date.now());

  return {
    async stop() {
      stopping = true;
      wake?.();
      await current?.stop();
    },
    get restarts() {
      return restarts;
    },
    get pid() {
      return current?.pid;
    },
  };
}
