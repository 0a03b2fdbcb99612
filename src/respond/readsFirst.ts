// The reply's first writes (its turn's mark, its message) go to the store after the context's
// first reads (agent, person, config, index checks).

/**
 * How long the reply's first writes (its mark, its message) wait for the context's first reads.
 * The store serves commands about one at a time (FerretDB), so reads sent after those writes
 * would wait behind them, and the model waits for the reads, not for the writes. Bounded: a
 * slow read (a large memory index loading) must not keep the dialogue's guard.
 */
const READS_FIRST_MS = 20;

/** Resolves when `reads` settle, or after READS_FIRST_MS. */
export function readsFirst(reads: Promise<unknown> | undefined): Promise<void> {
  if (!reads) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, READS_FIRST_MS)));
  return Promise.race([reads.then(noop, noop), late]).finally(() => clearTimeout(timer));
}

const noop = (): void => undefined;
