// Store and Redis hiccups — a lost connection while a server restarts, SQLite busy under FerretDB —
// are waited out rather than failing the work: ingest retries them (an update is delayed, not
// lost), and delivery retries recording a platform message it already sent (recording it late
// beats sending it twice).
import { isNetworkFailure } from './networkErrors.js';

/**
 * The driver's errors for a server that is away. Matched by name, not class: the pool-cleared and
 * timeout kinds subclass MongoNetworkError but name themselves, and an in-flight write while the
 * server dies fails as MongoPoolClearedError.
 */
const MONGO_TRANSIENT = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
]);

/** What a client is told when a request failed on a store that is away (STORE_UNAVAILABLE). */
export const STORE_AWAY_MESSAGE = 'MongoDB or Redis is not answering; try again shortly';

/** Whether an error is worth another try of the same store or Redis call. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (isNetworkFailure(err)) return true;
  return (
    MONGO_TRANSIENT.has(err.name) ||
    // ioredis' closed connection; SQLITE_BUSY comes from FerretDB's SQLite backend under write bursts.
    /ECONNREFUSED|ECONNRESET|Connection is closed|ETIMEDOUT|SQLITE_BUSY|database is locked/.test(err.message)
  );
}

/** Runs `op`, again after `baseMs`·2ⁱ on a transient failure, at most `attempts` times in all. */
export async function retryTransient<T>(
  op: () => Promise<T>,
  o: { attempts: number; baseMs: number; onRetry?: (attempt: number, err: unknown) => void },
): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await op();
    } catch (err) {
      if (i >= o.attempts || !isTransient(err)) throw err;
      o.onRetry?.(i, err);
      await new Promise((r) => setTimeout(r, o.baseMs * 2 ** (i - 1)));
    }
  }
}
