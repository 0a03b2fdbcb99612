// Which store failures are waited out (src/transientRetry.ts): a server restarting must not fail
// a reply that already sent its text, or the retry sends it again.
import { createRequire } from 'node:module';
import { MongoNetworkTimeoutError, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { isTransient, retryTransient } from '../../src/transientRetry.js';

// Not exported by the driver, but what an in-flight write meets when the server dies under it.
const { PoolClearedError } = createRequire(import.meta.url)('mongodb/lib/cmap/errors.js') as {
  PoolClearedError: new (pool: { address: string; serverGeneration: number }, message: string) => Error;
};

describe('transient store failures', () => {
  it('waits out a cleared pool and a network timeout, not a server refusing the write', () => {
    expect(isTransient(new PoolClearedError({ address: '127.0.0.1:27017', serverGeneration: 1 }, 'gone'))).toBe(true);
    expect(isTransient(new MongoNetworkTimeoutError('timed out'))).toBe(true);
    expect(isTransient(new MongoServerError({ message: 'E11000 duplicate key', code: 11000 }))).toBe(false);
  });

  it('tries again after a cleared pool and returns what the retry got', async () => {
    let calls = 0;
    const got = await retryTransient(
      () => {
        calls += 1;
        if (calls === 1) throw new PoolClearedError({ address: '127.0.0.1:27017', serverGeneration: 1 }, 'gone');
        return Promise.resolve('recorded');
      },
      { attempts: 3, baseMs: 1 },
    );
    expect({ got, calls }).toEqual({ got: 'recorded', calls: 2 });
  });
});
