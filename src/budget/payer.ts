// Who a model call is spent for, carried along the call chain (as the state guard carries its
// holds): the reply or background task sets it once, and every model call under it — tool
// rounds, recall's helpers, a background task's retries — is counted and checked for that payer
// without each call site passing it on.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Payer } from '../domain/spend.js';

const current = new AsyncLocalStorage<Payer>();

/** Runs `fn` with every model call under it spent for `payer`. */
export function spendingFor<T>(payer: Payer, fn: () => Promise<T>): Promise<T> {
  return current.run(payer, fn);
}

/** The payer of the calls made now; undefined outside any reply or task (nothing is counted). */
export const currentPayer = (): Payer | undefined => current.getStore();
