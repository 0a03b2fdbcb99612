// Spend counted in memory and written behind (SPEC §14). Every model call adds to four counters
// (person, chat, agent, deployment); upserting them per call cost a turn a quarter more of the
// store's CPU, and every call of the deployment wrote its one hot counter. This process keeps
// what it counted for a moment and writes each counter once per flush; a budget check adds
// what is not written yet to what is stored, so this process never overspends by its own lag.
// What other processes counted reaches a check once they flush (FLUSH_MS). A process killed
// between flushes loses at most that moment's counts: spend is an operator's figure, not a bill.
import type { Logger } from 'pino';
import type { SpendRepo, SpendRow } from '../store/spend.js';
import { spendIdOf, type SpendScope } from '../domain/spend.js';

/** How long counts wait before they are written (also the lag of another process's checks). */
export const SPEND_FLUSH_MS = 1_000;

export class SpendBuffer {
  private pending = new Map<string, SpendRow>();
  /** Being written now: still counted by checks (a moment's double count errs on the safe side). */
  private inFlight = new Map<string, SpendRow>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: Pick<SpendRepo, 'addMany'>,
    private readonly o: { log: Logger; flushMs?: number },
  ) {}

  /** Adds one call's use to each subject's counter of the day; written within the flush time. */
  add(
    day: string,
    subjects: ReadonlyArray<{ scope: SpendScope; subjectId: string }>,
    used: { inputTokens: number; outputTokens: number; cost: number },
  ): void {
    for (const { scope, subjectId } of subjects) {
      const id = spendIdOf(day, scope, subjectId);
      const row = this.pending.get(id) ?? { day, scope, subjectId, inputTokens: 0, outputTokens: 0, cost: 0, calls: 0 };
      row.inputTokens += used.inputTokens;
      row.outputTokens += used.outputTokens;
      row.cost += used.cost;
      row.calls += 1;
      this.pending.set(id, row);
    }
    this.timer ??= setTimeout(() => void this.flush(), this.o.flushMs ?? SPEND_FLUSH_MS).unref();
  }

  /** What this process counted for a subject and has not written yet (in flight included). */
  unwritten(day: string, scope: SpendScope, subjectId: string): { tokens: number; cost: number } {
    const id = spendIdOf(day, scope, subjectId);
    const rows = [this.pending.get(id), this.inFlight.get(id)];
    return rows.reduce(
      (sum, r) => (r ? { tokens: sum.tokens + r.inputTokens + r.outputTokens, cost: sum.cost + r.cost } : sum),
      { tokens: 0, cost: 0 },
    );
  }

  /** Writes what is pending, one upsert per counter; a failed write is kept for the next flush. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (this.pending.size === 0) return;
      this.inFlight = this.pending;
      this.pending = new Map();
      try {
        await this.repo.addMany([...this.inFlight.values()], new Date());
      } catch (err) {
        this.o.log.warn({ err, counters: this.inFlight.size }, 'spend counters not written; kept for the next flush');
        for (const [id, row] of this.inFlight) this.merge(id, row);
        this.timer ??= setTimeout(() => void this.flush(), this.o.flushMs ?? SPEND_FLUSH_MS).unref();
      } finally {
        this.inFlight = new Map();
      }
    });
    return this.writing;
  }

  private merge(id: string, row: SpendRow): void {
    const kept = this.pending.get(id);
    if (!kept) return void this.pending.set(id, row);
    kept.inputTokens += row.inputTokens;
    kept.outputTokens += row.outputTokens;
    kept.cost += row.cost;
    kept.calls += row.calls;
  }
}
