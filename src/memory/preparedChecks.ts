// Which scopes a reply's `prepare` just checked against their version in Redis, and when: the
// recall (or knowledge retrieval) that follows takes that check instead of a second GET.
/**
 * How long a prepared check counts for the reply that made it: its context is built well within
 * it, and a second version GET would only add a round trip to the reply's path.
 */
export const PREPARED_FRESH_MS = 2_000;

/** Marks past this many are swept of stale ones (a prepare whose recall never came). */
const SWEEP_AT = 256;

export class PreparedChecks {
  private readonly at = new Map<string, number>();

  note(key: string): void {
    const now = Date.now();
    if (this.at.size >= SWEEP_AT) for (const [k, t] of this.at) if (now - t > PREPARED_FRESH_MS) this.at.delete(k);
    this.at.set(key, now);
  }

  /** Whether `key` was prepared moments ago; taken once, so the next use checks again. */
  take(key: string): boolean {
    const t = this.at.get(key);
    this.at.delete(key);
    return t !== undefined && Date.now() - t <= PREPARED_FRESH_MS;
  }
}
